"""Writing asciicast v3 and v2: what the writer puts down reads back exactly."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from observer.asciicast import CastReader, CastWriter, Event, Header

HEADER = Header(
    version=3,
    cols=120,
    rows=40,
    timestamp=1700000000,
    title="agent run",
    env={"SHELL": "/bin/bash"},
    theme={"fg": "#eeeeee", "bg": "#101010"},
    idle_time_limit=1.5,
    command="agent --task x",
    term_type="xterm-256color",
    extra={
        "observer": {"identifier": "sbx-1", "endpoint": "example.net"},
        "term": {"version": "t"},
    },
)

EVENTS = [
    Event(0.1, "o", "\x1b[32mok\x1b[0m\r\n"),
    Event(0.5, "i", "y"),
    Event(0.5, "m", "takeover"),
    Event(1.25, "r", "100x30"),
    Event(2.000001, "q", "unknown code"),
    Event(3.0, "x", "0"),
]


def write(events: list[Event], fmt: str) -> str:
    out = io.StringIO()
    writer = CastWriter(out, HEADER, format=fmt)  # type: ignore[arg-type]
    for event in events:
        writer.write(event)
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["v3", "v2"])
def test_events_and_header_read_back_unchanged(fmt: str) -> None:
    reader = CastReader(io.StringIO(write(EVENTS, fmt)))
    assert list(reader) == EVENTS
    expected_version = 3 if fmt == "v3" else 2
    assert reader.header.version == expected_version
    h = reader.header
    assert (h.cols, h.rows, h.timestamp, h.title, h.command) == (
        120,
        40,
        1700000000,
        "agent run",
        "agent --task x",
    )
    assert (h.theme, h.idle_time_limit, dict(h.env)) == (HEADER.theme, 1.5, {"SHELL": "/bin/bash"})
    assert h.extra["observer"] == {"identifier": "sbx-1", "endpoint": "example.net"}


def test_v2_is_the_default_as_every_player_reads_it() -> None:
    out = io.StringIO()
    CastWriter(out, HEADER)
    assert json.loads(out.getvalue())["version"] == 2


def test_v3_stores_intervals_with_term_object() -> None:
    out = io.StringIO()
    writer = CastWriter(out, HEADER, format="v3")
    writer.write(Event(1.5, "o", "a"))
    writer.write(Event(4.0, "o", "b"))
    lines = out.getvalue().splitlines()
    header = json.loads(lines[0])
    assert header["version"] == 3
    assert header["term"] == {
        "cols": 120,
        "rows": 40,
        "type": "xterm-256color",
        "version": "t",
        "theme": {"fg": "#eeeeee", "bg": "#101010"},
    }
    assert lines[1:] == ['[1.500000, "o", "a"]', '[2.500000, "o", "b"]']
    assert writer.time == 4.0


def test_v2_stores_absolute_times_width_and_height() -> None:
    lines = write(EVENTS[:2], "v2").splitlines()
    header = json.loads(lines[0])
    assert (header["version"], header["width"], header["height"]) == (2, 120, 40)
    assert "term" not in header and header["theme"] == {"fg": "#eeeeee", "bg": "#101010"}
    assert lines[1:] == ['[0.100000, "o", "\\u001b[32mok\\u001b[0m\\r\\n"]', '[0.500000, "i", "y"]']


def test_thousands_of_v3_intervals_do_not_drift() -> None:
    events = [Event(i * 0.001 + 0.0000004, "o", "x") for i in range(5000)]
    back = list(CastReader(io.StringIO(write(events, "v3"))))
    assert max(abs(a.time - b.time) for a, b in zip(events, back, strict=True)) < 1e-6


def test_a_time_earlier_than_the_last_is_written_as_the_last() -> None:
    text = write([Event(2.0, "o", "a"), Event(1.0, "o", "b"), Event(float("nan"), "o", "c")], "v3")
    assert [e.time for e in CastReader(io.StringIO(text))] == [2.0, 2.0, 2.0]


def test_undecodable_data_and_line_separators_stay_on_one_valid_utf8_line() -> None:
    data = "a\udcff b\u2028c\x85d\u2029e\n"
    text = write([Event(1.0, "o", data)], "v3")
    assert text.count("\n") == 2
    assert len(text.splitlines()) == 2
    text.encode("utf-8")  # no lone surrogate survives
    (event,) = CastReader(io.StringIO(text))
    assert event.data == "a\ufffd b\u2028c\x85d\u2029e\n"


def test_comments_are_written_in_v3_and_dropped_in_v2() -> None:
    for fmt, expected in (("v3", ["# gap of 3 s"]), ("v2", [])):
        out = io.StringIO()
        CastWriter(out, HEADER, format=fmt).comment("gap of\n3 s")  # type: ignore[arg-type]
        assert out.getvalue().splitlines()[1:] == expected


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="v2, v3"):
        CastWriter(io.StringIO(), HEADER, format="v4")  # type: ignore[arg-type]


event_strategy = st.tuples(
    st.floats(min_value=0, max_value=1e5, allow_nan=False),
    st.sampled_from(["o", "i", "m", "x", "custom"]),
    st.text(max_size=20),
)


@given(st.lists(event_strategy, max_size=30), st.sampled_from(["v2", "v3"]))
def test_any_events_round_trip_to_the_microsecond(
    raw: list[tuple[float, str, str]], fmt: str
) -> None:
    events = [Event(t, c, d) for t, c, d in sorted(raw, key=lambda e: e[0])]
    back = list(CastReader(io.StringIO(write(events, fmt))))
    assert [(e.code, e.data) for e in back] == [(e.code, e.data) for e in events]
    for a, b in zip(events, back, strict=True):
        assert abs(a.time - b.time) <= 1e-6
