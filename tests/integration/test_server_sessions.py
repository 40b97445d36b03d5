"""Session listing: ``GET /sessions`` on a real ``observer serve``, and ``observer sessions URL``."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from observer.auth.token_file import TokenEntry, append_entry
from observer.auth.tokens import digest, new_token
from observer.protocol.adapters.native import NativeAdapter, query
from observer.protocol.events import ControlChanged
from tests.hostile.serve_process import ROOT, serve_process

pytestmark = pytest.mark.timeout(90)
# The program sets a hostile title (a right-to-left override inside) and stays.
AGENT = "printf '\\033]2;build \\342\\200\\256evil\\007'; sleep 60"


def tokens(tmp_path: Path) -> tuple[Path, str, str]:
    path = tmp_path / "tokens"
    watch, control = new_token(), new_token()
    append_entry(path, TokenEntry("watch", digest(watch), "viewer"))
    append_entry(path, TokenEntry("control", digest(control), "operator"))
    return path, watch, control


def observer_sessions(
    port: int, token: str | None, *extra: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OBSERVER_")}
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"  # no keyring on this machine
    if token is not None:
        env["OBSERVER_TOKEN"] = token
    return subprocess.run(
        [sys.executable, "-m", "observer", "sessions", f"ws://127.0.0.1:{port}", *extra],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=30,
    )  # fmt: skip


async def http_get(port: int, path: str, headers: dict[str, str]) -> tuple[int, str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    answer = await reader.read()
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode()


async def test_observer_sessions_lists_size_title_watchers_holder_and_exit(tmp_path: Path) -> None:
    path, watch, control = tokens(tmp_path)
    options = ["--tokens", str(path), "--identifier", "a", "--identifier", "b"]
    async with serve_process(options, AGENT) as running:
        session = NativeAdapter()
        async with connect(
            f"ws://127.0.0.1:{running.port}{query('a', control=True)}",
            additional_headers={"Authorization": f"Bearer {control}"},
            subprotocols=["observer.v1"],
        ) as holder:
            async with asyncio.timeout(10):  # until the server granted control
                while not any(
                    isinstance(e, ControlChanged) and e.holder == "you"
                    for e in session.receive(await holder.recv())
                ):
                    pass
            result = await asyncio.to_thread(observer_sessions, running.port, watch)
            as_json = await asyncio.to_thread(observer_sessions, running.port, watch, "--json")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    header = ["IDENTIFIER", "SIZE", "WATCHERS", "HOLDER", "EXITED", "WATCHING", "TITLE"]
    assert lines[0].split() == header
    assert lines[1].split()[:6] == ["a", "120x40", "1", "operator", "no", "-"]
    assert lines[2].split()[:6] == ["b", "120x40", "0", "nobody", "no", "-"]
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert "build" in lines[1] and "evil" in lines[1]
    listing = json.loads(as_json.stdout)
    assert listing["api-version"] == "2024-02-02-preview"
    first = listing["sessions"][0]
    assert first == {
        "identifier": "a",
        "cols": 120,
        "rows": 40,
        "title": first["title"],
        "watchers": 1,
        "holder": "other",
        "exited": False,
        "status": None,
        "people": [
            {"label": "operator", "role": "control", "since": first["people"][0]["since"],
             "holder": True},
        ],
    }  # fmt: skip
    assert first["title"].startswith("build")


async def test_an_exited_program_shows_its_status(tmp_path: Path) -> None:
    path, watch, _ = tokens(tmp_path)
    async with serve_process(["--tokens", str(path)], "exit 3") as running:
        await running.read_log_until("the program exited")
        result = await asyncio.to_thread(observer_sessions, running.port, watch)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1].split()[:6] == [
        "default",
        "120x40",
        "0",
        "nobody",
        "yes",
        "(3)",
    ]


async def test_refusals_are_those_of_the_websocket_path_unauthenticated_first(
    tmp_path: Path,
) -> None:
    path, watch, _ = tokens(tmp_path)
    good = {"Authorization": f"Bearer {watch}"}
    async with serve_process(["--tokens", str(path)], "sleep 60") as running:
        port = running.port
        assert await http_get(port, "/sessions?api-version=x", {}) == (403, "Unauthenticated")
        bad = {"Authorization": "Bearer wrong"}
        assert await http_get(port, "/sessions?api-version=x", bad) == (403, "Unauthenticated")
        status, body = await http_get(port, "/sessions?api-version=2023-01-01", good)
        assert status == 400 and "supported: 2024-02-02-preview" in body
        status, body = await http_get(
            port, "/sessions?api-version=2024-02-02-preview&a=1&a=2", good
        )
        assert status == 400 and "twice" in body
        status, _ = await http_get(
            port,
            "/sessions?api-version=2024-02-02-preview",
            {**good, "Origin": "https://x.example"},
        )
        assert status == 403
        status, body = await http_get(port, "/sessions?api-version=2024-02-02-preview", good)
        assert status == 200 and json.loads(body)["sessions"][0]["identifier"] == "default"
        without = await asyncio.to_thread(observer_sessions, port, None)
        wrong = await asyncio.to_thread(observer_sessions, port, "wrong-token")
    # Without a token and without a keyring, the error is the keyring's: it names the fixes.
    for result, says in ((without, "set OBSERVER_TOKEN"), (wrong, "refused the token")):
        assert result.returncode == 1 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and says in result.stderr, result.stderr
        assert result.stderr.startswith("observer: ") and " — " in result.stderr
    assert "wrong-token" not in wrong.stderr
