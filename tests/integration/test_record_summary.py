"""``observer record URL -i ID --duration 3`` against a real ``observer serve``: the short option
reaches the server (it serves only that identifier: another would be refused with a 404), and the
summary gives the time really recorded, not 0.0 s."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.hostile.serve_process import serve_process
from tests.integration.test_client_record import clean_env, events_of, observer
from tests.integration.test_server_sessions import tokens

pytestmark = pytest.mark.timeout(90)
AGENT = "for n in 1 2 3 4 5 6; do echo tick $n; sleep 0.5; done; sleep 60"


async def test_record_with_i_and_a_duration_sums_up_the_real_time(tmp_path: Path) -> None:
    path, watch, _ = tokens(tmp_path)
    cast = tmp_path / "agent.cast"
    async with serve_process(["--tokens", str(path), "--identifier", "agent"], AGENT) as running:
        url = f"ws://127.0.0.1:{running.port}/"
        started = time.monotonic()
        code, _, err = await observer(
            *("record", url, "-i", "agent", "-o", str(cast), "--duration", "3"),
            env={**clean_env(tmp_path), "OBSERVER_TOKEN": watch},
        )
        took = time.monotonic() - started
    assert code == 0, err
    summary = re.search(r"recorded (\d+) events in ([\d.]+) s to ", err)
    assert summary is not None, err
    seconds = float(summary[2])
    assert 2.9 <= seconds <= min(took, 4.5), (seconds, took)
    _, events = events_of(cast)
    assert int(summary[1]) == len(events)
    assert "tick 1" in "".join(str(e[2]) for e in events if e[1] == "o")
