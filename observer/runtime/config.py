"""The user's config file: connection profiles, profile groups and app settings. Never tokens.

``<config dir>/config.toml`` (the config dir comes from ``platformdirs``, or ``OBSERVER_CONFIG_DIR``)::

    [app]
    theme = "dracula"           # default theme
    idle_release = 300          # seconds of no typing after which control returns to watch
    desktop_notifications = true  # an agent that needs you: a notification on the desktop
    record_format = "v2"        # asciicast version recorders write: v2 (every player) or v3
    notify_command = "notify-send \"$OBSERVER_NOTIFY_TITLE\" \"$OBSERVER_NOTIFY_MESSAGE\""
                                # run when an agent starts waiting (docs/notify.md)

    [profiles.build-agent]
    url = "wss://sandbox.example.com/"
    identifier = "build-1"
    protocol = "observer"       # observer | raw | ttyd | jupyter (default: detected)
    api-version = "2024-02-02-preview"
    notify_command = "..."      # this profile's own notify command (default: [app]'s)

    [groups]
    team = ["build-agent", "review-agent"]

Tokens live in the OS keyring; a token-like key in this file is refused with a message saying so.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from observer.asciicast import DEFAULT_FORMAT, FORMATS, CastFormat
from observer.client import DEFAULT_IDLE_RELEASE
from observer.errors import UsageError
from observer.protocol import frames
from observer.protocol.adapters import PROTOCOLS
from observer.runtime.files import replace_file

DEFAULT_API_VERSION = frames.API_VERSION
_SECRET_WORDS = ("token", "password", "secret", "authorization", "bearer")
#: A profile name is a TOML bare key (written as ``[profiles.NAME]`` without quoting) and a word
#: on the command line (``observer watch NAME``): not a URL, no spaces.
PROFILE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@dataclass(frozen=True, slots=True)
class Profile:
    """How to reach one session."""

    name: str
    url: str
    identifier: str
    protocol: str | None = None
    """Adapter name, or ``None`` to detect it from the negotiated subprotocol."""
    api_version: str = DEFAULT_API_VERSION
    notify_command: str | None = None
    """Run when this session's agent starts waiting (default: the config's own)."""


@dataclass(frozen=True, slots=True)
class Config:
    """Everything in the config file."""

    profiles: Mapping[str, Profile] = field(default_factory=dict)
    groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    theme: str | None = None
    idle_release: float = DEFAULT_IDLE_RELEASE
    desktop_notifications: bool = False
    record_format: CastFormat = DEFAULT_FORMAT
    notify_command: str | None = None
    """Run when an agent starts waiting (:mod:`observer.client.notify`)."""

    def notify_command_for(self, profile: Profile) -> str | None:
        """The notify command of ``profile``: its own, else the config's."""
        return profile.notify_command or self.notify_command


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
        raise UsageError(f"cannot read {path} ({error})", "check its permissions") from None
    try:
        return parse_config(tomllib.loads(text))
    except tomllib.TOMLDecodeError as error:
        raise UsageError(f"{path} is not valid TOML ({error})", "fix or remove it") from None
    except UsageError as error:
        raise UsageError(f"{path}: {error.what}", error.advice) from None


def parse_config(data: Mapping[str, object]) -> Config:
    """Build a :class:`Config` from parsed TOML, refusing secrets and unknown shapes."""
    _refuse_secrets_in(data)
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
    desktop = app.get("desktop_notifications", False)
    if not isinstance(desktop, bool):
        raise UsageError("app.desktop_notifications must be true or false")
    record_format = app.get("record_format", DEFAULT_FORMAT)
    if record_format not in FORMATS:
        raise UsageError(f"app.record_format must be one of {', '.join(FORMATS)}")
    return Config(
        notify_command=_command(app, "app"),
        profiles=profiles,
        groups=groups,
        theme=theme,
        idle_release=float(idle),
        desktop_notifications=desktop,
        record_format=record_format,
    )


def _command(table: Mapping[str, object], where: str) -> str | None:
    command = table.get("notify_command")
    if command is not None and (not isinstance(command, str) or not command.strip()):
        raise UsageError(f"{where}.notify_command must be a command line (a string)")
    return command


def _table(data: Mapping[str, object], key: str) -> Mapping[str, object]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise UsageError(f"[{key}] must be a table")
    return value


def _refuse_secrets(data: Mapping[str, object], where: str) -> None:
    for key, value in data.items():
        if any(word in key.lower() for word in _SECRET_WORDS):
            raise UsageError(
                f"{where}{key}: tokens never go in the config file",
                "remove it and let observer read the token from the OS keyring or OBSERVER_TOKEN",
            )
        if isinstance(value, dict):
            _refuse_secrets(value, f"{where}{key}.")


