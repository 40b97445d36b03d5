"""A hostile listing: an endpoint that lists one session whose identifier carries control
characters (an OSC title sequence). ``observer watch URL`` never takes it unasked, and prints
the listing and the error as safe text (no ESC or BEL reaches the terminal). A loopback HTTP
server stands in for the endpoint: ``observer serve`` never serves such an identifier."""

from __future__ import annotations

import pytest

from observer.app.app import ObserverApp
from observer.cli import main
from tests.integration.test_watch_without_identifier import listing, opened

__all__ = ["opened"]  # the fixture, used by name


def test_an_identifier_with_control_characters_is_listed_safely_not_taken(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    opened: list[ObserverApp],
) -> None:
    monkeypatch.setenv("OBSERVER_TOKEN", "t0ken")
    with listing([{"identifier": "evil\x1b]0;owned\x07"}]) as port:
        url = f"ws://127.0.0.1:{port}/"
        assert main(["watch", url]) == 1 and not opened
    out, err = capsys.readouterr()
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert out.splitlines()[1].startswith("evil")
    assert err.startswith(f"observer: a session at {url} (evil") and "add --identifier ID" in err
