"""Sans-I/O core of the ``observer.v1`` protocol and the adapters: frames, sessions, modes."""
