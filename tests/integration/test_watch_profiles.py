"""``observer watch PROFILE``: the profile's name reaches the tiles, and its failures name the
profile's fixes (a profile takes no ``--identifier``). A real ``observer serve`` on 127.0.0.1:0."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from observer.app.app import ObserverApp
from observer.app.widgets.tile import title_line
from observer.cli import main
from observer.errors import ConnectionFailed
from tests.hostile.serve_process import serve_process
from tests.integration.test_server_sessions import tokens

pytestmark = pytest.mark.timeout(90)


@asynccontextmanager
async def serving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[int, list[ObserverApp]]]:
    """A server with session ``a``; profiles ``alpha`` (``a``) and ``beta`` (``nosuch``, which it
    does not serve); ``observer watch`` puts the app it built in the list instead of opening it."""
    path, watch, _ = tokens(tmp_path)
    monkeypatch.setenv("OBSERVER_TOKEN", watch)
    async with serve_process(["--tokens", str(path), "--identifier", "a"], "sleep 60") as running:
        port = running.port
        (tmp_path / "config.toml").write_text(
            f'[profiles.alpha]\nurl = "ws://127.0.0.1:{port}/"\nidentifier = "a"\n'
            f'[profiles.beta]\nurl = "ws://127.0.0.1:{port}/"\nidentifier = "nosuch"\n'
        )
        monkeypatch.setenv("OBSERVER_CONFIG_DIR", str(tmp_path))
        apps: list[ObserverApp] = []
        monkeypatch.setattr(ObserverApp, "run", lambda self, *a, **k: apps.append(self))
        yield port, apps


async def test_profile_names_title_the_tiles_and_a_404_says_to_fix_the_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with serving(tmp_path, monkeypatch) as (port, apps):
        assert main(["watch", "alpha", "beta"]) == 0
        alpha, beta = apps[0].links
        assert alpha.label == f"alpha · ws://127.0.0.1:{port}"
        assert beta.label == f"beta · ws://127.0.0.1:{port}"
        title = title_line(0, alpha.label, alpha.session.status(0.0)).plain
        assert title.startswith(" 1  alpha  connecting"), title
        with pytest.raises(ConnectionFailed) as failure:
            await beta.run()
    assert str(failure.value) == (
        f"ws://127.0.0.1:{port} has no session 'nosuch' (HTTP 404) — fix the identifier of "
        f"profile 'beta' (`observer config` shows it); "
        f"`observer sessions ws://127.0.0.1:{port}/` lists them"
    )
    assert "--identifier" not in str(failure.value)


async def test_a_404_for_a_url_still_says_check_identifier(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with serving(tmp_path, monkeypatch) as (port, apps):
        assert main(["watch", f"ws://127.0.0.1:{port}/", "-i", "nosuch"]) == 0
        (link,) = apps[0].links
        assert link.label == f"nosuch · ws://127.0.0.1:{port}"
        with pytest.raises(ConnectionFailed) as failure:
            await link.run()
    message = str(failure.value)
    assert "(HTTP 404) — check --identifier and the URL path; `observer sessions" in message
