"""Every use observer makes of Textual's private API, for the one Textual it pins.

``pyproject.toml`` pins Textual exactly; ``tests/app/test_textual_patches.py`` has a test per
touch below that fails when Textual changes what it relies on (then this module is revised for
the new version, or a patch dropped where Textual fixed its cause). ``docs/textual.md`` has the
smallest reproduction of each Textual behaviour patched here, for upstream.

The command that starts the app calls :func:`install`; :func:`uninstall` gives Textual back
its own (tests build apps on Textual as it is). What is patched:

- **Painted lines without reference cycles.** Textual's compositor divides every painted line at
  the edges of the widgets over it (``Strip.divide``); for a line nothing cuts, the answer is the
  strip itself, which ``divide`` caches on the strip: a reference cycle, which outlives its last
  reference until a collection of its generation (once frozen by
  :mod:`observer.runtime.collector`, until a full collection: a pause of 0.5-1 s with 40 tiles).
  That one answer is returned uncached; every other is Textual's own. A strip's seven caches are
  made when first used rather than by ``Strip.__init__``: most painted lines use none, and they
  were most of a line's cost to make and of the objects the collector walked.
- **A lone ESC is the Escape key after :data:`ESCAPE_DELAY`** (Textual's 100 ms is what every
  "back" cost), unless the user set ``ESCDELAY``. Textual reads its delay from the environment
  once, at import, into ``textual.constants.ESCAPE_DELAY``, which its parser reads at each ESC.
- **The input thread waits no longer than the parser's deadline** (:func:`input_driver`):
  Textual's waits up to 100 ms for input and only then asks its parser whether a lone ESC has
  waited long enough, so whatever the delay, a lone ESC reached the app ~100 ms late.
"""

from __future__ import annotations

import functools
import os
import selectors
import sys
from codecs import getincrementaldecoder
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import textual.constants
from rich.segment import Segment
from textual._parser import ParseError, Parser
from textual._time import get_time
from textual._xterm_parser import XTermParser
from textual.cache import FIFOCache
from textual.driver import Driver
from textual.strip import Strip

ESCAPE_DELAY = 0.025
"""Seconds a lone ESC waits for the rest of a sequence before it is the Escape key, unless the
user sets ``ESCDELAY`` (milliseconds, as for curses programs). The app reads its host terminal
on this machine, where a sequence comes in one read; vim's ``ttimeoutlen`` and tmux's
``escape-time`` are set as short for the same reason."""
IDLE = 0.1
"""Seconds the input thread waits for input when no sequence is pending (Textual's: it also
checks this often whether the app is exiting)."""

_textual_divide = Strip.divide
_textual_init = Strip.__init__
_textual_escape_delay = textual.constants.ESCAPE_DELAY
_installed = False

#: A strip's caches and their sizes, as ``Strip.__init__`` makes them.
CACHES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}
#: The other slots ``Strip.__init__`` sets.
PLAIN_SLOTS = {"_segments", "_cell_length", "_render_cache", "_link_ids", "_cell_count"}


def install(environ: Mapping[str, str] = os.environ) -> None:
    """Patch Textual as the module docstring says (each patch only where its premise holds)."""
    global _installed
    if Strip.divide is _textual_divide and divide_caches_itself():
        Strip.divide = _divide  # type: ignore[method-assign]
    if Strip.__init__ is _textual_init and caches_as_expected():
        Strip.__init__ = _init  # type: ignore[method-assign]
        Strip.__getattr__ = _cache  # type: ignore[attr-defined]
    if "ESCDELAY" not in environ:
        textual.constants.ESCAPE_DELAY = ESCAPE_DELAY  # type: ignore[misc]
    _installed = True


def uninstall() -> None:
    """Textual's own again. Strips made meanwhile keep making their caches when first used
    (``Strip.__getattr__`` stays: a strip Textual makes has every cache, and never reaches it)."""
    global _installed
    Strip.divide = _textual_divide  # type: ignore[method-assign]
    Strip.__init__ = _textual_init  # type: ignore[method-assign]
    textual.constants.ESCAPE_DELAY = _textual_escape_delay  # type: ignore[misc]
    _installed = False


