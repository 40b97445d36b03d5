"""The tests' condition waits: they return what the condition found, and fail naming what they
waited for (with the last screen, when the description is a function)."""

from __future__ import annotations

import asyncio

import pytest

from tests.waiting import until, until_blocking


async def test_until_returns_the_conditions_value_once_it_holds() -> None:
    found: list[str] = []
    asyncio.get_running_loop().call_later(0.02, found.append, "ready")
    assert await until(lambda: found, "the value") == ["ready"]


async def test_until_fails_naming_what_it_waited_for() -> None:
    with pytest.raises(AssertionError, match=r"timed out after 0\.05 s waiting for the prompt"):
        await until(lambda: False, "the prompt", timeout=0.05)


def test_until_blocking_says_what_a_function_describes_when_it_fails() -> None:
    screens = ["$ ", "$ ls"]
    with pytest.raises(AssertionError, match=r"'done' on screen; the screen was:\n\$ ls"):
        until_blocking(
            lambda: False,
            lambda: f"'done' on screen; the screen was:\n{screens[-1]}",
            timeout=0.05,
        )
