"""Reading asciicast v1, v2 and v3 into one event model, and what happens to damaged files."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest

from observer.asciicast import CastReader, Event, Header
from observer.errors import CastFormatError

V1 = {
    "version": 1,
    "width": 80,
    "height": 24,
    "duration": 1.5,
    "command": "/bin/zsh",
    "title": "demo",
    "env": {"TERM": "xterm-256color", "SHELL": "/bin/zsh"},
    "stdout": [[0.25, "\u001b[1;31mHello\u001b[0m\n"], [1.0, "bye"]],
}

V2 = """\
{"version": 2, "width": 100, "height": 30, "timestamp": 1504467315, "title": "Demo", "idle_time_limit": 2, "env": {"TERM": "xterm-256color"}, "theme": {"fg": "#d0d0d0", "bg": "#212121"}, "custom": {"a": 1}}
[0.248848, "o", "hello "]
[1.001376, "i", "y"]
[1.5, "m", "checkpoint"]
[2.0, "r", "90x20"]
[2.5, "z", "unknown code kept"]
"""

V3 = """\
{"version": 3, "term": {"cols": 80, "rows": 24, "type": "xterm-256color", "version": "VTE(7802)", "theme": {"fg": "#ffffff", "bg": "#000000", "palette": "#000000:#ff0000"}}, "timestamp": 1504467315, "command": "bash", "env": {"SHELL": "/bin/zsh"}, "tags": ["a"]}
# event stream follows the header
[0.248, "o", "Hello"]
[1.001, "o", " World"]
[3.5, "m", ""]
# terminal window resized to 90 cols and 30 rows
[2.05, "r", "90x30"]
[0.887, "x", "0"]
"""


def read(text: str, **kwargs: bool) -> tuple[CastReader, list[Event]]:
    reader = CastReader(io.StringIO(text), path="t.cast", **kwargs)
    return reader, list(reader)


def times(events: list[Event]) -> list[float]:
    return [round(e.time, 6) for e in events]


def test_v1_delays_become_absolute_output_events() -> None:
    reader, events = read(json.dumps(V1, indent=2))
    assert reader.header.version == 1
    assert (reader.header.cols, reader.header.rows) == (80, 24)
    assert reader.header.title == "demo"
    assert reader.header.command == "/bin/zsh"
    assert reader.header.term_type == "xterm-256color"
    assert reader.header.extra == {"duration": 1.5}
    assert events == [Event(0.25, "o", "\u001b[1;31mHello\u001b[0m\n"), Event(1.25, "o", "bye")]


def test_v1_on_a_single_line_is_read_too() -> None:
    _, events = read(json.dumps(V1))
    assert [e.data for e in events] == ["\u001b[1;31mHello\u001b[0m\n", "bye"]


def test_v2_header_fields_and_every_event_code_are_kept() -> None:
    reader, events = read(V2)
    h = reader.header
    assert (h.version, h.cols, h.rows, h.timestamp, h.title) == (2, 100, 30, 1504467315, "Demo")
    assert h.idle_time_limit == 2.0
    assert h.env == {"TERM": "xterm-256color"}
    assert h.theme == {"fg": "#d0d0d0", "bg": "#212121"}
    assert h.extra == {"custom": {"a": 1}}
    assert [(e.code, e.data) for e in events] == [
        ("o", "hello "),
        ("i", "y"),
        ("m", "checkpoint"),
        ("r", "90x20"),
        ("z", "unknown code kept"),
    ]
    assert times(events) == [0.248848, 1.001376, 1.5, 2.0, 2.5]


def test_v3_intervals_become_absolute_times_and_comments_are_ignored() -> None:
    reader, events = read(V3)
    h = reader.header
    assert (h.version, h.cols, h.rows, h.term_type, h.command) == (
        3,
        80,
        24,
        "xterm-256color",
        "bash",
    )
    assert h.theme == {"fg": "#ffffff", "bg": "#000000", "palette": "#000000:#ff0000"}
    assert h.extra == {"tags": ["a"], "term": {"version": "VTE(7802)"}}
    assert times(events) == [0.248, 1.249, 4.749, 6.799, 7.686]
    assert [e.code for e in events] == ["o", "o", "m", "r", "x"]
    assert events[-1].data == "0"


def test_events_are_read_lazily_one_line_at_a_time() -> None:
    consumed = 0

    def lines() -> Iterator[str]:
        nonlocal consumed
        consumed += 1
        yield '{"version": 2, "width": 80, "height": 24}\n'
        for i in range(1_000_000):
            consumed += 1
            yield f'[{i}, "o", "x"]\n'

    reader = CastReader(lines())
    assert consumed == 1  # the header alone
    events = iter(reader)
    first_three = [next(events) for _ in range(3)]
    assert [e.time for e in first_three] == [0, 1, 2]
    assert consumed <= 5  # one line of look-ahead at most


def test_blank_lines_and_a_byte_order_mark_are_ignored() -> None:
    _, events = read('\ufeff{"version": 2, "width": 8, "height": 2}\n\n[1, "o", "a"]\n\n')
    assert events == [Event(1.0, "o", "a")]


def test_a_line_cut_off_by_a_killed_recorder_is_dropped_and_counted_even_in_strict_mode() -> None:
    reader, events = read('{"version": 2, "width": 8, "height": 2}\n[1, "o", "a"]\n[1.5, "o", "b')
    assert events == [Event(1.0, "o", "a")]
    assert reader.truncated
    assert reader.skipped == 1
    assert reader.first_damage is not None and reader.first_damage.line == 3


def test_a_complete_last_line_without_newline_is_kept() -> None:
    reader, events = read('{"version": 3, "term": {"cols": 8, "rows": 2}}\n[1, "o", "a"]')
    assert events == [Event(1.0, "o", "a")]
    assert not reader.truncated and reader.skipped == 0


@pytest.mark.parametrize(
    ("bad_line", "reason"),
    [
        ('[1, "o", "a"', "not valid JSON"),
        ('{"time": 1}', "[time, code, data]"),
        ('[1, "o"]', "[time, code, data]"),
        ('["1", "o", "a"]', "not a number"),
        ('[true, "o", "a"]', "not a number"),
        ('[NaN, "o", "a"]', "not a valid JSON number"),
        ('[1, 5, "a"]', "code"),
        ('[1, "", "a"]', "code"),
        ('[1, "o", 5]', "not a string"),
        ('[1, "r", "80by24"]', "bad resize"),
        ('[1, "r", "0x24"]', "bad resize"),
        ('[1, "r", "80x99999"]', "bad resize"),
        ('[1e400, "o", "a"]', "finite"),
    ],
)
def test_a_damaged_event_line_is_an_error_naming_its_line(bad_line: str, reason: str) -> None:
    text = f'{{"version": 2, "width": 8, "height": 2}}\n[1, "o", "a"]\n{bad_line}\n[3, "o", "c"]\n'
    reader = CastReader(io.StringIO(text), path="t.cast")
    with pytest.raises(CastFormatError) as info:
        list(reader)
    assert info.value.line == 3
    assert info.value.path == "t.cast"
    assert reason in str(info.value)
    assert str(info.value).startswith("t.cast, line 3: ")


def test_lenient_mode_skips_and_counts_damaged_lines() -> None:
    text = '{"version": 2, "width": 8, "height": 2}\n[1, "o", "a"]\n[oops\n[2, 3]\n[3, "o", "c"]\n'
    reader, events = read(text, lenient=True)
    assert events == [Event(1.0, "o", "a"), Event(3.0, "o", "c")]
    assert reader.skipped == 2
    assert not reader.truncated
    assert reader.first_damage is not None and reader.first_damage.line == 3


def test_v2_time_running_backwards_is_clamped_and_counted() -> None:
    text = '{"version": 2, "width": 8, "height": 2}\n[2, "o", "a"]\n[1, "o", "b"]\n[3, "o", "c"]\n'
    reader, events = read(text)
    assert times(events) == [2.0, 2.0, 3.0]
    assert [e.data for e in events] == ["a", "b", "c"]
    assert reader.clamped == 1


def test_a_negative_v3_interval_counts_as_zero() -> None:
    text = '{"version": 3, "term": {"cols": 8, "rows": 2}}\n[2, "o", "a"]\n[-1, "o", "b"]\n[1, "o", "c"]\n'
    reader, events = read(text)
    assert times(events) == [2.0, 2.0, 3.0]
    assert reader.clamped == 1


def test_comment_lines_are_not_allowed_in_v2() -> None:
    with pytest.raises(CastFormatError) as info:
        read('{"version": 2, "width": 8, "height": 2}\n# hi\n')
    assert info.value.line == 2


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("", None, "empty"),
        ("\n\n", None, "empty"),
        ('{"version": 5, "width": 8, "height": 2}\n', 1, "unsupported asciicast version 5"),
        ('{"width": 8, "height": 2}\n', 1, "unsupported asciicast version None"),
        ('{"version": 2, "width": 0, "height": 2}\n', 1, "absurd terminal size"),
        ('{"version": 2, "width": 80, "height": 100000}\n', 1, "absurd terminal size"),
        ('{"version": 2, "width": "80", "height": 24}\n', 1, "not a whole number"),
        ('{"version": 3, "width": 80, "height": 24}\n', 1, '"term"'),
        ('{"version": 3, "term": {"cols": 80}}\n', 1, "term.rows"),
        ("[1, 2, 3]\n", 1, "not an asciicast header"),
        ('{"version": 2, "width": 80,\n[1, "o", "a"]\n', 1, "header is not valid JSON"),
        ('{"version": 2, "width": 80, "heig', 1, "header is not valid JSON"),
        ('{\n  "version": 1,\n  "width": 80\n  "height": 24\n}\n', 4, "v1 recording is damaged"),
        ("hello world\n", 1, "is this an asciicast file?"),
        ('{"version": 2.0, "width": 8, "height": 2}\n', 1, "unsupported asciicast version 2.0"),
    ],
)
def test_a_damaged_header_is_always_an_error(text: str, line: int | None, reason: str) -> None:
    with pytest.raises(CastFormatError) as info:
        CastReader(io.StringIO(text), path="t.cast", lenient=True)
    assert info.value.line == line
    assert reason in str(info.value)


def test_v1_damaged_frames_are_skipped_in_lenient_mode() -> None:
    doc = dict(V1, stdout=[[0.5, "a"], ["x", "b"], [0.5, 7], [0.5, "c"]])
    reader, events = read(json.dumps(doc), lenient=True)
    assert events == [Event(0.5, "o", "a"), Event(1.0, "o", "c")]
    assert reader.skipped == 2


def test_optional_metadata_of_the_wrong_type_is_kept_aside_not_fatal() -> None:
    reader, _ = read('{"version": 2, "width": 8, "height": 2, "title": 5, "env": "x"}\n')
    assert reader.header.title is None
    assert reader.header.env == {}
    assert reader.header.extra == {"title": 5, "env": "x"}


def test_header_model_defaults_are_empty() -> None:
    assert Header(version=3, cols=80, rows=24).env == {}


def test_json_nested_absurdly_deep_is_damage_not_a_crash() -> None:
    header = '{"version": 2, "width": 8, "height": 2}\n'
    with pytest.raises(CastFormatError, match="line 2: JSON nested too deeply"):
        list(CastReader(io.StringIO(header + "[" * 100_000 + "\n")))
    v1 = '{\n"version": 1, "width": 8, "height": 2,\n"stdout": ' + "[" * 100_000 + "\n}\n"
    with pytest.raises(CastFormatError, match="nested too deeply — the v1 recording is damaged"):
        CastReader(io.StringIO(v1))


def test_a_v1_document_beyond_the_size_cap_is_refused_not_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from observer.asciicast import reader as reader_module

    monkeypatch.setattr(reader_module, "V1_MAX_CHARS", 1000)
    frames = ",\n".join(f'[0.1, "{"x" * 50}"]' for _ in range(100))
    text = '{\n"version": 1, "width": 8, "height": 2, "stdout": [\n' + frames + "\n]}\n"
    with pytest.raises(CastFormatError, match="larger than 64 MiB is not supported"):
        CastReader(io.StringIO(text))
