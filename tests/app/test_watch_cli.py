"""``observer watch`` refuses what it cannot do with one clear line, before opening the app."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from websockets.asyncio.server import ServerConnection, serve

from observer.app.app import ObserverApp
from observer.cli import main


@pytest.fixture(autouse=True)
def empty_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("OBSERVER_CONFIG_DIR", str(tmp_path))
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(["watch", *argv])
    return status, capsys.readouterr().err


def test_a_url_without_an_identifier_asks_the_endpoint_and_says_it_cannot_reach_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Which sessions it serves: tests/integration/test_watch_without_identifier.py.
    status, err = run(capsys, "ws://127.0.0.1:1/")
    assert status == 1  # the same words as the connection's own (transport/failures.py)
    assert err == (
        "observer: ws://127.0.0.1:1 refused the connection — is the server running on port 1?\n"
    )


def test_an_unknown_profile_says_where_profiles_live(
    capsys: pytest.CaptureFixture[str], empty_config: Path
) -> None:
    status, err = run(capsys, "nope")
    assert status == 1 and "no profile or group named 'nope'" in err
    assert str(empty_config / "config.toml") in err


def test_recording_refuses_to_overwrite(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    existing = tmp_path / "old.cast"
    existing.write_text("keep me")
    status, err = run(capsys, "ws://127.0.0.1:1/", "-i", "x", "--record", str(existing))
    assert err == (
        f"observer: {existing} already exists — add --overwrite to replace it, "
        "or choose another --record file\n"
    )
    assert status == 1 and existing.read_text() == "keep me"


def test_a_chosen_size_and_keeping_the_remote_size_disagree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, err = run(capsys, "ws://127.0.0.1:1/", "--size", "100x30", "--keep-remote-size")
    assert status == 1
    assert err == "observer: --size and --keep-remote-size disagree — give one of them\n"
    status, err = run(capsys, "ws://127.0.0.1:1/", "--size", "100")
    assert status == 1 and err.startswith("observer: --size ") and err.count("\n") == 1


def test_an_unknown_theme_lists_the_themes(capsys: pytest.CaptureFixture[str]) -> None:
    status, err = run(capsys, "ws://127.0.0.1:1/", "-i", "x", "--theme", "neon")
    assert status == 1 and "no theme named 'neon'" in err and "dracula" in err


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[ObserverApp]:
    """The apps ``observer watch`` ran (none, where it failed before the full screen)."""
    apps: list[ObserverApp] = []
    monkeypatch.setattr(ObserverApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


def test_a_refused_connection_is_one_line_and_the_app_never_opens(
    capsys: pytest.CaptureFixture[str], opened: list[ObserverApp]
) -> None:
    status, err = run(capsys, "ws://127.0.0.1:1/", "-i", "x")
    assert (status, opened) == (1, [])
    assert err == (
        "observer: ws://127.0.0.1:1 refused the connection — is the server running on port 1?\n"
    )


async def test_wss_to_a_plain_server_suggests_ws_and_the_app_never_opens(
    capsys: pytest.CaptureFixture[str], opened: list[ObserverApp]
) -> None:
    async def nothing(connection: ServerConnection) -> None:
        await connection.wait_closed()

    async with serve(nothing, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        url = f"wss://127.0.0.1:{port}/"
        status, err = await asyncio.to_thread(run, capsys, url, "-i", "x")
    assert (status, opened) == (1, [])
    assert err == (
        f"observer: the TLS handshake with wss://127.0.0.1:{port} failed: the server does not "
        f"speak TLS on this port — use ws://127.0.0.1:{port}/ if it serves plain WebSocket\n"
    )


def test_a_peer_that_lists_no_sessions_is_not_asked(capsys: pytest.CaptureFixture[str]) -> None:
    # Port 1 is closed: a ttyd takes no identifier, so nothing asks it which session; the
    # connection's own refusal is the one line.
    status, err = run(capsys, "ws://127.0.0.1:1/ws", "--protocol", "ttyd")
    assert status == 1
    assert err == (
        "observer: ws://127.0.0.1:1 refused the connection — is the server running on port 1?\n"
    )


def test_a_recording_format_without_a_recording_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, err = run(capsys, "ws://127.0.0.1:1/", "-i", "x", "--format", "v3")
    assert status == 1 and "--format goes with --record FILE" in err and err.count("\n") == 1
