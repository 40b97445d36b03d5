"""The benchmark's attackers: a watcher that floods ``resync``, a watch token that hoards.

Used by :mod:`tests.benchmarks.server`: the spammer runs in the watchers' process (a raw socket
like the other watchers there); the hoarding check runs its own ``observer serve`` with tokens.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sys
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from observer.auth.token_file import TokenEntry, append_entry
from observer.auth.tokens import digest, new_token
from observer.protocol.adapters.native import NativeAdapter, query
from observer.protocol.events import SessionStarted

ROOT = Path(__file__).resolve().parents[2]
RESYNC = b'{"type":"resync"}'
# RFC 6455 5.2: FIN + text, masked (a client must mask; a zero key leaves the payload as is).
RESYNC_FRAME = bytes([0x81, 0x80 | len(RESYNC)]) + b"\0\0\0\0" + RESYNC


class ResyncSpammer:
    """Writes ``resync`` frames to a non-blocking socket as fast as it takes them."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._pending = bytearray()
        self._written = 0
        self._control = 0
        """Bytes of other frames (pongs) queued, not counted as resyncs."""

    @property
    def sent(self) -> int:
        """Resync frames the socket took."""
        return (self._written - self._control) // len(RESYNC_FRAME)

    def queue(self, frame: bytes) -> None:
        """Send ``frame`` after what is queued (a pong)."""
        self._pending += frame
        self._control += len(frame)

    def write(self) -> None:
        """Top the queue up and write what the socket takes now."""
        if len(self._pending) < 64 * 1024:
            self._pending += RESYNC_FRAME * 4096
        with contextlib.suppress(BlockingIOError):
            count = self.sock.send(self._pending)
            del self._pending[:count]
            self._written += count


Opened = tuple[ClientConnection, str] | str
"""A connection that got its ``hello`` (and the mode it got), or the refusal's status and body."""


async def _open(port: int, token: str, control: bool = False) -> Opened:
    session = NativeAdapter()
    try:
        ws = await connect(
            f"ws://127.0.0.1:{port}{query('default', control=control)}",
            additional_headers={"Authorization": f"Bearer {token}"},
            subprotocols=["observer.v1"],
            max_size=None,
        )
    except InvalidStatus as error:
        return f"{error.response.status_code} {error.response.body.decode().strip()}"
    while True:
        for event in session.receive(await ws.recv()):
            if isinstance(event, SessionStarted):
                return ws, event.mode


def _outcome(opened: Opened) -> str:
    if isinstance(opened, str):
        return f"refused ({opened})"
    return f"admitted ({opened[1]})"


async def hoarding(most: int = 300) -> tuple[int, str, str, float, str, float]:
    """One watch token opens connections until refused; then a controller and another watch
    token connect. Returns: connections held, the refusal, and for the controller and the
    second watcher what happened and in how many ms."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tokens"
        tokens = {name: new_token() for name in ("hoarder", "other", "controller")}
        for name, token in tokens.items():
            role = "control" if name == "controller" else "watch"
            append_entry(path, TokenEntry(role, digest(token), name))
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "observer", "serve", "--tokens", str(path),
            "--listen", "127.0.0.1:0", "--", "sh", "-c", "sleep 600",
            cwd=ROOT, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert process.stderr is not None
        held: list[Opened] = []
        try:
            port = await _port(process.stderr)
            refusal = ""
            while len(held) < most:
                opened = await _open(port, tokens["hoarder"])
                if isinstance(opened, str) and opened.startswith("429"):
                    await asyncio.sleep(0.05)  # too fast for the token's rate: wait, retry
                    continue
                if isinstance(opened, str):
                    refusal = opened
                    break
                held.append(opened)
            hoarded = len(held)
            times = []
            for name, control in (("controller", True), ("other", False)):
                began = time.perf_counter()
                held.append(await _open(port, tokens[name], control=control))
                times.append((time.perf_counter() - began) * 1000)
            controller, watcher = held[-2:]
            return hoarded, refusal, _outcome(controller), times[0], _outcome(watcher), times[1]
        finally:
            for opened in held:
                if not isinstance(opened, str):
                    opened[0].transport.abort()
            process.terminate()
            await process.wait()


async def _port(stderr: asyncio.StreamReader) -> int:
    import re

    while True:
        line = (await stderr.readline()).decode()
        if not line:
            raise SystemExit("observer serve did not start")
        if found := re.search(r"ws://127\.0\.0\.1:(\d+)/", line):
            asyncio.get_running_loop().create_task(stderr.read())  # keep its pipe drained
            return int(found.group(1))


async def print_hoarding() -> None:
    """The connection-hoarding row of the benchmark."""
    held, refusal, controller, controller_ms, watcher, watcher_ms = await hoarding()
    print(f"one watch token holding all it may: {held} connections (the next: {refusal})")
    print(
        f"  then a controller: {controller} in {controller_ms:.1f} ms; "
        f"a second watch token: {watcher} in {watcher_ms:.1f} ms"
    )


# -- one hostile watch token against the agent and another token's watcher ----------------------

ATTACKS = ["ping-flood", "message-limit", "churn", "readers"]
"""The attacks of :mod:`tests.benchmarks.server_attackers`, each against a baseline ("none")."""


@contextlib.asynccontextmanager
async def _tokened_serve(command: str, root: Path):  # type: ignore[no-untyped-def]
    """``observer serve`` of checkout ``root`` with a hostile and an honest watch token."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tokens"
        tokens = {name: new_token() for name in ("hostile", "honest")}
        for name, token in tokens.items():
            append_entry(path, TokenEntry("watch", digest(token), name))
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "observer", "serve", "--tokens", str(path),
            "--listen", "127.0.0.1:0", "--", "sh", "-c", command,
            cwd=root, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert process.stderr is not None
        try:
            yield await _port(process.stderr), process.pid, tokens
        finally:
            process.terminate()
            await process.wait()


