"""The agent's environment: the server's, without anything observer reads a secret from.

The sandbox holds no secret (docs/server.md, "Security"), and the agent's environment is the first thing a
compromised agent reads. An operator who exported ``OBSERVER_TOKEN`` (the client's CI override)
or keyring settings in the shell that starts ``observer serve`` would otherwise hand them to
the agent. Variables the operator wants the agent to have anyway are named on purpose
(``observer serve --pass-env NAME``), or set in the command itself (``-- env NAME=value CMD``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Final

from observer.credentials.store import ENV_VAR

SECRET_VARIABLES: Final = frozenset({ENV_VAR})
"""Variables observer itself reads a token from."""
SECRET_PREFIXES: Final = ("KEYRING_PROPERTY_",)
"""keyring sets a backend's properties from these (a file keyring's password, for one)."""


def is_secret(name: str) -> bool:
    """Whether observer, or the keyring it uses, may read a secret from variable ``name``."""
    return name in SECRET_VARIABLES or name.startswith(SECRET_PREFIXES)


def agent_environment(base: Mapping[str, str], passed: Collection[str] = ()) -> dict[str, str]:
    """``base`` without the secret variables, except those named in ``passed``.

    Args:
        base: the environment to start from (the server's own, usually).
        passed: variables to keep even though they may hold a secret (``--pass-env``).
    """
    return {name: value for name, value in base.items() if name in passed or not is_secret(name)}
