"""Theme data files and their loader (no Textual here: ``observer render`` uses it too).

A theme is a TOML file with a ``name``, ``dark``, a ``[ui]`` table (the app's colours) and a
``[terminal]`` table (the remote terminal's foreground, background, cursor and 16 ANSI colours).
The built-in ones ship inside this package (``observer/themes/*.toml``; the repository's top-level
``themes/`` points here); users add their own as ``<config dir>/themes/*.toml``, which override a
built-in of the same name.

A broken file never stops anything: :func:`load_themes` returns it as a :class:`ThemeError` naming
the file and the problem, next to the themes that loaded.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from observer.errors import ThemeError
from observer.terminal.colours import is_hex_colour

DEFAULT_DARK = "observer-dark"
DEFAULT_LIGHT = "observer-light"

#: The 16 ANSI colour keys of a ``[terminal]`` table, in SGR order (30-37, then 90-97).
ANSI_KEYS = (
    "black",
    "red",
    "green",
    "yellow",
    "blue",
    "magenta",
    "cyan",
    "white",
    "bright_black",
    "bright_red",
    "bright_green",
    "bright_yellow",
    "bright_blue",
    "bright_magenta",
    "bright_cyan",
    "bright_white",
)

#: Keys of the ``[ui]`` table; the names of Textual's theme colours. Only ``primary`` is required.
UI_KEYS = (
    "primary",
    "secondary",
    "accent",
    "warning",
    "error",
    "success",
    "foreground",
    "background",
    "surface",
    "panel",
)

_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")


@dataclass(frozen=True, slots=True)
class TerminalColours:
    """The remote terminal's colours: ``#rrggbb`` strings."""

    foreground: str
    background: str
    cursor: str
    ansi: tuple[str, ...]
    """16 colours: black, red, green, yellow, blue, magenta, cyan, white, then the bright ones."""


@dataclass(frozen=True, slots=True)
class ThemeSpec:
    """One loaded theme file."""

    name: str
    dark: bool
    ui: Mapping[str, str]
    terminal: TerminalColours
    source: str
    """Where it came from (a path, for messages)."""


def _colour(table: Mapping[str, object], key: str, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or value[:1] != "#" or not is_hex_colour(value[1:]):
        raise ThemeError(f'{where}.{key} must be a colour like "#1e1e2e", not {value!r}')
    return value.upper()


def parse_theme(text: str, source: str) -> ThemeSpec:
    """Parse one theme file's text.

    Args:
        text: The TOML text.
        source: Where it came from, used in error messages.

    Raises:
        ThemeError: naming ``source`` and what is wrong with it.
    """
    try:
        data = tomllib.loads(text)
        return _theme_from_data(data, source)
    except tomllib.TOMLDecodeError as error:
        raise ThemeError(f"{source}: not valid TOML ({error})") from None
    except ThemeError as error:
        raise ThemeError(f"{source}: {error.what}", error.advice) from None


def _theme_from_data(data: Mapping[str, object], source: str) -> ThemeSpec:
    name = data.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise ThemeError(f"name must be lower-case letters, digits, '-', '.' or '_', not {name!r}")
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise ThemeError(f"dark must be true or false, not {dark!r}")
    ui_table = data.get("ui")
    terminal_table = data.get("terminal")
    if not isinstance(ui_table, dict):
        raise ThemeError("missing the [ui] table")
    if not isinstance(terminal_table, dict):
        raise ThemeError("missing the [terminal] table")
    unknown = sorted(set(ui_table) - set(UI_KEYS))
    if unknown:
        raise ThemeError(f"unknown [ui] key {unknown[0]!r} (known: {', '.join(UI_KEYS)})")
    ui = {
        key: _colour(ui_table, key, "ui") for key in UI_KEYS if key in ui_table or key == "primary"
    }
    foreground = _colour(terminal_table, "foreground", "terminal")
    terminal = TerminalColours(
        foreground=foreground,
        background=_colour(terminal_table, "background", "terminal"),
        cursor=_colour(terminal_table, "cursor", "terminal")
        if "cursor" in terminal_table
        else foreground,
        ansi=tuple(_colour(terminal_table, key, "terminal") for key in ANSI_KEYS),
    )
    return ThemeSpec(name=name, dark=dark, ui=ui, terminal=terminal, source=source)


def _read(entry: Traversable | Path, source: str) -> ThemeSpec:
    try:
        text = entry.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ThemeError(f"{source}: cannot be read ({error})") from None
    return parse_theme(text, source)


def builtin_theme_files() -> list[Traversable]:
    """The theme files shipped in the package, sorted by name."""
    folder = resources.files(__name__)
    return sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(".toml")),
        key=lambda entry: entry.name,
    )


def user_theme_dir(config_dir: Path) -> Path:
    """Where a user's own theme files live: ``<config dir>/themes``."""
    return config_dir / "themes"


def load_themes(
    config_dir: Path | None = None,
) -> tuple[dict[str, ThemeSpec], list[ThemeError]]:
    """Load the built-in themes, then the user's (which win on equal names).

    Args:
        config_dir: observer's config directory, or ``None`` for built-ins only.

    Returns:
        The themes by name, and one :class:`ThemeError` per file that could not be loaded.
    """
    themes: dict[str, ThemeSpec] = {}
    problems: list[ThemeError] = []
    entries: list[tuple[Traversable | Path, str]] = [
        (entry, f"built-in theme {entry.name}") for entry in builtin_theme_files()
    ]
    if config_dir is not None:
        entries.extend((path, str(path)) for path in _user_files(user_theme_dir(config_dir)))
    for entry, source in entries:
        try:
            theme = _read(entry, source)
        except ThemeError as error:
            problems.append(error)
            continue
        themes[theme.name] = theme
    return themes, problems


def _user_files(folder: Path) -> Iterable[Path]:
    try:
        return sorted(path for path in folder.glob("*.toml") if path.is_file())
    except OSError:
        return []


def load_theme(name: str, config_dir: Path | None = None) -> ThemeSpec:
    """Return the theme called ``name``.

    Raises:
        ThemeError: when there is none; the message lists the names there are.
    """
    themes, _ = load_themes(config_dir)
    try:
        return themes[name]
    except KeyError:
        known = ", ".join(sorted(themes))
        raise ThemeError(f"no theme named {name!r}", f"choose one of: {known}") from None
