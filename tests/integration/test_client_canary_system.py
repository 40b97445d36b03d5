"""Whole-system canary: real `observer token/serve/auth/record` processes; the token leaks nowhere."""

from __future__ import annotations

import base64
import sys

import pytest

from tests.waiting import accepting, until

pytestmark = pytest.mark.timeout(120)


AGENT = (
    "import os, sys, time\n"
    "open(sys.argv[1], 'w').write(repr(dict(os.environ)) + ' '.join(sys.argv))\n"
    "print('agent environment has', len(os.environ), 'variables', flush=True)\n"
    "for i in range(100): print('working', i, flush=True); time.sleep(0.1)"
)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def readable(path: object) -> str:
    try:
        return open(path, "rb").read().decode("utf-8", "replace")  # type: ignore[call-overload]
    except OSError:
        return ""


async def test_a_canary_token_appears_in_no_process_file_log_or_recording(tmp_path: object) -> None:
    """Whole system, real processes: `observer token issue` makes the canary, `observer serve`
    checks it, `observer auth login --token-stdin` stores it, `observer record` uses it.
    The only place it may be is the keyring's own store (keyrings.alt's file, chosen explicitly
    because this machine has no Secret Service) — the test checks that it is there, to prove the
    canary was in play."""
    import asyncio
    import glob
    import os
    import signal
    import subprocess
    from pathlib import Path

    tmp = Path(str(tmp_path))
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp / "config"), XDG_DATA_HOME=str(tmp / "data"))
    env["PYTHON_KEYRING_BACKEND"] = "keyrings.alt.file.PlaintextKeyring"
    env.pop("OBSERVER_TOKEN", None)
    observer = [sys.executable, "-m", "observer"]
    issued = subprocess.run(
        [*observer, "token", "issue", "control", "--tokens", str(tmp / "tokens.txt")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    canary = issued.stdout.strip()
    assert len(canary) >= 20
    port = free_port()
    url = f"ws://127.0.0.1:{port}"
    server_log = (tmp / "serve.log").open("wb")
    serve_env = {k: v for k, v in env.items() if not k.startswith("XDG_")}
    server = subprocess.Popen(
        [
            *observer,
            "serve",
            "--listen",
            f"127.0.0.1:{port}",
            "--tokens",
            str(tmp / "tokens.txt"),
            "--identifier",
            "agent",
            "--",
            sys.executable,
            "-c",
            AGENT,
            str(tmp / "agent-env.txt"),
        ],
        env=serve_env,
        stdout=server_log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        await until(lambda: accepting(port), "the server to listen", 30, poll=0.1)
        login = subprocess.run(
            [*observer, "auth", "login", url, "--token-stdin"],
            input=canary + "\n",
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert login.returncode == 0, login.stderr
        recorder = await asyncio.create_subprocess_exec(
            *observer,
            "record",
            url,
            "--identifier",
            "agent",
            "-o",
            str(tmp / "rec.cast"),
            "--duration",
            "4",
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        cast = tmp / "rec.cast"
        await until(lambda: cast.exists() and "working" in cast.read_text(), "a recording", 30)
        ps = subprocess.run(["ps", "auxwwe"], capture_output=True, text=True, timeout=30).stdout
        proc = "".join(
            readable(p)
            for p in glob.glob("/proc/[0-9]*/cmdline") + glob.glob("/proc/[0-9]*/environ")
        )
        out, err = await asyncio.wait_for(recorder.communicate(), 60)
        assert recorder.returncode == 0, err
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        server_log.close()
    recording = (tmp / "rec.cast").read_text()
    assert "working" in recording, (
        "the recorder did not get the agent's output: the token did not work"
    )
    places = {
        "ps auxwwe": ps,
        "/proc/*/cmdline and environ": proc,
        "recorder stdout/stderr": out.decode() + err.decode(),
        "login stdout/stderr": login.stdout + login.stderr,
        "the recording": recording,
        "the server's log": (tmp / "serve.log").read_text(),
        "the server's tokens file": (tmp / "tokens.txt").read_text(),
        "the agent's environment and argv": (tmp / "agent-env.txt").read_text(),
    }
    for path in (tmp / "config").rglob("*"):
        if path.is_file():
            places[f"config file {path.name}"] = path.read_text()
    for place, text in places.items():
        assert canary not in text, f"the canary token leaked into {place}"
    # keyrings.alt's "plaintext" file stores base64 of the password.
    stored = base64.b64encode(canary.encode()).decode()
    keyring_files = [p.read_text() for p in (tmp / "data").rglob("*") if p.is_file()]
    assert any(stored in text for text in keyring_files), "the keyring never held the canary"
    for place, text in places.items():
        assert stored not in text, f"the canary token (base64) leaked into {place}"
