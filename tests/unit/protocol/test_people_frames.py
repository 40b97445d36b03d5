"""``people`` frames: what a client reads is bounded and safe to show, whatever the server sent."""

from __future__ import annotations

import json

from observer.protocol import frames as f
from observer.protocol.people_frames import MAX_LABEL, MAX_PEOPLE, People, clean_label
from observer.terminal.sanitize import PLACEHOLDER


def person(**fields: object) -> dict[str, object]:
    return {"id": 1, "label": "alice", "role": "control", "since": 1.0, **fields}


def people_message(*listed: dict[str, object], you: int = 1) -> str:
    return json.dumps({"type": "people", "you": you, "holder": None, "people": list(listed)})


def test_a_label_with_controls_and_bidi_overrides_is_shown_inert_and_bounded() -> None:
    frame = f.decode_server_frame(people_message(person(label="\x1b]0;pwn\x07ev\u202eil" * 20)))
    assert isinstance(frame, People)
    [shown] = frame.people
    assert "\x1b" not in shown.label and "\u202e" not in shown.label
    assert PLACEHOLDER in shown.label and len(shown.label) == MAX_LABEL


def test_a_blank_label_reads_as_unnamed() -> None:
    assert clean_label(" \t ") == "unnamed"
    assert clean_label("al\nice") == "al ice"
    assert clean_label("al\x07ice") == f"al{PLACEHOLDER}ice"


def test_bad_people_frames_are_malformed_not_raised() -> None:
    for message in (
        people_message(person(since="yesterday")),
        people_message(person(role="owner")),
        people_message(person(id=-1)),
        people_message("alice"),  # type: ignore[arg-type]
        json.dumps({"type": "people", "you": 1, "holder": "alice", "people": []}),
        people_message(*[person()] * (MAX_PEOPLE + 1)),
        json.dumps({"type": "hand", "to": "bob"}),
    ):
        decoded = f.decode_server_frame(message)
        if decoded == f.Malformed("unknown server frame type"):
            decoded = f.decode_client_frame(message)
        assert isinstance(decoded, f.Malformed), message
