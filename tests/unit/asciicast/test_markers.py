"""The marker vocabulary: what writers spell is what readers find, old spellings included."""

from __future__ import annotations

import pytest

from observer.asciicast.markers import MarkerKind, detail_of, kind_of, label, matches


@pytest.mark.parametrize("kind", list(MarkerKind))
def test_every_kind_reads_back_from_its_label(kind: MarkerKind) -> None:
    assert kind_of(label(kind)) is kind
    assert kind_of(label(kind, "some  detail\n")) is kind
    assert detail_of(label(kind, "some  detail\n")) == "some detail"


@pytest.mark.parametrize(
    ("old", "kind"),
    [
        ("takeover started", MarkerKind.TAKEOVER_START),
        ("takeover ended", MarkerKind.TAKEOVER_END),
        ("connected", MarkerKind.CONNECT),
        ("reconnected", MarkerKind.RECONNECT),
        ("disconnected", MarkerKind.DISCONNECT),
    ],
)
def test_legacy_spellings_are_read_as_todays_kinds(old: str, kind: MarkerKind) -> None:
    assert kind_of(old) is kind


def test_a_users_own_label_has_no_kind_but_can_be_matched() -> None:
    assert kind_of("question") is None
    assert matches("question", "quest")
    assert not matches("question", "answer")


def test_a_kind_name_matches_every_spelling_of_it() -> None:
    assert matches("takeover start", "takeover")
    assert matches("takeover started", "takeover")
    assert matches("takeover end", "takeover")
    assert not matches("gap", "takeover")
