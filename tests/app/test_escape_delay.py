"""A lone ESC (the dashboard's "back", leaving a dialog) is the Escape key after 25 ms, not
Textual's 100 ms; ``ESCDELAY`` (milliseconds, as for curses programs) still decides where set.
Textual's own input parser is fed as the host terminal's bytes reach it."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import textual.constants
from textual import events
from textual._xterm_parser import XTermParser

from observer.app.app import ESCAPE_DELAY, shorten_escape_delay


@pytest.fixture(autouse=True)
def textuals_delay() -> Iterator[None]:
    before = textual.constants.ESCAPE_DELAY
    try:
        yield
    finally:
        textual.constants.ESCAPE_DELAY = before  # type: ignore[misc]


def escape_after(seconds: float) -> tuple[bool, float]:
    """Whether a lone ESC is the Escape key ``seconds`` after it came (and the seconds that
    really passed: a busy machine may sleep longer)."""
    parser = XTermParser()
    started = time.monotonic()
    keys = list(parser.feed("\x1b"))
    time.sleep(seconds)
    keys += list(parser.tick())
    escaped = any(isinstance(key, events.Key) and key.key == "escape" for key in keys)
    return escaped, time.monotonic() - started


def test_a_lone_escape_is_the_escape_key_after_the_shorter_delay() -> None:
    textual.constants.ESCAPE_DELAY = 0.1  # type: ignore[misc]  # Textual's default
    escaped, waited = escape_after(2 * ESCAPE_DELAY)
    assert not escaped or waited >= 0.1  # the premise: Textual alone still waits
    shorten_escape_delay({})
    assert escape_after(2 * ESCAPE_DELAY)[0]


def test_escdelay_set_by_the_user_is_kept() -> None:
    textual.constants.ESCAPE_DELAY = 0.1  # type: ignore[misc]  # what Textual read from it
    shorten_escape_delay({"ESCDELAY": "100"})
    assert textual.constants.ESCAPE_DELAY == 0.1


def test_a_sequence_in_one_read_is_still_one_key() -> None:
    shorten_escape_delay({})
    keys = list(XTermParser().feed("\x1b[A"))
    assert [key.key for key in keys if isinstance(key, events.Key)] == ["up"]
