"""Ctrl-C (or SIGTERM) ends `observer record` as its end or --duration does: the file complete
and playable, the summary printed with the time recorded, exit 0. A real subprocess, a real PTY.
"""

from __future__ import annotations

import asyncio
import re
import signal
import sys
from pathlib import Path

import pytest

from tests.integration.client_peers import pty_bridge
from tests.integration.test_client_record import PROGRAM, clean_env, events_of
from tests.waiting import until

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
async def test_an_interrupted_recording_is_closed_and_summed_up(
    tmp_path: Path, number: signal.Signals
) -> None:
    cast = tmp_path / "agent.cast"
    async with pty_bridge([sys.executable, "-c", PROGRAM], cols=80, rows=24) as bridge:
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "observer", "record", bridge.url, "--protocol", "raw"),
            *("-i", "agent-1", "-o", str(cast), "--size", "80x24"),
            stderr=asyncio.subprocess.PIPE,
            env=clean_env(tmp_path),
        )
        # Recording from its first event (a loaded machine may take a second to start Python),
        # then long enough for the program's two lines and the time the summary must show.
        await until(
            lambda: cast.exists() and len(cast.read_text().splitlines()) >= 2, "the first event", 15
        )
        await asyncio.sleep(1.6)  # the recording's length, which the summary must report
        process.send_signal(number)
        _, err = await asyncio.wait_for(process.communicate(), 20)
    text = err.decode()
    assert process.returncode == 0, text
    assert "observer: interrupted" not in text
    summary = re.search(r"recorded (\d+) events in ([\d.]+) s to ", text)
    assert summary is not None, text
    assert int(summary[1]) >= 2 and 1.5 <= float(summary[2]) <= 10.0
    _, events = events_of(cast)
    output = "".join(str(e[2]) for e in events if e[1] == "o")
    assert "building" in output and "tests passed" in output
