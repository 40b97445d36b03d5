"""The C heap on glibc: few malloc arenas, free pages given back (see observer.runtime.memory)."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

from observer.runtime.memory import give_back_free_pages, limit_malloc_arenas

GLIBC_ONLY = pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
    reason="mallopt and malloc_trim are glibc's (elsewhere nothing is asked: tested below)",
)


@GLIBC_ONLY
def test_glibc_takes_the_arena_limit_in_a_fresh_process() -> None:
    code = "from observer.runtime.memory import limit_malloc_arenas; print(limit_malloc_arenas())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"


def test_elsewhere_nothing_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert limit_malloc_arenas() is False


FRAGMENTED_HEAP = """
import os
from observer.runtime.collector import TRIM_EVERY, CollectorPacing

def rss():
    for line in open(f"/proc/{os.getpid()}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024

now = [0.0]
pacing = CollectorPacing(lambda: now[0])
blocks = [bytes(2000) for _ in range(20_000)]  # 40 MB from the C heap (over 512 bytes each)
kept = blocks[::16]  # a live block every 32 KB: the heap's top is never free
del blocks
freed = rss()
pacing.tick(busy=True)  # output flowing, the minute not yet up
before = rss()
now[0] += TRIM_EVERY
pacing.tick(busy=True)
print(freed, before, rss())
"""


@GLIBC_ONLY
def test_a_busy_process_gives_its_free_heap_pages_back_each_minute() -> None:
    """Blocks freed between live ones stay in the process's RSS until the pacing's minute is up
    (a dashboard open for hours otherwise grows by them)."""
    done = subprocess.run(
        [sys.executable, "-c", FRAGMENTED_HEAP], capture_output=True, text=True, check=True
    )
    freed, before, after = (int(mib) for mib in done.stdout.split())
    assert before > freed - 5  # freeing alone gave nothing back
    assert after < before - 20  # about 37 of the 40 MB were freed, whole pages of it went back


def test_elsewhere_no_pages_are_given_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert give_back_free_pages() is False
