"""asciicast v1/v2/v3 reading and writing, and pure event transforms."""
