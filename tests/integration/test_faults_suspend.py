"""A suspended client (``SIGSTOP``, like a laptop lid closed) loses nothing silently.

A real ``observer record`` process watches the real server while the agent prints numbered
lines; the recorder is stopped with ``SIGSTOP`` and continued with ``SIGCONT``. In the recording,
the line numbers must run on without a hole or a repeat, except right after a snapshot (a
repaint starting with RIS, which the recorder marks as a gap or a connect). Lines a snapshot
stands for are skipped, counted and reported as a gap; none is ever sent again.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.integration.test_client_native import TOKEN, native_server
from tests.waiting import until

pytestmark = pytest.mark.timeout(90)

NUMBERED = (
    "import sys, time\n"
    "lines, pause = int(sys.argv[1]), float(sys.argv[2])\n"
    "for i in range(0, 10**9, lines):\n"
    "    sys.stdout.write(''.join(f'{n:09d} ' + 'x' * 40 + '\\n' for n in range(i, i + lines)))\n"
    "    sys.stdout.flush(); time.sleep(pause)"
)
LINE = re.compile(r"(\d{9}) x")
REPAINT_CONTROLS = re.compile(
    r"\x1b\[1D[0-9x ]|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|[\x0e\x0f]"
)
"""A character printed again in its own cell (a repaint ends so when a REP could come next),
cursor moves, SGR, charset selection and shifts: a repaint may split a line with them."""


def numbers_hold(output: str) -> tuple[int, int, int, int]:
    """Check the numbered lines of a recording's output.

    Returns:
        (segments, lines seen, lines skipped at snapshots, lines sent again after a snapshot
        beyond the screen it repaints). Raises AssertionError on a hole or a repeat inside a
        segment (a silent loss or duplicate).
    """
    segments = [s for s in output.split("\x1bc") if s]
    seen = skipped = repeated = 0
    last: int | None = None
    for segment in segments:
        numbers = [int(n) for n in LINE.findall(REPAINT_CONTROLS.sub("", segment))]
        for previous, current in itertools.pairwise(numbers):
            assert current == previous + 1, f"line {previous} followed by {current}"
        if numbers and last is not None:
            skipped += max(0, numbers[0] - last - 1)
            repeated += max(0, last - numbers[0] + 1 - 40)  # a repaint shows up to 40 old rows
        if numbers:
            last = numbers[-1]
        seen += len(numbers)
    return len(segments), seen, skipped, repeated


@pytest.mark.parametrize(
    ("lines", "pause", "what"),
    [(1, 0.002, "a ticker, 25 kB/s"), (200, 0.002, "a flood, ~3 MB/s")],
)
async def test_a_suspended_recorder_resumes_and_loses_nothing_silently(
    tmp_path: Path, lines: int, pause: float, what: str
) -> None:
    cast = tmp_path / "suspended.cast"
    env = dict(os.environ, OBSERVER_TOKEN=TOKEN)
    command = [sys.executable, "-c", NUMBERED, str(lines), str(pause)]
    async with native_server(command, client_queue=256 * 1024, ring_size=64 * 2**20) as server:
        url = f"ws://127.0.0.1:{server.port}"  # type: ignore[attr-defined]
        recorder = await asyncio.create_subprocess_exec(
            sys.executable,
            *("-m", "observer", "record", url, "--identifier", "agent", "-o", str(cast)),
            *("--duration", "8", "--ping-interval", "1", "--ping-timeout", "1"),
            env=env,
            stderr=asyncio.subprocess.PIPE,
        )
        # Suspended once it records (a loaded machine may take seconds to start Python).
        await until(lambda: cast.exists() and cast.stat().st_size > 4096, "a recording", 30)
        recorder.send_signal(signal.SIGSTOP)
        await asyncio.sleep(3)  # the suspension: longer than the recorder's own keepalive
        recorder.send_signal(signal.SIGCONT)
        resumed = time.monotonic()
        _, err = await asyncio.wait_for(recorder.communicate(), 60)
    assert recorder.returncode == 0, err.decode()
    events = [json.loads(line) for line in cast.read_text().splitlines()[1:]]
    output = "".join(e[2] for e in events if e[1] == "o")
    markers = [e[2] for e in events if e[1] == "m"]
    segments, seen, skipped, repeated = numbers_hold(output)
    print(
        f"\n{what}: {seen} lines recorded, {segments} segment(s), {skipped} lines skipped and "
        f"{repeated} sent again at snapshots, markers {markers}, recorder ran "
        f"{time.monotonic() - resumed:.1f} s after SIGCONT"
    )
    assert seen > 1000
    # every snapshot after the first is announced by a marker (gap, or a reconnect's connect)
    assert segments - 1 <= sum(m in ("gap", "reconnected", "connect") for m in markers[1:])
    # A snapshot is never older than what the client already had: nothing is sent again beyond
    # the rows it repaints; lines it stands for are reported as a gap.
    assert repeated == 0
    assert skipped == 0 or "gap" in markers
