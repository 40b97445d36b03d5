"""The C heap on glibc: few malloc arenas (the app), free pages given back (the app and the server).

glibc gives each thread that allocates an arena of its own, up to eight per core, and memory
freed in one is reused only by it: the app's threads (the terminal driver's, the event loop's
executor) left a dashboard of drawing tiles at sizes that varied widely from one run to the
next. Two arenas keep it at the low end for the cost of a little lock contention the app
does not have (its work is on one thread).

glibc also keeps the blocks freed inside its heap for reuse, and gives back to the system only
the heap's top. Python's objects over 512 bytes and the buffers of bytes and strings come from
it, and a process that runs for hours with blocks of every size coming and going (the frames a
dashboard reads, its tiles' keyframes and timelines) ends with free pages scattered through the
heap: counted in its RSS, used by nothing, never given back while a live block sits above them,
so RSS grows while what the process holds stays the same. :func:`give_back_free_pages` (``malloc_trim``) hands every whole free page back,
wherever it lies; the collector's pacing (:mod:`observer.runtime.collector`) calls it now and
then. Elsewhere (macOS, Windows, musl) nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys

M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter for the most arenas (``malloc.h``)."""
ARENAS = 2


def _c_library() -> ctypes.CDLL | None:
    return _loaded_c_library() if sys.platform.startswith("linux") else None


@functools.cache
def _loaded_c_library() -> ctypes.CDLL | None:
    """The C library, found once (finding it may run ``ldconfig``)."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c"))
    except OSError:  # no C library found
        return None


def limit_malloc_arenas(arenas: int = ARENAS) -> bool:
    """Ask glibc for at most ``arenas`` malloc arenas (call before threads start); True if
    it took the setting."""
    mallopt = getattr(_c_library(), "mallopt", None)  # musl has none
    return mallopt is not None and bool(mallopt(M_ARENA_MAX, arenas))


def give_back_free_pages() -> bool:
    """Give the C heap's whole free pages back to the system (a few milliseconds for tens of
    MiB); False where the C library cannot (not glibc)."""
    trim = getattr(_c_library(), "malloc_trim", None)
    if trim is None:
        return False
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    trim(0)
    return True
