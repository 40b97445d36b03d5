"""Token files hold digests only; tokens are checked against them and never stored."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from observer.auth.token_file import TokenEntry
from observer.auth.tokens import Authenticator, TokenDigests, digest
from observer.cli import main
from observer.errors import UsageError


def test_a_token_matches_its_digest_and_grants_its_role() -> None:
    store = TokenDigests([("watch", digest("w-token")), ("control", digest("c-token"))])
    assert store.role_of("w-token") == "watch"
    assert store.role_of("c-token") == "control"
    assert store.role_of("other") is None
    assert store.role_of("") is None


def test_a_token_file_is_read_with_comments_and_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "tokens"
    path.write_text(f"# ops team\n\ncontrol {digest('abc')}\n  watch {digest('def')}  \n")
    store = TokenDigests.load(path)
    assert len(store) == 2
    assert store.role_of("abc") == "control"
    assert store.role_of("def") == "watch"


def test_a_bad_line_names_its_number_but_not_its_content(tmp_path: Path) -> None:
    path = tmp_path / "tokens"
    path.write_text(f"control {digest('abc')}\nadmin plain-secret-token\n")
    with pytest.raises(UsageError) as info:
        TokenDigests.load(path)
    assert "line 2" in str(info.value)
    assert "plain-secret-token" not in str(info.value)


def test_a_missing_token_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="cannot read token file"):
        TokenDigests.load(tmp_path / "absent")


def test_token_issue_prints_the_token_once_and_stores_only_its_digest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tokens"
    path.write_text("# existing, no newline at the end")
    assert main(["token", "issue", "control", "--tokens", str(path)]) == 0
    token = capsys.readouterr().out.strip()
    assert len(token) > 40
    text = path.read_text()
    assert token not in text
    assert text.splitlines()[-1].startswith(f"control {digest(token)} created=")
    assert TokenDigests.load(path).role_of(token) == "control"
    assert main(["token", "issue", "watch", "--tokens", str(path)]) == 0
    second = capsys.readouterr().out.strip()
    assert second != token
    assert TokenDigests.load(path).role_of(second) == "watch"


def test_an_authenticator_without_jwt_uses_the_digests() -> None:
    auth = Authenticator(TokenDigests.from_tokens([("control", "a.b.c")]))
    assert auth.role_of("a.b.c") == "control"
    assert auth.role_of("x.y.z") is None


def test_a_file_of_the_first_format_keeps_working_beside_labelled_lines(tmp_path: Path) -> None:
    path = tmp_path / "tokens"
    path.write_text(
        f"watch {digest('old')}\n"
        f"control {digest('new')} label=ci created=2025-01-01T00:00:00Z "
        "expires=2999-01-01T00:00:00Z\n"
    )
    store = TokenDigests.load(path)
    assert store.role_of("old") == "watch" and store.role_of("new") == "control"
    old, new = store.entries
    assert (old.label, old.created, old.expires) == (None, None, None)
    assert new.label == "ci" and new.name == "ci" and old.name == digest("old")[:19]
    assert new.line() == path.read_text().splitlines()[1]


@pytest.mark.parametrize(
    "field",
    ["label=", "label=-x", "expires=tomorrow", "expries=2030-01-01T00:00:00Z", "label=a label=b"],
)
def test_a_damaged_field_is_an_error_naming_the_line(tmp_path: Path, field: str) -> None:
    path = tmp_path / "tokens"
    path.write_text(f"watch {digest('a')}\ncontrol {digest('b')} {field}\n")
    with pytest.raises(UsageError, match="line 2"):
        TokenDigests.load(path)


def test_an_expired_token_admits_nobody_and_revocation_says_why() -> None:
    clock = [1000.0]
    entry = TokenEntry("watch", digest("w"), "temp", None, dt.datetime.fromtimestamp(2000, dt.UTC))
    auth = Authenticator(TokenDigests([entry]), clock=lambda: clock[0])
    credential = auth.check("w")
    assert credential is not None and credential.expires == 2000.0
    assert auth.revocation(credential) is None
    clock[0] = 2000.0
    assert auth.check("w") is None
    assert auth.revocation(credential) == "token expired"


def test_issue_list_and_revoke_by_label_or_digest_prefix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tokens"
    tokens = {}
    for role, label in (("control", "alice"), ("watch", "bob")):
        assert main(["token", "issue", role, "--tokens", str(path), "--label", label,
                     "--expires", "7d"]) == 0  # fmt: skip
        tokens[label] = capsys.readouterr().out.strip()
    assert main(["token", "issue", "watch", "--tokens", str(path)]) == 0
    tokens["unlabelled"] = capsys.readouterr().out.strip()
    assert main(["token", "list", "--tokens", str(path)]) == 0
    listing = capsys.readouterr().out
    lines = listing.splitlines()
    assert lines[0].split() == ["LABEL", "ROLE", "CREATED", "EXPIRES", "SESSIONS", "DIGEST"]
    assert lines[1].split()[:2] == ["alice", "control"] and lines[3].split()[:2] == ["-", "watch"]
    assert all(token not in listing for token in tokens.values())
    assert main(["token", "revoke", "alice", "--tokens", str(path)]) == 0
    prefix = digest(tokens["unlabelled"])[7:15]
    assert main(["token", "revoke", f"sha256:{prefix}", "--tokens", str(path)]) == 0
    store = TokenDigests.load(path)
    assert [e.label for e in store.entries] == ["bob"]
    assert store.role_of(tokens["alice"]) is None and store.role_of(tokens["bob"]) == "watch"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["revoke", "nobody"], "no token"),
        (["revoke", "abc"], "no token"),  # too short a prefix to mean anything
        (["issue", "watch", "--label", "bob"], "already has a token labelled"),
        (["issue", "watch", "--label", "no spaces"], "bad --label"),
        (["issue", "watch", "--expires", "soon"], "bad --expires"),
        (["issue", "watch", "--expires", "0d"], "bad --expires"),
        (["issue", "watch", "--identifier", "../etc"], "bad --identifier"),
    ],
)
def test_token_mistakes_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    path = tmp_path / "tokens"
    assert main(["token", "issue", "watch", "--tokens", str(path), "--label", "bob"]) == 0
    capsys.readouterr()
    assert main(["token", *args, "--tokens", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("observer: ")


def test_revoking_rewrites_the_file_in_one_step_keeping_comments_and_mode(tmp_path: Path) -> None:
    path = tmp_path / "tokens"
    path.write_text(f"# team\nwatch {digest('a')} label=a\n\ncontrol {digest('b')}\n")
    path.chmod(0o640)
    inode = path.stat().st_ino
    assert main(["token", "revoke", "a", "--tokens", str(path)]) == 0
    assert path.read_text() == f"# team\n\ncontrol {digest('b')}\n"
    assert path.stat().st_mode & 0o777 == 0o640 and path.stat().st_ino != inode
    assert [p.name for p in tmp_path.iterdir()] == ["tokens"]  # no temporary file left


def test_a_scoped_token_is_issued_listed_and_admits_only_its_sessions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tokens"
    issue = ["token", "issue", "watch", "--tokens", str(path), "--label", "carol"]
    assert main([*issue, "--identifier", "agent-1", "--identifier", "agent-2"]) == 0
    token = capsys.readouterr().out.strip()
    assert main(["token", "list", "--tokens", str(path)]) == 0
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[0] == "carol" and "agent-1,agent-2" in row
    credential = TokenDigests.load(path).check(token, 0.0)
    assert credential is not None and credential.label == "carol"
    assert credential.admits("agent-2") and not credential.admits("agent-3")


def test_changing_a_tokens_scope_in_the_file_ends_its_connections(tmp_path: Path) -> None:
    entry = TokenEntry("watch", digest("w"), "carol", identifiers=frozenset({"a"}))
    auth = Authenticator(TokenDigests([entry]))
    credential = auth.check("w")
    assert credential is not None and auth.revocation(credential) is None
    auth.digests = TokenDigests([TokenEntry("watch", digest("w"), "carol")])
    assert auth.revocation(credential) == "token's identifiers changed"
