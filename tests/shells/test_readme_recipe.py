"""The README's end-to-end recipe, command for command, as a newcomer would type it.

``observer token issue``, ``observer serve`` on 127.0.0.1, ``observer auth login``, then the
client commands: each is the real CLI in a process of its own (``tests/shells/recipe.py``). The
watch view itself is a terminal UI, proven by the app's tests: here ``observer
record`` connects the same way, with the token the login stored, and records the shell's prompt.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from observer.asciicast import CastReader
from tests.shells.recipe import PROMPT, observer
from tests.shells.recipe import served as serving

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """``observer serve --tokens tokens --listen 127.0.0.1:PORT -- bash``: its URL and token."""
    with serving(tmp_path) as url_and_token:
        yield url_and_token


async def test_the_readme_recipe_logs_in_lists_and_connects(
    tmp_path: Path, served: tuple[str, str]
) -> None:
    url, token = served
    login = await asyncio.to_thread(
        observer, tmp_path, "auth", "login", url, "--token-stdin", stdin=token + "\n"
    )
    assert login.returncode == 0, login.stderr
    listed = await asyncio.to_thread(observer, tmp_path, "sessions", url)
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"^default\s", listed.stdout, re.M), listed.stdout
    cast = tmp_path / "session.cast"
    record = ["record", url, "--identifier", "default", "-o", str(cast), "--duration", "2"]
    recorded = await asyncio.to_thread(observer, tmp_path, *record)
    assert recorded.returncode == 0, recorded.stderr
    with cast.open(encoding="utf-8") as lines:
        shown = "".join(event.data for event in CastReader(lines) if event.code == "o")
    assert PROMPT.strip() in shown
    assert token not in cast.read_text(encoding="utf-8")
