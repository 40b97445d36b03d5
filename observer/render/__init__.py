"""The cells-to-Rich renderer that the TUI, SVG and ANSI output share."""