def installed() -> bool:
    """Whether :func:`install` was called (and not undone)."""
    return _installed


# -- painted lines ------------------------------------------------------------------------------


def _divide(self: Strip, cuts: Iterable[int]) -> Sequence[Strip]:
    """``Strip.divide``, with the whole-line answer not cached on the strip."""
    length = self.cell_length
    kept = [cut for cut in cuts if cut <= length]
    if kept == [length]:
        return [self]
    return _textual_divide(self, kept)


def divide_caches_itself() -> bool:
    """Whether Textual's ``Strip.divide`` keeps a reference to a strip divided into itself."""
    probe = _textual_strip()
    before = sys.getrefcount(probe)
    _textual_divide(probe, [1])
    return sys.getrefcount(probe) > before


def _init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    """``Strip.__init__`` without its caches (:func:`_cache` makes each on first use)."""
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _cache(self: Strip, name: str) -> FIFOCache[object, object]:
    """A cache of the strip's not made yet (an unset slot): made now, as Textual makes it."""
    size = CACHES.get(name)
    if size is None:
        raise AttributeError(name)
    cache: FIFOCache[object, object] = FIFOCache(size)
    setattr(self, name, cache)
    return cache


def caches_as_expected() -> bool:
    """Whether Textual's ``Strip.__init__`` makes exactly :data:`CACHES` and
    :data:`PLAIN_SLOTS` (a later Textual may make others)."""
    probe = _textual_strip()
    made = {name for name in type(probe).__slots__ if hasattr(probe, name)}
    sizes = {name: getattr(probe, name)._maxsize for name in CACHES if hasattr(probe, name)}
    return made == set(CACHES) | PLAIN_SLOTS and sizes == CACHES


def _textual_strip() -> Strip:
    """A strip made by Textual's own ``__init__``, whatever is installed."""
    probe = Strip.__new__(Strip)
    _textual_init(probe, [Segment(" ")], 1)
    return probe


# -- the host terminal's input ------------------------------------------------------------------


def input_wait(parser: Parser[Any], idle: float = IDLE) -> float:
    """Seconds to wait for input: until the parser's pending sequence times out, if one is
    pending (a lone ESC becomes the Escape key then), else ``idle``."""
    deadline = parser._timeout_time
    if deadline is None:
        return idle
    return min(idle, max(0.0, deadline - get_time()))


def driver_class(textuals: type[Driver]) -> type[Driver]:
    """The driver to run the app with, given Textual's choice for the platform: on a POSIX
    terminal, with :func:`install` called, :func:`input_driver`'s."""
    if installed() and textuals.__name__ == "LinuxDriver":
        return input_driver()
    return textuals


@functools.cache
def input_driver() -> type[Driver]:
    """Textual's ``LinuxDriver`` (also macOS's) whose input thread waits no longer than the
    parser's deadline; imported here as it needs ``termios``."""
    from textual.drivers.linux_driver import LinuxDriver

    class InputDriver(LinuxDriver):
        """``LinuxDriver.run_input_thread`` as Textual 8.2.8 has it, with one wait changed."""

        idle = IDLE

        def run_input_thread(self) -> None:
            selector = selectors.SelectSelector()
            selector.register(self.fileno, selectors.EVENT_READ)
            fileno = self.fileno
            parser = XTermParser(self._debug)
            decode = getincrementaldecoder("utf-8")().decode

            def process(
                ready: list[tuple[selectors.SelectorKey, int]], final: bool = False
            ) -> None:
                for index, (_key, mask) in enumerate(ready):
                    if mask & selectors.EVENT_READ:
                        last = index == len(ready) - 1
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
                try:
                    for _event in parser.feed(""):
                        pass
                except (EOFError, ParseError):
                    pass

    return InputDriver
