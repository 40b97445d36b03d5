"""An ``echo`` frame keeps its place in the stream: a prompt printed after echo went off comes
after the frame, one printed before comes before it, for a watcher and for a late joiner.

A recording policy writes the marker for hidden input where the frame stands, and a watcher's
view of a password prompt depends on it; an ``echo`` frame that overtook the output it follows
(or fell behind the output after it) would put keys in a recording or hide a prompt. Programs
turn echo off *before* writing their prompt (bash's ``read -s`` and Python's ``getpass`` both
do: tcsetattr, then write), so a client that acts on the frame at once may not have the prompt
yet; the delays here make both orders certain. Real server, real PTY, real clients.
"""

from __future__ import annotations

import pytest

from observer.protocol.events import EchoChanged, OutputReceived, SnapshotReceived
from tests.integration.server_support import Observer, observe, running_server

pytestmark = pytest.mark.timeout(60)
OFF_THEN_PROMPT = "read -p 'Enter: ' go; stty -echo; sleep 0.5; printf 'Password: '; sleep 30"
PROMPT_THEN_OFF = "read -p 'Enter: ' go; printf 'Password: '; sleep 0.5; stty -echo; sleep 30"


def order(client: Observer) -> list[str]:
    """The echo changes and the output holding the prompt, as the client received them."""
    seen = []
    for event in client.events:
        if isinstance(event, EchoChanged):
            seen.append(f"echo {'on' if event.on else 'off'}")
        elif isinstance(event, OutputReceived) and b"Password" in event.data:
            seen.append("prompt")
        elif isinstance(event, SnapshotReceived):
            seen.append("snapshot with prompt" if b"Password" in event.data else "snapshot")
    return seen


@pytest.mark.parametrize(
    ("program", "expected"),
    [(OFF_THEN_PROMPT, ["echo off", "prompt"]), (PROMPT_THEN_OFF, ["prompt", "echo off"])],
    ids=["off-then-prompt", "prompt-then-off"],
)
async def test_the_echo_frame_keeps_its_place_in_the_stream(
    program: str, expected: list[str]
) -> None:
    async with (
        running_server(["bash", "--norc", "-c", program]) as server,
        observe(server, control=True) as client,
    ):
        await client.until(lambda c: "Enter:" in "".join(c.text()))
        await client.send(client.session.encode_input(b"\r"))
        await client.until(lambda c: len([s for s in order(c) if s != "snapshot"]) >= 3)
        assert order(client)[1:] == ["echo on", *expected]


async def test_a_late_joiner_is_told_the_echo_state_after_its_snapshot() -> None:
    async with running_server(["bash", "--norc", "-c", OFF_THEN_PROMPT]) as server:
        async with observe(server, control=True) as first:
            await first.until(lambda c: "Enter:" in "".join(c.text()))
            await first.send(first.session.encode_input(b"\r"))
            await first.until(lambda c: order(c)[-1:] == ["echo off"])
            async with observe(server) as early:  # joins between echo off and the prompt
                await early.until(lambda c: "prompt" in order(c))
                assert order(early) == ["snapshot", "echo off", "prompt"]
        async with observe(server) as late:  # joins at the prompt
            await late.until(lambda c: "echo off" in order(c))
            assert order(late) == ["snapshot with prompt", "echo off"]