def _refuse_secrets_in(data: Mapping[str, object]) -> None:
    """Look for token-like keys in every table, but not in the names a user gives profiles and
    groups (a profile may be called ``secret-agent``): in what each profile holds. A group holds
    only a list of profile names."""
    _refuse_secrets({k: v for k, v in data.items() if k not in ("profiles", "groups")}, "")
    for name, table in _table(data, "profiles").items():
        if isinstance(table, dict):
            _refuse_secrets(table, f"profiles.{name}.")


def _profile(name: str, table: object) -> Profile:
    if not isinstance(table, dict):
        raise UsageError(f"profiles.{name} must be a table")
    values = {}
    for key in ("url", "identifier", "protocol", "api-version"):
        value = table.get(key)
        if value is not None and not isinstance(value, str):
            raise UsageError(f"profiles.{name}.{key} must be a string")
        values[key] = value
    if not values["url"]:
        raise UsageError(f"profiles.{name} needs a url")
    protocol = values["protocol"]
    if protocol is not None and protocol not in PROTOCOLS:
        raise UsageError(f"profiles.{name}.protocol must be one of {', '.join(PROTOCOLS)}")
    return Profile(
        name=name,
        url=str(values["url"]),
        identifier=str(values["identifier"] or ""),
        protocol=protocol,
        api_version=values["api-version"] or DEFAULT_API_VERSION,
        notify_command=_command(table, f"profiles.{name}"),
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
                    f"no profile or group named {member!r} in {config_path()} (known: {known})",
                    "add it, or give a URL with --identifier",
                )
            if profile not in found:
                found.append(profile)
    return found


def add_profile(profile: Profile, path: Path | None = None) -> Path:
    """Append ``[profiles.NAME]`` to the config file, keeping everything already in it.

    The file is only ever appended to (comments, order and formatting stay the user's), the
    result is parsed again before it replaces the file, and it replaces it atomically.

    Returns:
        The config file's path.

    Raises:
        UsageError: for a bad name, a name already used by a profile or group, a file that is
            not valid, or one whose profiles are written in a form a table cannot be added to.
    """
    path = path or config_path()
    if not PROFILE_NAME.match(profile.name):
        raise UsageError(
            f"{profile.name!r} cannot be a profile name", "use letters, digits, '-' and '_'"
        )
    existing = _read_text(path)
    config = load_config(path)
    if profile.name in config.profiles or profile.name in config.groups:
        kind = "profile" if profile.name in config.profiles else "group"
        raise UsageError(
            f"{path} already has a {kind} named {profile.name!r}",
            "choose another name, or edit the file to change it",
        )
    text = existing + ("\n" if existing and not existing.endswith("\n") else "")
    text += ("\n" if text else "") + _profile_table(profile)
    try:
        added = parse_config(tomllib.loads(text)).profiles.get(profile.name)
    except (tomllib.TOMLDecodeError, UsageError):
        added = None
    if added != profile:
        raise UsageError(
            f"cannot add [profiles.{profile.name}] to {path}: its profiles are not written as "
            "[profiles.NAME] tables",
            "add the profile there by hand",
        )
    _replace(path, text)
    return path


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read {path} ({error})", "check its permissions") from None


def _profile_table(profile: Profile) -> str:
    lines = [
        f"[profiles.{profile.name}]",
        f"url = {toml_string(profile.url)}",
    ]
    if profile.identifier:  # none: the peer ignores it, or the endpoint's only session
        lines.append(f"identifier = {toml_string(profile.identifier)}")
    if profile.protocol is not None:
        lines.append(f"protocol = {toml_string(profile.protocol)}")
    if profile.api_version != DEFAULT_API_VERSION:
        lines.append(f"api-version = {toml_string(profile.api_version)}")
    return "\n".join(lines) + "\n"


def toml_string(value: str) -> str:
    """``value`` as a TOML basic string: quotes, backslashes and control characters escaped."""
    escaped = []
    for char in value:
        if char in '"\\':
            escaped.append("\\" + char)
        elif (char < " " and char != "\t") or char == "\x7f":
            escaped.append(f"\\u{ord(char):04x}")  # TOML 1.0 §String: no raw controls but tab
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'


def _replace(path: Path, text: str) -> None:
    """Replace the config file with ``text`` in one step (a new one is 0644: it holds no secret)."""
    try:
        replace_file(path, text, new_mode=0o644)
    except OSError as error:
        raise UsageError(
            f"cannot write {path}: {error.strerror}", "check its permissions"
        ) from None
