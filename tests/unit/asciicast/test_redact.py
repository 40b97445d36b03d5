"""Secrets never reach a recording: masked in place, even when split across chunks."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from observer.asciicast import Redactor
from observer.asciicast.redact import PATTERNS, may_hold_shape

JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZ2VudCJ9.c2lnbmF0dXJlLWJ5dGVzLWhlcmU"
SECRETS = [
    JWT,
    "ghp_" + "a1B2" * 9,
    "github_pat_" + "x" * 30,
    "AKIAIOSFODNN7EXAMPLE",
    "sk-ant-api03-" + "Q" * 30,
    "xoxb-1234567890-abcdef",
    "AIza" + "S" * 35,
]


@pytest.mark.parametrize("secret", SECRETS)
def test_known_secret_shapes_are_masked_with_the_same_length(secret: str) -> None:
    redactor = Redactor()
    text = f"export KEY={secret}\r\nnext line\r\n"
    out = redactor.feed(text) + redactor.flush()
    assert secret not in out
    assert out == text.replace(secret, "*" * len(secret))
    assert redactor.count == 1


def test_a_bearer_credential_is_masked_and_the_word_bearer_kept() -> None:
    redactor = Redactor()
    out = redactor.feed("Authorization: Bearer abcdefghijklmnop1234\n")
    assert out == "Authorization: Bearer " + "*" * 20 + "\n"


def test_the_sessions_own_token_is_masked_whatever_its_shape() -> None:
    redactor = Redactor(["tok-3f9a"])
    assert redactor.feed("echo tok-3f9a; x=tok-3f9a\n") == "echo ********; x=********\n"
    assert redactor.count == 2


@pytest.mark.parametrize("cut", [1, 5, 20, 40, len(JWT) - 1])
def test_a_secret_split_across_chunks_is_still_masked(cut: int) -> None:
    redactor = Redactor(["own-session-token-123"])
    text = f"a {JWT} b own-session-token-123 Bearer zzzzzzzzzzzzzzzzzzzz\n"
    pieces = [text[i : i + cut] for i in range(0, len(text), cut)]
    out = "".join(redactor.feed(p) for p in pieces) + redactor.flush()
    assert len(out) == len(text)
    assert JWT[:20] not in out and "own-session" not in out and "zzzz" not in out
    assert redactor.count == 3


def test_only_the_unfinished_word_is_held_back() -> None:
    redactor = Redactor()
    assert redactor.feed("$ ls\r\nfile.t") == "$ ls\r\n"
    assert redactor.holding
    assert redactor.feed("xt done\r\n") == "file.txt done\r\n"
    assert not redactor.holding


def test_an_endless_token_run_is_released_after_a_bound() -> None:
    redactor = Redactor()
    out = redactor.feed("A" * 10_000)
    assert out == "A" * 10_000 and not redactor.holding


def test_ordinary_output_passes_unchanged() -> None:
    redactor = Redactor()
    text = "\x1b[32mPASSED\x1b[0m tests/test_x.py::test_a - 0.01s\r\nsk-short Bearer x\r\n"
    assert redactor.feed(text) + redactor.flush() == text
    assert redactor.count == 0


@pytest.mark.parametrize(("pattern", "quick"), [(p, quick) for p, _, quick in PATTERNS])
def test_the_quick_test_never_passes_over_a_secret_shape(
    pattern: re.Pattern[str], quick: Callable[[str], bool]
) -> None:
    @given(st.from_regex(pattern))
    @settings(max_examples=200, deadline=None)
    def holds(text: str) -> None:
        assert quick(text) and may_hold_shape(text)

    holds()
    assert not may_hold_shape("compiling 3/7 \x1b[32mok\x1b[0m thinking… 3.0s")


def test_an_sk_key_starts_a_word_and_words_ending_in_sk_are_left_alone() -> None:
    key = "sk-" + "k" * 24
    redactor = Redactor()
    text = f"task-{'r' * 24} disk-{'x' * 30} ({key}) -{key}\n"
    masked = "*" * len(key)
    assert redactor.redact(text) == f"task-{'r' * 24} disk-{'x' * 30} ({masked}) -{masked}\n"
    assert redactor.count == 2
