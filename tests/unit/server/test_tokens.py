"""Token files hold digests only; tokens are checked against them and never stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from observer.cli import main
from observer.errors import UsageError
from observer.tokens import Authenticator, TokenStore, digest


def test_a_token_matches_its_digest_and_grants_its_role() -> None:
    store = TokenStore([("watch", digest("w-token")), ("control", digest("c-token"))])
    assert store.role_of("w-token") == "watch"
    assert store.role_of("c-token") == "control"
    assert store.role_of("other") is None
    assert store.role_of("") is None


def test_a_token_file_is_read_with_comments_and_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "tokens"
    path.write_text(f"# ops team\n\ncontrol {digest('abc')}\n  watch {digest('def')}  \n")
    store = TokenStore.load(path)
    assert len(store) == 2
    assert store.role_of("abc") == "control"
    assert store.role_of("def") == "watch"


def test_a_bad_line_names_its_number_but_not_its_content(tmp_path: Path) -> None:
    path = tmp_path / "tokens"
    path.write_text(f"control {digest('abc')}\nadmin plain-secret-token\n")
    with pytest.raises(UsageError) as info:
        TokenStore.load(path)
    assert "line 2" in str(info.value)
    assert "plain-secret-token" not in str(info.value)


def test_a_missing_token_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="cannot read token file"):
        TokenStore.load(tmp_path / "absent")


def test_token_issue_prints_the_token_once_and_stores_only_its_digest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tokens"
    path.write_text("# existing, no newline at the end")
    assert main(["token", "issue", "control", "--file", str(path)]) == 0
    token = capsys.readouterr().out.strip()
    assert len(token) > 40
    text = path.read_text()
    assert token not in text
    assert text.splitlines()[-1] == f"control {digest(token)}"
    assert TokenStore.load(path).role_of(token) == "control"
    assert main(["token", "issue", "watch", "--file", str(path)]) == 0
    second = capsys.readouterr().out.strip()
    assert second != token
    assert TokenStore.load(path).role_of(second) == "watch"


def test_an_authenticator_without_jwt_uses_the_digests() -> None:
    auth = Authenticator(TokenStore.from_tokens([("control", "a.b.c")]))
    assert auth.role_of("a.b.c") == "control"
    assert auth.role_of("x.y.z") is None
