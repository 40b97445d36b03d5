"""The host terminal's input, read so that a lone ESC is the Escape key when its delay ends.

Textual's driver reads the terminal in a thread that waits up to 100 ms for input at a time, and
only then asks its parser whether a lone ESC has waited long enough to be the Escape key. So
whatever the escape delay (:data:`observer.app.app.ESCAPE_DELAY`), every "back" from an opened
tile or a dialog waited about 100 ms before the app saw the key: measured with 40 tiles, the key
reached the app 103-106 ms after the terminal sent it. This driver's thread waits no longer than
the parser's own deadline when one is set, and otherwise as Textual's does.

Everything else is Textual's :class:`LinuxDriver` (also macOS's); the loop below is its loop with
that one change (Textual is pinned to 8.x in ``pyproject.toml``, which this follows).
"""

from __future__ import annotations

import os
import selectors
from codecs import getincrementaldecoder
from typing import Any

from textual._loop import loop_last
from textual._parser import Parser
from textual._time import get_time
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

IDLE = 0.1
"""Seconds the input thread waits for input when no sequence is pending (Textual's: it also
checks this often whether the app is exiting)."""


def input_wait(parser: Parser[Any], idle: float = IDLE) -> float:
    """Seconds to wait for input: until the parser's pending sequence times out, if one is
    pending (a lone ESC becomes the Escape key then), else ``idle``."""
    deadline = parser._timeout_time
    if deadline is None:
        return idle
    return min(idle, max(0.0, deadline - get_time()))


class InputDriver(LinuxDriver):
    """Textual's driver, with a lone ESC read as Escape when its delay ends (module docstring)."""

    idle = IDLE

    def run_input_thread(self) -> None:
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        fileno = self.fileno
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode

        def process(ready: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> None:
            for last, (_key, mask) in loop_last(ready):
                if mask & selectors.EVENT_READ:
                    data = decode(os.read(fileno, 1024 * 4), final=final and last)
                    if not data:  # stdin piped, and at its end
                        break
                    for event in parser.feed(data):
                        self.process_message(event)
            for event in parser.tick():
                self.process_message(event)

        try:
            while not self.exit_event.is_set():
                process(selector.select(input_wait(parser, self.idle)))
            selector.unregister(fileno)
            process(selector.select(self.idle), final=True)
        finally:
            selector.close()
