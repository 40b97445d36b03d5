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


def test_login_checks_the_keyring_before_asking_for_the_token(
    memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    keyring.set_keyring(fail.Keyring())
    asked: list[str] = []
    monkeypatch.setattr("getpass.getpass", lambda prompt: asked.append(prompt) or CANARY)
    assert main(["auth", "login", "wss://a.example"]) == 1
    assert asked == [], "the user pasted a token that could not be stored"
    assert "no usable keyring backend was found" in capsys.readouterr().err


def test_the_origins_index_lives_in_observer_config_dir(
    memory: MemoryKeyring, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OBSERVER_CONFIG_DIR", str(tmp_path / "chosen"))
    monkeypatch.setattr("sys.stdin", io.StringIO(CANARY + "\n"))
    assert main(["auth", "login", "wss://a.example", "--token-stdin"]) == 0
    assert (tmp_path / "chosen" / "origins").read_text() == "wss://a.example:443\n"
    assert not (tmp_path / "config").exists(), "nothing may go to the platform's config dir"


def run_cli(tmp_path: Path, *args: str, stdin: str = "", **extra: str) -> tuple[int, str, str]:
    """The real command in a new session: no controlling terminal, so getpass reads stdin."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OBSERVER_", "XDG_"))}
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"))
    env.update(extra)
    done = subprocess.run(
        [sys.executable, "-m", "observer", *args],
        input=stdin,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        start_new_session=True,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    ("backend", "hide_crypto", "fix"),
    [
        ("keyrings.alt.file.EncryptedKeyring", True, "pip install 'observer-tty[file-keyring]'"),
        ("keyrings.alt.file.EncryptedKeyrng", False, "check the class name"),
        ("keyring.backends.SecretServce.Keyring", False, "check the class name"),
    ],
)
def test_a_chosen_backend_that_cannot_load_is_one_line_before_any_prompt(
    tmp_path: Path, backend: str, hide_crypto: bool, fix: str
) -> None:
    """``hide_crypto`` shadows pycryptodome(x) with packages that fail to import, as on a machine
    where they are not installed."""
    extra = {"PYTHON_KEYRING_BACKEND": backend}
    if hide_crypto:
        for name in ("Crypto", "Cryptodome"):
            (tmp_path / "hidden" / name).mkdir(parents=True)
            (tmp_path / "hidden" / name / "__init__.py").write_text("raise ImportError(__name__)\n")
        extra["PYTHONPATH"] = str(tmp_path / "hidden")
    code, out, err = run_cli(
        tmp_path, "auth", "login", "wss://a.example", stdin=CANARY + "\n", **extra
    )
    assert code == 1 and out == "" and "Traceback" not in err
    assert err.count("\n") == 1, err
    assert err.startswith(f"observer: the keyring backend PYTHON_KEYRING_BACKEND={backend} ")
    assert fix in err.split(" — ")[1]


def test_the_encrypted_file_keyring_the_errors_advise_works(tmp_path: Path) -> None:
    """Following the advice: keyrings.alt's EncryptedKeyring with pycryptodomex (the
    file-keyring extra). Its password is read by getpass, from stdin without a terminal."""
    extra = {"PYTHON_KEYRING_BACKEND": "keyrings.alt.file.EncryptedKeyring"}
    url = "wss://a.example"
    stdin = f"{CANARY}\nkeyring-pass\nkeyring-pass\n"
    code, out, err = run_cli(tmp_path, "auth", "login", url, "--token-stdin", stdin=stdin, **extra)
    assert code == 0, err
    assert "stored a token for wss://a.example:443 in the keyring" in out
    code, out, err = run_cli(tmp_path, "auth", "status", url, stdin="keyring-pass\n", **extra)
    assert code == 0, err
    assert "wss://a.example:443  keyring: opaque token" in out
    (stored,) = (tmp_path / "data").rglob("crypted_pass.cfg")
    assert CANARY not in stored.read_text()


def test_login_whose_input_ends_before_a_token_stores_nothing_and_says_so(
    tmp_path: Path,
) -> None:
    """``observer auth login URL </dev/null`` without a terminal (or Ctrl-D at the prompt):
    getpass meets the end of its input."""
    extra = {"PYTHON_KEYRING_BACKEND": "keyrings.alt.file.PlaintextKeyring"}
    code, out, err = run_cli(tmp_path, "auth", "login", "ws://127.0.0.1:9", **extra)
    assert code == 1 and out == "" and "Traceback" not in err, err
    assert err.splitlines()[-1] == (
        "observer: no token was given (the input ended) — paste the token at the prompt, "
        "or pipe it with --token-stdin"
    )
    code, out, _ = run_cli(tmp_path, "auth", "list", **extra)
    assert "127.0.0.1:9" not in out
