"""The VT model over pyte: fast, faithful, safe. Pure: bytes in, screen state out."""