def rss_mib(pid: int) -> float:
    """Resident memory of process ``pid`` in MiB (Linux /proc, proc(5))."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def _attackers(port: int, tokens: dict[str, str], attack: str) -> asyncio.subprocess.Process:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.benchmarks.server_attackers", str(port),
        tokens["hostile"], tokens["honest"], attack,
        cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None
    if await process.stdout.readline() != b"ready\n":
        raise SystemExit(f"the attackers ({attack}) did not connect")
    return process


async def attacked_run(
    megabytes: int, attack: str, root: Path = ROOT
) -> tuple[float, float, float]:
    """The agent's MB/s under ``attack``, the share of the output the honest watcher of another
    token received as output frames (not snapshots), and the server's CPU milliseconds per MB
    the agent wrote (its own cost, which the machine's other load moves far less than the
    agent's rate)."""
    from tests.benchmarks.server import AGENT, TRAILER, cpu_seconds

    with tempfile.TemporaryDirectory() as tmp:
        go, result = Path(tmp) / "go", Path(tmp) / "result"
        total = megabytes * 1_000_000
        command = AGENT.format(go=go, result=result, n=total)
        async with _tokened_serve(command, root) as (port, pid, tokens):
            attackers = await _attackers(port, tokens, attack)
            assert attackers.stdin is not None and attackers.stdout is not None
            await asyncio.sleep(0.5)  # the attack under way
            began = cpu_seconds(pid)
            go.touch()
            while not result.exists() or not result.read_text().strip():
                await asyncio.sleep(0.02)
            cpu = cpu_seconds(pid) - began
            start, end = map(float, result.read_text().split())
            attackers.stdin.write(f"{total + len(TRAILER)}\n".encode())
            outcome = json.loads(await attackers.stdout.readline())
            await attackers.wait()
    return megabytes / (end - start), min(1.0, outcome["honest"][1] / total), cpu * 1000 / megabytes


async def ping_flood_memory(seconds: float = 30.0, root: Path = ROOT) -> tuple[float, float]:
    """The server's resident memory (MiB) before and at most during ``seconds`` of a ping flood
    (the agent idle, an honest watcher connected)."""
    async with _tokened_serve("sleep 600", root) as (port, pid, tokens):
        attackers = await _attackers(port, tokens, "ping-flood")
        before, most = rss_mib(pid), 0.0
        began = time.monotonic()
        while time.monotonic() - began < seconds:
            most = max(most, rss_mib(pid))
            await asyncio.sleep(0.25)
        attackers.kill()
        await attackers.wait()
    return before, most


async def print_attacks(megabytes: int, rounds: int, roots: list[tuple[str, Path]]) -> None:
    """The rows of one hostile watch token: the agent's rate as a ratio to the same run's
    baseline (the honest watcher alone), the honest watcher's stream, and the server's memory
    under a ping flood."""
    import statistics

    names = ["none", *ATTACKS]
    rates: dict[tuple[str, str], list[float]] = {(r, n): [] for r, _ in roots for n in names}
    shares: dict[tuple[str, str], list[float]] = {(r, n): [] for r, _ in roots for n in names}
    ratios: dict[tuple[str, str], list[float]] = {(r, n): [] for r, _ in roots for n in names}
    costs: dict[tuple[str, str], list[float]] = {(r, n): [] for r, _ in roots for n in names}
    for number in range(rounds):
        order = names if number % 2 == 0 else names[:1] + names[:0:-1]
        for name in order:
            for label, root in roots if number % 2 == 0 else roots[::-1]:
                rate, share, cost = await attacked_run(megabytes, name, root)
                rates[label, name].append(rate)
                shares[label, name].append(share)
                costs[label, name].append(cost)
        for label, _ in roots:
            for name in names:
                ratios[label, name].append(rates[label, name][-1] / rates[label, "none"][-1])
    print(f"one hostile watch token, an honest watcher of another token; {rounds} rounds")
    for label, root in roots:
        if len(roots) > 1:
            print(f"{label}: {root}")
        print(
            f"{'attack':<16}{'agent MB/s':>11}{'ratio':>7}{'min-max':>12}{'honest as bytes':>17}"
            f"{'min-max':>12}{'server CPU ms/MB':>18}{'min-max':>12}"
        )
        for name in names:
            key = label, name
            print(
                f"{name:<16}{statistics.median(rates[key]):>11.1f}"
                f"{statistics.median(ratios[key]):>7.2f}"
                f"{min(ratios[key]):>6.2f}-{max(ratios[key]):.2f}"
                f"{statistics.median(shares[key]):>17.0%}"
                f"{min(shares[key]):>6.0%}-{max(shares[key]):.0%}"
                f"{statistics.median(costs[key]):>18.0f}"
                f"{min(costs[key]):>7.0f}-{max(costs[key]):.0f}"
            )
    for label, root in roots:
        before, most = await ping_flood_memory(root=root)
        print(
            f"{label}: server memory under 30 s of ping flood: {before:.0f} MiB before, "
            f"at most {most:.0f} MiB (+{most - before:.0f} MiB)"
        )
