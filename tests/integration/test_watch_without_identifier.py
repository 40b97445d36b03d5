"""``observer watch URL`` without ``--identifier`` asks the endpoint which sessions it serves.

One session: it is watched. Several: they are listed as ``observer sessions`` lists them, and the
error says to pick one. None: it says so. Against a real ``observer serve`` on 127.0.0.1:0; the
endpoint that serves nothing is a loopback HTTP server answering an empty listing, since
``observer serve`` always serves at least one session.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from observer.app.app import ObserverApp
from observer.cli import main
from tests.hostile.serve_process import serve_process
from tests.integration.test_server_sessions import AGENT, tokens

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
def opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[ObserverApp]:
    """``observer watch`` puts the app it built here instead of opening it."""
    monkeypatch.setenv("OBSERVER_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    apps: list[ObserverApp] = []
    monkeypatch.setattr(ObserverApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


async def test_the_only_session_is_watched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opened: list[ObserverApp]
) -> None:
    path, watch, _ = tokens(tmp_path)
    monkeypatch.setenv("OBSERVER_TOKEN", watch)
    async with serve_process(["--tokens", str(path), "--identifier", "solo"], AGENT) as running:
        status = await asyncio.to_thread(main, ["watch", f"ws://127.0.0.1:{running.port}/"])
    assert status == 0
    (link,) = opened[0].links
    assert link.session.identifier == "solo" and link.label.startswith("solo · ")


async def test_several_sessions_are_listed_and_the_error_says_to_pick_one(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    opened: list[ObserverApp],
) -> None:
    path, watch, _ = tokens(tmp_path)
    monkeypatch.setenv("OBSERVER_TOKEN", watch)
    options = ["--tokens", str(path), "--identifier", "a", "--identifier", "b"]
    async with serve_process(options, AGENT) as running:
        url = f"ws://127.0.0.1:{running.port}/"
        status = await asyncio.to_thread(main, ["watch", url])
    out, err = capsys.readouterr()
    assert status == 1 and not opened
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["IDENTIFIER", "SIZE"]
    assert [line.split()[0] for line in lines[1:]] == ["a", "b"]
    assert err == f"observer: 2 sessions at {url} (a, b) — add --identifier ID\n"


@contextlib.contextmanager
def listing(sessions: list[dict[str, object]]) -> Iterator[int]:
    """A loopback HTTP server whose ``GET /sessions`` lists ``sessions``; its port."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps({"api-version": "2024-02-02-preview", "sessions": sessions})
            body = body.encode()
            self.send_response(200 if self.path.startswith("/sessions?") else 404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def serving_nothing() -> Iterator[int]:
    """An endpoint that lists no session; its port."""
    with listing([]) as port:
        yield port


def test_an_endpoint_serving_nothing_says_so(
    serving_nothing: int,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    opened: list[ObserverApp],
) -> None:
    monkeypatch.setenv("OBSERVER_TOKEN", "t0ken")
    url = f"ws://127.0.0.1:{serving_nothing}/"
    assert main(["watch", url]) == 1 and not opened
    err = capsys.readouterr().err
    assert (
        err == f"observer: {url} serves no session now — start one with `observer serve -- CMD`\n"
    )
