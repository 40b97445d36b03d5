"""`observer auth`: login from a hidden prompt or stdin, status without the token, clear failures."""

from __future__ import annotations

import datetime as dt
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import jwt
import keyring
import pytest
from keyring.backends import fail

from observer.cli import main
from tests.shells.keyrings import MemoryKeyring

CANARY = "canary-cli-5d1e-token"


@pytest.fixture
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("OBSERVER_TOKEN", raising=False)
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def test_login_prompts_without_echo_and_stores_by_origin(
    memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts: list[str] = []

    def fake_getpass(prompt: str) -> str:
        prompts.append(prompt)
        return CANARY

    monkeypatch.setattr("getpass.getpass", fake_getpass)
    assert main(["auth", "login", "http://127.0.0.1:8888/lab"]) == 0
    assert prompts == ["Token for ws://127.0.0.1:8888 (input hidden): "]
    assert memory.entries == {("observer", "ws://127.0.0.1:8888"): CANARY}
    out = capsys.readouterr()
    assert CANARY not in out.out + out.err


def test_login_reads_one_line_from_stdin(
    memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(CANARY + "\nignored\n"))
    assert main(["auth", "login", "wss://a.example", "--token-stdin"]) == 0
    assert memory.entries[("observer", "wss://a.example:443")] == CANARY
    assert main(["auth", "list"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "wss://a.example:443"


def test_an_empty_token_is_refused(
    memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert main(["auth", "login", "wss://a.example", "--token-stdin"]) == 1
    assert "no token was given" in capsys.readouterr().err
    assert memory.entries == {}


def test_status_shows_jwt_audience_and_expiry_never_the_token(
    memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    exp = dt.datetime.now(dt.UTC) - dt.timedelta(hours=3)
    token = jwt.encode({"aud": "pool-7", "exp": exp}, "s" * 32, algorithm="HS256")
    monkeypatch.setattr("sys.stdin", io.StringIO(token + "\n"))
    assert main(["auth", "login", "wss://a.example", "--token-stdin"]) == 0
    assert main(["auth", "status"]) == 0
    out = capsys.readouterr()
    assert "wss://a.example:443  keyring: JWT, audience pool-7, expires" in out.out
    assert "(expired 3 h ago)" in out.out
    assert "has expired" in out.err
    assert token not in out.out + out.err


def test_status_of_an_unknown_endpoint_says_how_to_log_in(
    memory: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["auth", "status", "wss://b.example"]) == 1
    assert "run `observer auth login wss://b.example:443`" in capsys.readouterr().out


def test_logout_deletes_the_token_and_the_index_entry(
    memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(CANARY + "\n"))
    main(["auth", "login", "wss://a.example", "--token-stdin"])
    assert main(["auth", "logout", "wss://a.example:443/"]) == 0
    assert memory.entries == {}
    assert main(["auth", "list"]) == 0
    assert "deleted the token for wss://a.example:443" in capsys.readouterr().out
    assert main(["auth", "logout", "wss://a.example"]) == 0
    assert "no token was stored" in capsys.readouterr().out


def test_without_a_keyring_login_fails_with_one_line_naming_the_fixes(
    memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    keyring.set_keyring(fail.Keyring())
    monkeypatch.setattr("sys.stdin", io.StringIO(CANARY + "\n"))
    assert main(["auth", "login", "wss://a.example", "--token-stdin"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("observer: no usable keyring backend was found — ")
    assert err.count("\n") == 1 and "Traceback" not in err and CANARY not in err


def test_a_url_with_credentials_is_refused(
    memory: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["auth", "status", "wss://user:pw@a.example"]) == 1
    assert "credentials in a URL" in capsys.readouterr().err


def test_login_from_stdin_keeps_the_token_out_of_argv_and_the_config_dir(tmp_path: Path) -> None:
    """A real subprocess with keyrings.alt's file backend chosen explicitly (the only kind of
    persistent keyring this headless machine has): the token reaches the keyring file and
    nothing else under the config directory, and never the process arguments."""
    env = dict(
        os.environ,
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        PYTHON_KEYRING_BACKEND="keyrings.alt.file.PlaintextKeyring",
    )
    env.pop("OBSERVER_TOKEN", None)
    command = [
        sys.executable,
        "-m",
        "observer",
        "auth",
        "login",
        "ws://127.0.0.1:9",
        "--token-stdin",
    ]
    done = subprocess.run(
        command, input=CANARY + "\n", env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert CANARY not in " ".join(command) + done.stdout + done.stderr
    config_files = [p for p in (tmp_path / "config").rglob("*") if p.is_file()]
    assert config_files and all(CANARY not in p.read_text() for p in config_files)
    listed = subprocess.run(
        [sys.executable, "-m", "observer", "auth", "list"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert listed.stdout == "ws://127.0.0.1:9\n"
