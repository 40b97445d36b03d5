"""The laptop's credentials: tokens in the OS keyring, per endpoint origin; never on the sandbox."""
