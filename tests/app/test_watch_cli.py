"""``observer watch`` refuses what it cannot do with one clear line, before opening the app."""

from __future__ import annotations

from pathlib import Path

import pytest

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
    assert status == 1 and err.startswith("observer: cannot reach ws://127.0.0.1:1")
    assert err.count("\n") == 1 and " — check the URL and that the server runs" in err


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
