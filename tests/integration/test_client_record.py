"""`observer record` as a real subprocess against real PTY bridges: a playable file, markers, exit."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

from tests.integration.client_peers import Bridge, pty_bridge
from tests.waiting import until

pytestmark = pytest.mark.timeout(90)

PROGRAM = "import time\nprint('\\x1b[1mbuilding\\x1b[0m', flush=True)\ntime.sleep(0.3)\nprint('tests passed', flush=True)\ntime.sleep(60)"


async def observer(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "observer",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def clean_env(tmp_path: Path) -> dict[str, str]:
    env = dict(
        os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data")
    )
    env.pop("OBSERVER_TOKEN", None)
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
    return env


async def printed(bridge: Bridge) -> None:
    """The program has printed its last line, which the bridge's backlog gives the recorder: on
    a loaded machine the program may start so late that a short recording ends before it."""
    await until(lambda: b"tests passed" in bridge.output, "the program's last line")


def events_of(path: Path) -> tuple[dict[str, object], list[list[object]]]:
    lines = path.read_text().splitlines()
    return json.loads(lines[0]), [
        json.loads(line) for line in lines[1:] if not line.startswith("#")
    ]


async def test_recording_a_raw_stream_writes_a_playable_cast_with_markers(tmp_path: Path) -> None:
    async with pty_bridge([sys.executable, "-c", PROGRAM], cols=100, rows=30) as bridge:
        await printed(bridge)
        cast = tmp_path / "raw.cast"
        code, _, err = await observer(
            "record",
            bridge.url,
            "--protocol",
            "raw",
            "--identifier",
            "agent-1",
            "-o",
            str(cast),
            "--duration",
            "2",
            "--size",
            "100x30",
            env=clean_env(tmp_path),
        )
    assert code == 0, err
    header, events = events_of(cast)
    assert (header["version"], header["width"], header["height"]) == (2, 100, 30)
    markers = [e[2] for e in events if e[1] == "m"]
    assert markers[:2] == ["connect", "joined mid-stream: the screen may be incomplete"]
    output = "".join(str(e[2]) for e in events if e[1] == "o")
    assert "\x1b[1mbuilding\x1b[0m" in output and "tests passed" in output
    assert float(str(events[-1][0])) > 1.0, "the quiet end up to --duration 2 is kept"
    assert bridge.received == [], "the recorder sent something"
    assert "recorded" in err


async def test_recording_a_ttyd_terminal_writes_v3_and_sends_only_the_init(tmp_path: Path) -> None:
    async with pty_bridge([sys.executable, "-c", PROGRAM], flavour="ttyd") as bridge:
        await printed(bridge)
        cast = tmp_path / "ttyd.cast"
        code, _, err = await observer(
            *("record", bridge.url, "-o", str(cast), "--duration", "1.5", "--format", "v3"),
            env=clean_env(tmp_path),
        )
    assert code == 0, err
    header, events = events_of(cast)
    assert header["version"] == 3 and header["term"]["cols"] == 80  # type: ignore[index]
    assert bridge.inits and bridge.received == []
    assert any("tests passed" in str(e[2]) for e in events if e[1] == "o")


async def test_record_without_a_server_fails_with_one_clear_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cast = tmp_path / "none.cast"
    code, _, err = await observer(
        "record", f"ws://127.0.0.1:{port}", "-o", str(cast), env=clean_env(tmp_path)
    )
    assert code == 1 and not cast.exists()
    assert (
        err
        == f"observer: ws://127.0.0.1:{port} refused the connection — is the server running on port {port}?\n"
    )


async def test_record_without_a_usable_keyring_against_a_protected_endpoint_names_the_keyring_fixes(
    tmp_path: Path,
) -> None:
    from websockets.asyncio.server import serve

    from tests.integration.test_client_failures import Refuser

    async with serve(
        lambda c: c.wait_closed(), "127.0.0.1", 0, process_request=Refuser(403, "Unauthenticated")
    ) as server:
        port = server.sockets[0].getsockname()[1]
        code, _, err = await observer(
            "record",
            f"ws://127.0.0.1:{port}",
            "-o",
            str(tmp_path / "x.cast"),
            env=clean_env(tmp_path),
        )
    assert code == 1
    assert (
        err.startswith("observer: no usable keyring backend was found — ")
        and "OBSERVER_TOKEN" in err
    )
