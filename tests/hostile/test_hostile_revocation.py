"""A leaked token can be revoked live: its connections close with a reason, the agent goes on.

Before, tokens had no label and no expiry, ``observer token`` could only ``issue``, and the only
way to stop a token was to edit the digest file and restart the server, which killed the agent's
session. Tokens here come from the real ``observer token`` command line; the server is real (in
this process, and as ``observer serve`` for SIGHUP).
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from observer.auth.tokens import Authenticator, TokenDigests
from observer.cli import main
from observer.server import Server
from tests.hostile.serve_process import serve_process
from tests.integration.server_support import observe, refusal, running_server, wait_for

pytestmark = pytest.mark.timeout(60)
AGENT = ["sh", "-c", "echo agent-pid $$; sleep 60"]
Q = "/?identifier=default&api-version=2024-02-02-preview"


def issue(path: Path, role: str, *options: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["token", "issue", role, "--file", str(path), *options]) == 0
    return capsys.readouterr().out.strip()


async def closed_with(ws: object, timeout: float = 5.0) -> tuple[int | None, str | None]:
    """Read until the server closes the connection; its close code and reason."""
    with pytest.raises(ConnectionClosed) as info:
        async with asyncio.timeout(timeout):
            while True:
                await ws.recv()  # type: ignore[attr-defined]
    received = info.value.rcvd
    return (received.code, received.reason) if received is not None else (None, None)


async def test_revoking_a_token_closes_its_connections_and_the_agent_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tokens"
    leaked = issue(path, "control", "--label", "leaked-laptop", capsys=capsys)
    kept = issue(path, "watch", "--label", "ops", capsys=capsys)
    auth = Authenticator(TokenDigests.load(path))
    async with running_server(AGENT, auth=auth) as server:
        pid = server.sessions["default"].pty.pid
        async with (
            observe(server, token=leaked, control=True) as intruder,
            observe(server, token=kept) as watcher,
        ):
            assert intruder.mode == "control"
            assert main(["token", "revoke", "leaked-laptop", "--file", str(path)]) == 0
            assert await closed_with(intruder.ws) == (1008, "token revoked")
            # Control was released; the other token's watcher and the agent were not touched.
            await watcher.until(lambda c: c.holders()[-1:] == ["none"])
            assert server.sessions["default"].pty.poll() is None
            assert server.sessions["default"].pty.pid == pid
            status, body = await refusal(server, Q, {"Authorization": f"Bearer {leaked}"})
            assert (status, body) == (403, "Unauthenticated")


async def test_an_expiring_token_is_refused_and_its_connection_closed_when_it_expires(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tokens"
    brief = issue(path, "watch", "--label", "contractor", "--expires", "2s", capsys=capsys)
    async with running_server(AGENT, auth=Authenticator(TokenDigests.load(path))) as server:
        async with observe(server, token=brief) as client:
            assert await closed_with(client.ws, timeout=6) == (1008, "token expired")
        status, _ = await refusal(server, Q, {"Authorization": f"Bearer {brief}"})
        assert status == 403


async def test_sighup_rereads_the_token_file_even_when_it_looks_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An edit that keeps the file's size, time and inode is seen on SIGHUP."""
    path = tmp_path / "tokens"
    doomed = issue(path, "watch", "--label", "doomed", capsys=capsys)
    async with serve_process(["--tokens", str(path)], "sleep 60") as running:
        from websockets.asyncio.client import connect

        from observer.protocol.adapters.native import query as native_query

        query = native_query("default")
        async with connect(
            f"ws://127.0.0.1:{running.port}{query}",
            additional_headers={"Authorization": f"Bearer {doomed}"},
            subprotocols=["observer.v1"],
        ) as ws:
            await ws.recv()  # hello
            status = path.stat()
            text = path.read_text()
            digest_hex = text.split("sha256:")[1][:64]
            path.write_text(text.replace(digest_hex, "0" * 64))  # same size, in place
            os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
            await asyncio.sleep(1.5)  # the periodic check sees nothing new
            assert ws.close_code is None
            running.process.send_signal(signal.SIGHUP)
            assert await closed_with(ws) == (1008, "token revoked")
        line = await running.read_log_until(r"closing client \d+ \(token doomed\)")
        assert doomed not in line and "token revoked" in line


async def test_a_damaged_token_file_keeps_the_tokens_read_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "tokens"
    token = issue(path, "watch", capsys=capsys)
    server: Server
    async with running_server(AGENT, auth=Authenticator(TokenDigests.load(path))) as server:
        async with observe(server, token=token) as client:
            with path.open("a") as out:
                out.write(f"control {token}\n")  # a token pasted in by mistake
            assert server.token_watch is not None
            await wait_for(lambda: not server.token_watch.auth.digests.changed())  # type: ignore[union-attr]
            assert client.ws.close_code is None
            await client.ws.ping()
        async with observe(server, token=token):
            pass  # still admitted
    warnings = [r.getMessage() for r in caplog.records if "not reloaded" in r.getMessage()]
    assert len(warnings) == 1 and "line 2" in warnings[0]
    assert token not in caplog.text
