"""The encrypted keyring file (keyrings.alt's ``EncryptedKeyring``) is unlocked once per process.

A dashboard of five profiles asks its password once, not five times; without a terminal, a
locked file says exactly what is missing, in one line, with no Python warning. The real
keyrings.alt backend and file; only the person typing at ``getpass`` is stood in for.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from observer.app.app import ObserverApp
from observer.cli import main
from tests.shells.test_secrets_cli import CANARY, run_cli

ENCRYPTED = {"PYTHON_KEYRING_BACKEND": "keyrings.alt.file.EncryptedKeyring"}
URL = "wss://a.example"


def logged_in(tmp_path: Path, url: str) -> Path:
    """A keyring file with password ``keyring-pass`` holding a token for ``url``; its path."""
    stdin = f"{CANARY}\nkeyring-pass\nkeyring-pass\n"
    code, _, err = run_cli(
        tmp_path, "auth", "login", url, "--token-stdin", stdin=stdin, **ENCRYPTED
    )
    assert code == 0, err
    (path,) = (tmp_path / "data").rglob("crypted_pass.cfg")
    return path


@pytest.fixture
def encrypted_file(tmp_path: Path) -> Path:
    """A keyring file with password ``keyring-pass`` holding a token for :data:`URL`."""
    return logged_in(tmp_path, URL)


@pytest.fixture
def listening() -> Iterator[int]:
    """A loopback port that accepts connections (the app is never run against it)."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield server.getsockname()[1]


def test_a_dashboard_of_five_profiles_asks_the_keyring_password_once(
    listening: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    logged_in(tmp_path, f"ws://127.0.0.1:{listening}/")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("OBSERVER_CONFIG_DIR", str(tmp_path / "observer"))
    monkeypatch.delenv("OBSERVER_TOKEN", raising=False)
    for name, value in ENCRYPTED.items():
        monkeypatch.setenv(name, value)
    profiles = [f"agent-{n}" for n in range(5)]
    (tmp_path / "observer").mkdir()
    (tmp_path / "observer" / "config.toml").write_text(
        "".join(
            f'[profiles.{name}]\nurl = "ws://127.0.0.1:{listening}/"\nidentifier = "{name}"\n'
            for name in profiles
        )
    )
    asked: list[str] = []
    monkeypatch.setattr(
        "getpass.getpass", lambda prompt="", stream=None: asked.append(prompt) or "keyring-pass"
    )
    apps: list[ObserverApp] = []
    monkeypatch.setattr(ObserverApp, "run", lambda self, *a, **k: apps.append(self))
    assert main(["watch", *profiles]) == 0
    assert len(apps[0].links) == 5
    assert len(asked) == 1, asked


def test_without_a_terminal_a_locked_file_says_what_is_missing(
    encrypted_file: Path, tmp_path: Path
) -> None:
    code, out, err = run_cli(tmp_path, "auth", "status", URL, stdin="", **ENCRYPTED)
    assert (code, out) == (1, "")
    assert err == (
        f"observer: the encrypted keyring file {encrypted_file} is locked and there is no "
        "terminal to type its password — run the command in a terminal, pipe the password on "
        "standard input, or give the token in OBSERVER_TOKEN\n"
    )


def test_a_wrong_password_says_so_and_a_piped_one_works_without_a_warning(
    encrypted_file: Path, tmp_path: Path
) -> None:
    code, out, err = run_cli(tmp_path, "auth", "status", URL, stdin="wrong\n", **ENCRYPTED)
    assert (code, out) == (1, "")
    assert err == (
        f"observer: the password of the encrypted keyring file {encrypted_file} is wrong "
        "— type it again; nothing was changed\n"
    )
    code, out, err = run_cli(tmp_path, "auth", "status", URL, stdin="keyring-pass\n", **ENCRYPTED)
    assert (code, err) == (0, "")
    assert "wss://a.example:443  keyring: opaque token" in out
