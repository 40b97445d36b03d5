"""The user's config file: connection profiles, profile groups and app settings. Never tokens.

``<config dir>/config.toml`` (the config dir comes from ``platformdirs``, or ``OBSERVER_CONFIG_DIR``)::

    [app]
    theme = "dracula"           # default theme
    idle_release = 300          # seconds of no typing after which control returns to watch

    [profiles.build-agent]
    url = "wss://sandbox.example.com/"
    identifier = "build-1"
    protocol = "observer"       # observer | raw | ttyd | jupyter (default: detected)
    api-version = "2024-02-02-preview"

    [groups]
    team = ["build-agent", "review-agent"]

Tokens live in the OS keyring; a token-like key in this file is refused with a message saying so.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from observer.client.watched import DEFAULT_IDLE_RELEASE
from observer.errors import UsageError
from observer.protocol import frames
from observer.protocol.adapters import PROTOCOLS

DEFAULT_API_VERSION = frames.API_VERSION
_SECRET_WORDS = ("token", "password", "secret", "authorization", "bearer")


@dataclass(frozen=True, slots=True)
class Profile:
    """How to reach one session."""

    name: str
    url: str
    identifier: str
    protocol: str | None = None
    """Adapter name, or ``None`` to detect it from the negotiated subprotocol."""
    api_version: str = DEFAULT_API_VERSION


@dataclass(frozen=True, slots=True)
class Config:
    """Everything in the config file."""

    profiles: Mapping[str, Profile] = field(default_factory=dict)
    groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    theme: str | None = None
    idle_release: float = DEFAULT_IDLE_RELEASE


def config_dir() -> Path:
    """observer's config directory: ``$OBSERVER_CONFIG_DIR`` or the platform's user config dir."""
    override = os.environ.get("OBSERVER_CONFIG_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_config_dir("observer", appauthor=False))


def config_path(directory: Path | None = None) -> Path:
    """The config file's path."""
    return (directory or config_dir()) / "config.toml"


def load_config(path: Path | None = None) -> Config:
    """Read the config file; a missing file is an empty config.

    Raises:
        UsageError: naming the file and what is wrong, and what to do.
    """
    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read {path} ({error}) — check its permissions") from None
    try:
        return parse_config(tomllib.loads(text))
    except tomllib.TOMLDecodeError as error:
        raise UsageError(f"{path} is not valid TOML ({error}) — fix or remove it") from None
    except UsageError as error:
        raise UsageError(f"{path}: {error}") from None


def parse_config(data: Mapping[str, object]) -> Config:
    """Build a :class:`Config` from parsed TOML, refusing secrets and unknown shapes."""
    _refuse_secrets(data, "")
    app = _table(data, "app")
    profiles = {name: _profile(name, table) for name, table in _table(data, "profiles").items()}
    groups: dict[str, tuple[str, ...]] = {}
    for name, members in _table(data, "groups").items():
        if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
            raise UsageError(f"groups.{name} must be a list of profile names")
        for member in members:
            if member not in profiles:
                raise UsageError(f"groups.{name} names {member!r}, which is not a profile")
        groups[name] = tuple(members)
    theme = app.get("theme")
    if theme is not None and not isinstance(theme, str):
        raise UsageError("app.theme must be a theme name")
    idle = app.get("idle_release", DEFAULT_IDLE_RELEASE)
    if not isinstance(idle, int | float) or isinstance(idle, bool) or idle <= 0:
        raise UsageError("app.idle_release must be a positive number of seconds")
    return Config(profiles=profiles, groups=groups, theme=theme, idle_release=float(idle))


def _table(data: Mapping[str, object], key: str) -> Mapping[str, object]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise UsageError(f"[{key}] must be a table")
    return value


def _refuse_secrets(data: Mapping[str, object], where: str) -> None:
    for key, value in data.items():
        if any(word in key.lower() for word in _SECRET_WORDS):
            raise UsageError(
                f"{where}{key}: tokens never go in the config file — remove it and let observer "
                "read the token from the OS keyring or OBSERVER_TOKEN"
            )
        if isinstance(value, dict):
            _refuse_secrets(value, f"{where}{key}.")


def _profile(name: str, table: object) -> Profile:
    if not isinstance(table, dict):
        raise UsageError(f"profiles.{name} must be a table")
    values = {}
    for key in ("url", "identifier", "protocol", "api-version"):
        value = table.get(key)
        if value is not None and not isinstance(value, str):
            raise UsageError(f"profiles.{name}.{key} must be a string")
        values[key] = value
    if not values["url"] or not values["identifier"]:
        raise UsageError(f"profiles.{name} needs both url and identifier")
    protocol = values["protocol"]
    if protocol is not None and protocol not in PROTOCOLS:
        raise UsageError(f"profiles.{name}.protocol must be one of {', '.join(PROTOCOLS)}")
    return Profile(
        name=name,
        url=str(values["url"]),
        identifier=str(values["identifier"]),
        protocol=protocol,
        api_version=values["api-version"] or DEFAULT_API_VERSION,
    )


def resolve_profiles(names: Sequence[str], config: Config) -> list[Profile]:
    """Expand profile and group names, in order, without duplicates.

    Raises:
        UsageError: for a name that is neither, listing the ones there are.
    """
    found: list[Profile] = []
    for name in names:
        members = config.groups.get(name, (name,))
        for member in members:
            profile = config.profiles.get(member)
            if profile is None:
                known = ", ".join(sorted([*config.profiles, *config.groups])) or "none yet"
                raise UsageError(
                    f"no profile or group named {member!r} in {config_path()} (known: {known}) "
                    "— add it, or give a URL with --identifier"
                )
            if profile not in found:
                found.append(profile)
    return found
