"""The app's memory on glibc: few malloc arenas.

glibc gives each thread that allocates an arena of its own, up to eight per core, and memory
freed in one is reused only by it: the app's threads (the terminal driver's, the event loop's
executor) left a dashboard of 40 drawing tiles anywhere between 180 and 300 MiB from one run to
the next. Two arenas keep it at the low end for the cost of a little lock contention the app
does not have (its work is on one thread). Elsewhere (macOS, Windows, musl) nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter for the most arenas (``malloc.h``)."""
ARENAS = 2


def limit_malloc_arenas(arenas: int = ARENAS) -> bool:
    """Ask glibc for at most ``arenas`` malloc arenas (call before threads start); True if
    it took the setting."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c")).mallopt
    except (OSError, AttributeError):  # no C library found, or one without mallopt (musl)
        return False
    return bool(mallopt(M_ARENA_MAX, arenas))
