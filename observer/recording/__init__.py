"""Recordings on disk: the asciicast recorder (crash-safe, batched writes) and opening cast files."""
