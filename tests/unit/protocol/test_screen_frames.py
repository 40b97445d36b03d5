"""Screen-sync frames: their wire form, their checks, the native session, the client's decoder."""

from __future__ import annotations

import pytest

from observer.protocol import frames as f
from observer.protocol.adapters.native import NativeAdapter
from observer.protocol.events import ScreenReceived, SnapshotReceived
from observer.protocol.screen_frames import Screen, SetView
from observer.protocol.screen_view import ScreenView, cut_row

FRAME = Screen(
    offset=4096,
    cols=80,
    rows=24,
    full=False,
    lines=((0, "\x1b[0;1mbold\x1b[0m plain"), (23, "last")),
    cursor=(5, 23),
    cursor_visible=False,
    title="pytest — tests",
)


def test_screen_and_view_frames_round_trip() -> None:
    assert f.decode_server_frame(f.encode(FRAME)) == FRAME
    for view in (SetView("screen", 10), SetView("stream")):
        assert f.decode_client_frame(f.encode(view)) == view
    assert f.encode(SetView("stream")) == '{"type":"view","view":"stream"}'
    assert f.decode_client_frame('{"type":"view","view":"screen"}') == SetView("screen", 4)


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ('{"type":"view","view":"pixels"}', "unknown value"),
        ('{"type":"view","view":"screen","fps":0}', "out of range"),
        ('{"type":"view","view":"screen","fps":31}', "out of range"),
    ],
)
def test_bad_view_frames_are_malformed(message: str, reason: str) -> None:
    result = f.decode_client_frame(message)
    assert isinstance(result, f.Malformed) and reason in result.reason


def screen_message(**changes: object) -> str:
    fields = {
        "type": "screen", "offset": 1, "cols": 10, "rows": 3, "full": True,
        "lines": [[0, "a"]], "cursor": [0, 0], "cursor_visible": True, "title": "",
    }  # fmt: skip
    fields.update(changes)
    import json

    return json.dumps(fields)


@pytest.mark.parametrize(
    "changes",
    [
        {"lines": [[3, "outside"]]},
        {"lines": [[0, "a"], [0, "twice"]]},
        {"lines": [[True, "a"]]},
        {"lines": [["0", "a"]]},
        {"lines": [[0, 5]]},
        {"lines": "rows"},
        {"cursor": [1]},
        {"cursor": [-1, 0]},
        {"full": "yes"},
        {"rows": 0},
        {"cols": 1001},
    ],
)
def test_a_screen_frame_that_does_not_fit_its_screen_is_malformed(
    changes: dict[str, object],
) -> None:
    assert isinstance(f.decode_server_frame(screen_message(**changes)), f.Malformed)


def test_a_cursor_past_the_edge_is_kept_on_the_screen() -> None:
    frame = f.decode_server_frame(screen_message(cursor=[50, 9]))
    assert isinstance(frame, Screen) and frame.cursor == (9, 2)


def test_the_native_session_turns_screen_frames_into_events_at_their_offset() -> None:
    session = NativeAdapter()
    session.receive(f.encode(f.Hello("a", "watch", 80, 24, 10, "none", 1, "t")))  # type: ignore[arg-type]
    assert session.encode_view("screen", 2) == ['{"type":"view","view":"screen","fps":2}']
    [event] = session.receive(f.encode(FRAME))
    assert isinstance(event, ScreenReceived)
    assert (event.offset, event.lines, event.cursor, event.title) == (
        4096,
        FRAME.lines,
        (5, 23),
        "pytest — tests",
    )
    assert session.offset == 4096
    # Back to the stream: the snapshot at the view's offset is no gap.
    assert session.encode_view("stream") == ['{"type":"view","view":"stream"}']
    [snapshot] = session.receive(f.encode(f.Snapshot(4096, 80, 24, "\x1b[Hx")))
    assert isinstance(snapshot, SnapshotReceived) and not snapshot.gap


def event(frame: Screen) -> ScreenReceived:
    session = NativeAdapter()
    session.receive(f.encode(f.Hello("a", "watch", frame.cols, frame.rows, 0, "none", 1, "")))  # type: ignore[arg-type]
    [received] = session.receive(f.encode(frame))
    assert isinstance(received, ScreenReceived)
    return received


def test_the_view_applies_changed_rows_and_a_full_frame_clears_the_rest() -> None:
    view = ScreenView()
    full = Screen(0, 10, 3, True, ((0, "top"), (2, "bottom")), (3, 0), True, "t")
    assert view.apply(event(full)) == {0, 1, 2}
    assert view.text() == ["top", "", "bottom"]
    change = Screen(9, 10, 3, False, ((1, "\x1b[0;31mmiddle"),), (6, 1), False, "t2")
    assert view.apply(event(change)) == {1}
    assert view.text() == ["top", "middle", "bottom"]
    assert (view.cursor, view.cursor_visible, view.title, view.offset) == ((6, 1), False, "t2", 9)
    assert view.apply(event(Screen(12, 10, 3, True, ((0, "only"),), (0, 0), True, ""))) == {0, 1, 2}
    assert view.text() == ["only", "", ""]


def test_the_repaint_clears_and_paints_only_the_given_rows_then_places_the_cursor() -> None:
    view = ScreenView()
    view.apply(event(Screen(0, 10, 3, True, ((1, "x"),), (4, 2), False, "")))
    assert view.repaint([1]) == b"\x1b[2;1H\x1b[0m\x1b[2Kx\x1b[0m\x1b[3;5H\x1b[?25l"


def test_a_row_is_cut_after_its_first_columns_unless_characters_and_columns_differ() -> None:
    row = "\x1b[0;31mhello \x1b[0;32mworld\x1b[0m  x"
    assert cut_row(row, 8) == "\x1b[0;31mhello \x1b[0;32mwo"
    assert cut_row(row, 6) == "\x1b[0;31mhello "
    assert cut_row(row, 14) == row  # all of it fits
    assert cut_row("日本語 wide", 2) == "日本語 wide"  # a wide character takes two columns
    assert cut_row("e\u0301 combined", 2) == "e\u0301 combined"  # a combining one, none
    linked = "\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\ after"
    assert cut_row(linked, 2) == linked  # a link cut open would run on
    moved = "\x1b[3Cab cd more text here"  # a cursor move from a peer: its columns are unknown
    assert cut_row(moved, 4) == moved


def test_a_cut_row_is_painted_whole_when_read_whole() -> None:
    view = ScreenView()
    view.apply(Screen(0, 10, 3, True, ((0, "abcdefgh"), (1, "xy")), (0, 0), True, "", ()))
    assert view.repaint({0, 1}, columns=4).startswith(b"\x1b[1;1H\x1b[0m\x1b[2Kabcd\x1b[2;1H")
    assert view.cut == {0: 4}  # row 1 fits
    assert view.due(set(), {0, 1}, 4) == set()  # read as wide as it was painted
    assert view.due(set(), {0, 1}, 6) == {0}  # wider
    assert view.due(set(), {1, 2}) == set()  # read whole, where it was not cut
    assert view.due(set(), None) == {0}  # everywhere
    view.repaint({0})
    assert view.cut == {}
