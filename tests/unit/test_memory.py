"""The app asks glibc for few malloc arenas (see observer.runtime.memory)."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

from observer.runtime.memory import limit_malloc_arenas


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="needs glibc"
)
def test_glibc_takes_the_arena_limit_in_a_fresh_process() -> None:
    code = "from observer.runtime.memory import limit_malloc_arenas; print(limit_malloc_arenas())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"


def test_elsewhere_nothing_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert limit_malloc_arenas() is False
