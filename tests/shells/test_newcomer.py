"""What a newcomer meets: every command explains itself with an example, and every failure a user
can cause prints one line ``observer: <what happened> — <what to do>``, exits non-zero and shows
no traceback. The real CLI runs in subprocesses, with a home, config dir and keyring of its own.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from observer.app.app import ObserverApp
from observer.auth.tokens import Authenticator, TokenDigests
from observer.server import Server
from observer.terminal import TerminalModel
from tests.app.conftest import scripted
from tests.hostile.live import screen_text, status, until

pytestmark = pytest.mark.timeout(60)
ROOT = Path(__file__).resolve().parents[2]
TOKEN = "newcomer-token-" + "n" * 24
COMMANDS = sorted(
    p.stem for p in (ROOT / "observer" / "commands").glob("*.py") if not p.stem.startswith("_")
)
SUBCOMMANDS = [("auth", "login"), ("auth", "logout"), ("auth", "status"), ("auth", "list")]
SUBCOMMANDS += [("token", "issue"), ("config", "show"), ("config", "add"), ("config", "themes")]


def environment(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OBSERVER_", "XDG_"))}
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"),
        PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",  # a machine with no keyring
        PYTHONPATH=str(ROOT),
        COLUMNS="100",
    )
    env.update(extra)
    return env


def observer(
    home: Path, *args: str, stdin: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "observer", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=environment(home, **env),
        cwd=home,
        timeout=40,
    )


async def observer_async(home: Path, *args: str, **env: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "observer", *args),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(home, **env),
        cwd=home,
    )
    _, err = await asyncio.wait_for(process.communicate(), 40)
    assert process.returncode is not None
    return process.returncode, err.decode()


def seen(stderr: str) -> list[str]:
    """What a terminal shows once the command has ended: its normal screen and scrollback.

    The TUI starts before a connection or a recording's later line fails, and on a busy machine
    it may paint a frame first: that frame is on the alternate screen, which the terminal drops
    when the app leaves it, so it is read through the terminal model as a user's terminal reads
    it (the tty turns each newline into CR LF), not by stripping escapes from the bytes.
    """
    terminal = TerminalModel(cols=400, rows=60)
    terminal.feed(stderr.replace("\n", "\r\n").encode())
    assert not terminal.alternate, "the app left its alternate screen on"
    rows = ["".join(cell[0] for cell in row).rstrip() for row in terminal.history]
    return [row for row in rows + terminal.text() if row]


def one_clear_line(code: int, stderr: str) -> str:
    """The user-facing message, after checking it is the only thing said and it says what to do."""
    assert code != 0
    assert "Traceback" not in stderr
    lines = seen(stderr)
    assert len(lines) == 1, lines
    line = lines[0]
    assert line.startswith("observer: ") and " — " in line, line
    return line


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(tmp_path: Path, command: str) -> None:
    result = observer(tmp_path, command, "--help")
    assert result.returncode == 0 and result.stderr == ""
    assert "example" in result.stdout.lower()
    assert f"observer {command}" in result.stdout.split("example", 1)[1]


@pytest.mark.parametrize(("command", "action"), SUBCOMMANDS)
def test_every_subcommand_has_help_with_an_example(
    tmp_path: Path, command: str, action: str
) -> None:
    result = observer(tmp_path, command, action, "--help")
    assert result.returncode == 0 and result.stderr == ""
    assert f"observer {command} {action}" in result.stdout.split("example", 1)[1]


def test_the_top_level_help_names_every_command(tmp_path: Path) -> None:
    result = observer(tmp_path, "--help")
    assert result.returncode == 0
    assert all(command in result.stdout for command in COMMANDS)


@pytest.fixture
def recording(tmp_path: Path) -> Path:
    path = tmp_path / "ok.cast"
    path.write_text('{"version": 2, "width": 20, "height": 3}\n[0.5, "o", "hello"]\n')
    return path


@pytest.mark.parametrize(
    ("args", "env", "says"),
    [
        (
            ["record", "ftp://sandbox.example/", "--identifier", "a", "-o", "x.cast"],
            {"OBSERVER_TOKEN": TOKEN},
            "unsupported URL scheme 'ftp' — give a URL like wss://",
        ),
        (
            ["watch", "ftp://sandbox.example/", "--identifier", "a"],
            {"OBSERVER_TOKEN": TOKEN},
            "unsupported URL scheme 'ftp'",
        ),
        (["watch", "my-agent"], {}, "no profile or group named 'my-agent'"),
        (["auth", "login", "wss://sandbox.example/", "--token-stdin"], {}, "OBSERVER_TOKEN"),
        (
            ["record", "ws://127.0.0.1:{port}/", "--identifier", "a", "-o", "x.cast"],
            {"OBSERVER_TOKEN": TOKEN},
            "refused the connection — is the server running on port {port}?",
        ),
        (
            ["watch", "ws://127.0.0.1:{port}/", "--identifier", "a"],
            {"OBSERVER_TOKEN": TOKEN},
            "refused the connection — is the server running on port {port}?",
        ),
        (["render", "missing.cast"], {}, "missing.cast does not exist — check the file name"),
        (["replay", "missing.cast"], {}, "missing.cast does not exist — check the file name"),
        (["export", "missing.cast"], {}, "missing.cast does not exist — check the file name"),
        (["replay", "corrupt.cast"], {}, "corrupt.cast, line 3: not valid JSON"),
        (["export", "corrupt.cast"], {}, "corrupt.cast, line 3: not valid JSON"),
        (["replay", "ok.cast", "--theme", "neon"], {}, "no theme named 'neon'"),
        (["render", "corrupt.cast"], {}, "corrupt.cast, line 3: not valid JSON"),
        (["render", "noise.bin"], {}, "give their terminal size with --size COLSxROWS"),
        (["render", "ok.cast", "--at-marker", "deploy"], {}, "ok.cast has no markers — render"),
        (["render", "ok.cast", "--at", "soon"], {}, "--at 'soon' is not a moment"),
        (["render", "ok.cast", "--size", "0x0"], {}, "--size '0x0': 0 columns is outside 1..1000"),
        (["demo", "--theme", "neon"], {}, "no theme named 'neon' — choose one of:"),
        (
            ["watch", "ws://127.0.0.1:{port}/", "--identifier", "a", "--theme", "neon"],
            {"OBSERVER_TOKEN": TOKEN},
            "no theme named 'neon'",
        ),
        (["serve", "--tokens", "missing.txt", "--", "true"], {}, "cannot read token file"),
        (["serve", "--tokens", "ok.cast", "--", "true"], {}, "ok.cast, line 1: expected"),
        (
            ["token", "issue", "control", "--tokens", "no/such/folder/tokens"],
            {},
            "cannot write no/such/folder/tokens",
        ),
    ],
)
def test_every_failure_a_user_causes_is_one_clear_line(
    tmp_path: Path, recording: Path, args: list[str], env: dict[str, str], says: str
) -> None:
    (tmp_path / "corrupt.cast").write_text(
        '{"version": 2, "width": 80, "height": 24}\n[0.1, "o", "hi"]\n[0.2, "o", \n'
    )
    (tmp_path / "noise.bin").write_bytes(bytes(range(256)) * 8)
    port = str(free_port())
    args = [a.replace("{port}", port) for a in args]
    result = observer(tmp_path, *args, stdin=TOKEN + "\n", **env)
    line = one_clear_line(result.returncode, result.stderr)
    assert says.replace("{port}", port) in line
    assert TOKEN not in result.stdout + result.stderr


def test_a_profile_added_with_config_add_is_what_watch_connects_to(tmp_path: Path) -> None:
    port = free_port()
    url = f"ws://127.0.0.1:{port}/"
    added = observer(tmp_path, "config", "add", "my-agent", url, "--identifier", "a")
    assert added.returncode == 0, added.stderr
    assert (tmp_path / "config" / "observer" / "config.toml").is_file()
    result = observer(tmp_path, "watch", "my-agent", OBSERVER_TOKEN=TOKEN)
    line = one_clear_line(result.returncode, result.stderr)
    assert f"refused the connection — is the server running on port {port}?" in line


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    auth = Authenticator(TokenDigests.from_tokens([("control", TOKEN)]))
    running = Server(["sh", "-c", "echo ready; sleep 60"], auth=auth, identifiers=("agent",))
    await running.start()
    try:
        yield running
    finally:
        await running.stop()


def watch_args(command: str, url: str) -> list[str]:
    return [command, url, "--identifier", "agent"] + (
        ["-o", "x.cast"] if command == "record" else []
    )


@pytest.mark.parametrize("command", ["record", "watch"])
async def test_a_wrong_observer_token_says_to_fix_or_unset_it(
    tmp_path: Path, server: Server, command: str
) -> None:
    """Logging in again would change nothing: OBSERVER_TOKEN overrides the keyring."""
    url = f"ws://127.0.0.1:{server.port}"
    args = watch_args(command, url)
    code, err = await observer_async(tmp_path, *args, OBSERVER_TOKEN="not-" + TOKEN)
    line = one_clear_line(code, err)
    assert line == (
        f"observer: the endpoint rejected the token for {url} — "
        "fix or unset OBSERVER_TOKEN (it overrides the keyring for every endpoint)"
    )


@pytest.mark.parametrize("command", ["record", "watch"])
async def test_a_wrong_keyring_token_says_to_log_in_again(
    tmp_path: Path, server: Server, command: str
) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    keyring = {"PYTHON_KEYRING_BACKEND": "keyrings.alt.file.PlaintextKeyring"}
    stored = observer(
        tmp_path, "auth", "login", url, "--token-stdin", stdin="not-" + TOKEN, **keyring
    )
    assert stored.returncode == 0, stored.stderr
    code, err = await observer_async(tmp_path, *watch_args(command, url), **keyring)
    line = one_clear_line(code, err)
    assert line == (
        f"observer: the endpoint rejected the token for {url} — run `observer auth login {url}`"
    )


async def test_no_token_and_no_keyring_names_the_fixes(tmp_path: Path, server: Server) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    code, err = await observer_async(tmp_path, "record", url, "--identifier", "agent", "-o", "x")
    line = one_clear_line(code, err)
    assert "keyring" in line and "OBSERVER_TOKEN" in line


async def test_watching_without_a_token_and_no_keyring_names_the_fixes(
    tmp_path: Path, server: Server
) -> None:
    """The TUI tries endpoints that need no token even without a keyring; this one needs one,
    and logging in would fail the same way: the line says what to fix instead."""
    url = f"ws://127.0.0.1:{server.port}"
    code, err = await observer_async(tmp_path, "watch", url, "--identifier", "agent")
    line = one_clear_line(code, err)
    assert "keyring" in line and "OBSERVER_TOKEN" in line
    assert "auth login" not in line


async def test_an_unknown_identifier_says_to_check_it(tmp_path: Path, server: Server) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    code, err = await observer_async(
        tmp_path, "record", url, "--identifier", "agnet", "-o", "x.cast", OBSERVER_TOKEN=TOKEN
    )
    assert "check --identifier" in one_clear_line(code, err)


async def test_a_recording_that_cannot_be_written_says_so(tmp_path: Path, server: Server) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    code, err = await observer_async(
        tmp_path,
        *("record", url, "--identifier", "agent", "-o", "no/such/folder/x.cast"),
        *("--duration", "5"),
        OBSERVER_TOKEN=TOKEN,
    )
    assert "no/such/folder/x.cast" in one_clear_line(code, err)


async def test_a_20x5_terminal_shows_a_cropped_live_view_and_still_takes_keys() -> None:
    """In a terminal too small for the remote screen, the view crops to the rows around the
    cursor, the status bar still starts with the mode, and taking control still works."""
    app = ObserverApp([scripted([b"hello world, a long line of agent output\r\n$ "])])
    async with app.run_test(size=(20, 5)) as pilot:
        await until(lambda: "$" in screen_text(app), "the cursor's line")
        assert "hello world, a lon" in screen_text(app)
        assert status(app).startswith(" WATCH ")
        await pilot.press("ctrl+t", "y")
        await until(lambda: status(app).startswith(" CONTROL "), "CONTROL")
        await pilot.press("l", "s")
        await until(lambda: app.links[0].sent == [b"l", b"s"], "the keys")  # type: ignore[attr-defined]
