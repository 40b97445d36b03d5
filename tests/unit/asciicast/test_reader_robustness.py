"""Whatever a file holds, the reader either yields events or raises ``CastFormatError``."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from observer.asciicast import CastReader
from observer.errors import CastFormatError

HEADERS = [
    '{"version": 2, "width": 80, "height": 24}\n',
    '{"version": 3, "term": {"cols": 80, "rows": 24}}\n',
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)
event_lines = st.one_of(
    st.text(max_size=30),
    json_values.map(lambda v: json.dumps(v)),
    st.tuples(st.floats(), st.text(max_size=2), st.text(max_size=5)).map(
        lambda t: json.dumps(list(t))
    ),
).map(lambda line: line.replace("\n", " ") + "\n")


def drain(text: str, lenient: bool) -> CastReader | None:
    try:
        reader = CastReader(io.StringIO(text), lenient=lenient)
        events = list(reader)
    except CastFormatError:
        return None
    previous = 0.0
    for event in events:
        assert event.time >= previous
        previous = event.time
    return reader


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(HEADERS), st.lists(event_lines, max_size=10), st.text(max_size=10))
def test_random_event_lines_never_crash_and_lenient_mode_never_raises(
    header: str, lines: list[str], tail: str
) -> None:
    text = header + "".join(lines) + tail
    drain(text, lenient=False)
    assert drain(text, lenient=True) is not None


@settings(max_examples=150)
@given(st.text(max_size=80) | json_values.map(json.dumps))
def test_random_headers_never_crash(text: str) -> None:
    drain(text, lenient=True)


@pytest.mark.slow
@settings(max_examples=5000, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(HEADERS), st.lists(event_lines, max_size=30), st.text(max_size=10))
def test_many_random_files_never_crash(header: str, lines: list[str], tail: str) -> None:
    text = header + "".join(lines) + tail
    drain(text, lenient=False)
    assert drain(text, lenient=True) is not None
