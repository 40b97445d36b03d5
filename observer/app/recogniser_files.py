"""The prompt recognisers' files: ``observer/data/agents.toml`` and the user's own.

The user's ``<config dir>/agents.toml`` (same format, see the built-in file's comments) is tried
first. A user file that cannot be read or parsed is reported and left out: the app starts with
the built-in rules, as it does with a broken theme.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from observer.client.recognisers import Recognisers
from observer.errors import UsageError

BUILT_IN = "data/agents.toml"
FILE_NAME = "agents.toml"


def built_in_recognisers() -> Recognisers:
    """The rules observer ships, for Claude Code, Codex CLI, Gemini CLI, aider and any program."""
    text = resources.files("observer").joinpath(BUILT_IN).read_text(encoding="utf-8")
    return Recognisers.parse(text, f"observer/{BUILT_IN}")


def load_recognisers(config_dir: Path | None) -> tuple[Recognisers, list[UsageError]]:
    """The user's rules (if ``config_dir`` has them) before the built-in ones, and problems."""
    built_in = built_in_recognisers()
    if config_dir is None:
        return built_in, []
    path = config_dir / FILE_NAME
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return built_in, []
    except (OSError, UnicodeDecodeError) as error:
        return built_in, [UsageError(f"cannot read {path} ({error})", "check its permissions")]
    try:
        return Recognisers.parse(text, str(path)) + built_in, []
    except UsageError as error:
        return built_in, [error]
