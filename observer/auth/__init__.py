"""The server's token registry: digests, roles, labels and expiry in the token file; JWT checks."""
