"""`observer serve` refuses to start open, and says what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from observer.cli import main
from observer.commands.serve import parse_listen


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["serve", *args])
    return status, capsys.readouterr().err


def test_serve_without_tokens_refuses_to_start(capsys: pytest.CaptureFixture[str]) -> None:
    status, err = run(["--", "bash"], capsys)
    assert status == 1
    assert err.startswith("observer: no way to authenticate observers — pass --tokens")


def test_no_auth_is_refused_on_a_non_loopback_address(capsys: pytest.CaptureFixture[str]) -> None:
    status, err = run(["--listen", "0.0.0.0:8765", "--insecure-no-auth", "--", "bash"], capsys)
    assert status == 1 and "loopback" in err


def test_an_empty_token_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tokens"
    path.write_text("# nothing yet\n")
    status, err = run(["--tokens", str(path), "--", "bash"], capsys)
    assert status == 1 and "observer token issue" in err


def test_serve_needs_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, err = run(["--insecure-no-auth"], capsys)
    assert status == 1 and "no command" in err


def test_listen_and_size_are_parsed_or_refused_clearly() -> None:
    assert parse_listen("127.0.0.1:0") == ("127.0.0.1", 0)
    assert parse_listen("[::1]:8765") == ("::1", 8765)
    from observer.errors import UsageError

    for bad in ("8765", "host:99999", ":80"):
        with pytest.raises(UsageError, match="--listen"):
            parse_listen(bad)


@pytest.mark.parametrize("size", ["80", "0x24", "80x24x1", "5000x10"])
def test_a_bad_size_is_refused_before_anything_starts(
    size: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, err = run(["--insecure-no-auth", "--size", size, "--", "bash"], capsys)
    assert status == 1
    assert err.startswith(f"observer: --size {size!r}") and "write it like 120x40" in err
