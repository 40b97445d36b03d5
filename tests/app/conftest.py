"""Helpers for the app's Pilot tests."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from observer.app import textual_patches
from observer.app.links import ConnectionChanged, ScriptedLink, Step
from observer.client.watched import WatchedSession
from observer.protocol.events import OutputReceived, SessionStarted
from tests.waiting import until


def greeting(
    identifier: str = "agent-1", cols: int = 60, rows: int = 12
) -> list[tuple[float, Step]]:
    return [
        (0.0, ConnectionChanged("connected")),
        (0.0, SessionStarted(identifier, "watch", cols, rows, 0, "none", 1, "")),
    ]


def scripted(
    output: Sequence[bytes] = (),
    identifier: str = "agent-1",
    cols: int = 60,
    rows: int = 12,
    **session: object,
) -> ScriptedLink:
    steps = greeting(identifier, cols, rows)
    offset = 0
    for chunk in output:
        steps.append((0.0, OutputReceived(chunk, offset)))
        offset += len(chunk)
    return ScriptedLink(
        WatchedSession(identifier=identifier, **session),  # type: ignore[arg-type]
        steps,
        label=f"ws://127.0.0.1:9/ · {identifier}",
    )


async def played(link: ScriptedLink) -> None:
    """Wait until ``link`` has played every step: connected, the hello, the output."""
    await until(link.drained.is_set, "the scripted session's steps")


@pytest.fixture(autouse=True)
def textual_as_it_is() -> Iterator[None]:
    """Textual unpatched for each test (a test that runs a command in-process, as
    ``main(["watch", ...])``, installs the patches as the command does)."""
    if textual_patches.installed():
        textual_patches.uninstall()
    yield
    if textual_patches.installed():
        textual_patches.uninstall()


@pytest.fixture
def textual_patched() -> Iterator[None]:
    """Textual patched as the command that starts the app patches it, then as it was."""
    textual_patches.install({})
    try:
        yield
    finally:
        textual_patches.uninstall()
