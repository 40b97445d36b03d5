"""The client session core in the screen view: tiles ask for the screen's state where the peer
can send it (never when recorded), frames become the tile's model through the one inbox, the
agent's notifications still reach attention, and the switch back to the stream has no gap.

Writer and reader together where it matters: the server's :class:`ScreenFeed` over a real
:class:`TerminalModel` makes the frames the session is fed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from observer.app.recogniser_files import built_in_recognisers
from observer.client.tile_view import TILE_FPS
from observer.client.watched import WatchedSession
from observer.protocol import frames as f
from observer.protocol.adapter import Message
from observer.protocol.adapters import ProtocolName
from observer.protocol.adapters.native import NativeAdapter
from observer.protocol.screen_frames import Screen
from observer.recording.history import SessionHistory
from observer.replay.playback import Moved
from observer.replay.rewind import Rewind
from observer.server.notification_log import NotificationLog
from observer.server.screen_sync import RowVersions, ScreenFeed
from observer.terminal import TerminalModel
from tests.unit.client.drive import connect, drain, recorded, repainted, snapshot

COLS, ROWS = 40, 5


def views(messages: list[Message]) -> list[dict[str, object]]:
    """The ``view`` frames among ``messages``."""
    decoded = [json.loads(m) for m in messages if isinstance(m, str)]
    return [m for m in decoded if m.get("type") == "view"]


class Agent:
    """The server's side: its model of the agent's screen and one tile's screen feed."""

    def __init__(self, rows: int = ROWS) -> None:
        self.model = TerminalModel(COLS, rows, scrollback=0)
        self.rows = RowVersions(rows)
        self.notices = NotificationLog()
        self.now = 0.0
        self.feed = ScreenFeed(TILE_FPS, clock=lambda: self.now)
        self.offset = 0

    def prints(self, data: bytes) -> None:
        self.rows.bump(self.model.feed(data))
        self.notices.add(self.model.take_notifications())
        self.offset += len(data)

    def frame(self, *, force: bool = False) -> str:
        self.now += 1.0
        message = self.feed.frame(self.model, self.rows, self.offset, self.notices, force=force)
        assert message is not None
        return message


def tile(protocol: ProtocolName = "observer", **options: object) -> WatchedSession:
    """A connected session that chose the screen view, as a dashboard tile does."""
    session = WatchedSession(scrollback=0, recognisers=built_in_recognisers(), **options)  # type: ignore[arg-type]
    session.choose_view("screen")
    connect(session, protocol)
    return session


def test_a_tile_asks_a_native_peer_for_the_screen_at_its_frame_rate() -> None:
    session = tile()
    assert views(drain(session)) == [{"type": "view", "view": "screen", "fps": TILE_FPS}]
    assert session.view == "screen"
    session.choose_view("screen")  # asked already: nothing more to send
    assert views(drain(session)) == []


def test_peers_without_the_screen_view_keep_the_stream() -> None:
    output: dict[ProtocolName, Message] = {
        "ttyd": b"0still parsed\r\n",
        "jupyter": json.dumps(["stdout", "still parsed\r\n"]),
        "raw": b"still parsed\r\n",
    }
    for protocol, message in output.items():
        session = tile(protocol)
        assert views(drain(session)) == []
        assert session.view == "stream"
        session.received(message, 1.0)
        drain(session)
        assert session.model.text()[0] == "still parsed"


def test_a_recorded_or_headless_session_never_leaves_the_stream() -> None:
    policy, _ = recorded()
    for session in (tile(recording=policy), tile(show=False)):
        assert not session.screen_allowed()
        assert views(drain(session)) == []
        assert session.view == "stream"


def test_frames_become_the_tiles_model_through_the_inbox_with_only_changed_rows_repainted() -> None:
    session, agent = tile(), Agent()
    agent.prints(b"\x1b[1;32mPASSED\x1b[0m one\r\n\x1b[38;2;9;99;199mtrue\x1b[0m colour\r\n$ ")
    session.received(agent.frame(), 1.0)
    assert session.pending  # fed by the feeder, as output is
    drain(session)
    for y in range(ROWS):
        assert session.model.line(y) == agent.model.line(y)
    session.take_events()
    # Row 1 written again the same (as an Ink UI redraws), row 2 changed.
    agent.prints(b"\x1b[2;1H\x1b[38;2;9;99;199mtrue\x1b[0m colour\x1b[3;3Hls")
    message = agent.frame()
    assert [row for row, _ in json.loads(message)["lines"]] == [2]  # the server sent only it
    session.received(message, 2.0)
    drain(session)
    assert repainted(session, ROWS) == [{2}]
    assert session.model.text() == agent.model.text()
    model = agent.model
    assert (session.model.cursor_x, session.model.cursor_y) == (model.cursor_x, model.cursor_y)


@pytest.mark.parametrize("drawn", [False, True], ids=["painted", "drawn"])
def test_a_notification_or_a_bell_in_a_frame_is_the_tiles_attention(drawn: bool) -> None:
    session, agent = tile(), Agent()
    session.show_rows(crop_of(3), drawn=drawn)  # a tile that draws its rows: its model gets them
    agent.prints(b"working\r\n")
    session.received(agent.frame(), 1.0)
    drain(session)
    # The screen does not change: only the frame's notification says the agent asks.
    agent.prints(b"\x1b]9;Claude needs your permission to use Bash\x07")
    message = agent.frame()
    assert '"notifications"' in message and '"lines":[]' in message
    session.received(message, 2.0)
    drain(session)
    attention = session.status(2.0).attention
    assert attention is not None and attention.reason == "needs permission"
    assert attention.text == "Claude needs your permission to use Bash"
    quiet = tile()
    quiet.show_rows(crop_of(3), drawn=drawn)
    quiet.received(agent.frame(force=True), 1.0)
    drain(quiet)
    agent.prints(b"\x07")
    quiet.received(agent.frame(), 3.0)
    drain(quiet)
    assert quiet.status(10.0).agent == "waiting"


def test_opening_the_tile_continues_the_stream_from_the_last_frame_with_no_gap() -> None:
    session, agent = tile(), Agent()
    agent.prints(b"tick 1\r\ntick 2\r\n")
    session.received(agent.frame(), 1.0)
    drain(session)
    session.choose_view("stream")
    assert views(drain(session)) == [{"type": "view", "view": "stream"}]
    agent.prints(b"tick 3\r\n")
    last = agent.frame(force=True)  # the server's last frame, then a snapshot at its offset
    session.received(last, 2.0)
    session.received(snapshot(agent.offset, agent.model.to_ansi()), 2.0)
    session.received(b"tick 4\r\n", 2.0)
    drain(session)
    status = session.status(2.0)
    assert status.gaps == 0 and session.snapshots == 2
    assert session.model.text()[:4] == ["tick 1", "tick 2", "tick 3", "tick 4"]
    session.choose_view("screen")  # back on the dashboard
    assert views(drain(session)) == [{"type": "view", "view": "screen", "fps": TILE_FPS}]


def test_a_full_frame_replaces_the_screen_the_stream_left_and_its_modes() -> None:
    session = WatchedSession(scrollback=0)
    connect(session)
    # The stream left a scroll region and origin mode set: a repaint must not land in it.
    session.received(b"\x1b[2;3r\x1b[?6hstale", 1.0)
    drain(session)
    session.choose_view("screen")
    agent = Agent()
    agent.prints(b"top\r\n\r\n\r\n\r\nbottom")
    session.received(agent.frame(), 2.0)
    drain(session)
    assert session.model.text() == agent.model.text()


def test_a_reconnected_tile_asks_for_the_screen_again() -> None:
    session = tile()
    drain(session)
    session.connection_closed("dropped", code=None, now=1.0)
    connect(session, now=2.0)
    assert views(drain(session)) == [{"type": "view", "view": "screen", "fps": TILE_FPS}]


def test_the_screen_view_never_asks_to_skip_ahead() -> None:
    session, agent = tile(), Agent()
    drain(session)
    for _ in range(100):  # measured parsing a byte a second: everything would take ages
        session.parsed(1 << 20, 1 << 20)
    agent.prints(b"x" * 100)
    session.received(agent.frame(), 1.0)
    session.check_backlog(1.0)
    assert session.resyncs == 0


def test_screen_frames_round_trip_their_notifications() -> None:
    from observer.terminal import BellRung, NotificationSent, ProgressReported

    sent = Screen(
        7,
        COLS,
        ROWS,
        False,
        (),
        (0, 0),
        True,
        "",
        (NotificationSent("a;b", "c", "osc777"), BellRung(), ProgressReported(1, 40)),
    )
    decoded = f.decode_server_frame(f.encode(sent))
    assert decoded == sent


def test_looking_at_a_waiting_agent_keeps_what_it_asked_and_since_when() -> None:
    # Opening a tile and going back brings a last frame, a snapshot and a full frame, all at
    # the offset the agent stopped at: none of them is the agent printing, so what it asked
    # (its own words, and how long it has waited) stays, and `n`'s order with it.
    session, agent = tile(), Agent()
    agent.prints(b"Do you want to proceed? [n] \x1b]9;Claude needs your permission to use Bash\x07")
    session.received(agent.frame(), 2.0)
    drain(session)
    asked = session.status(3.0).attention
    assert asked is not None and asked.reason == "needs permission"
    session.choose_view("stream")  # opened
    session.received(agent.frame(force=True), 10.0)
    session.received(snapshot(agent.offset, agent.model.to_ansi(), COLS, ROWS), 10.0)
    drain(session)
    assert session.status(11.0).attention == asked
    session.choose_view("screen")  # back on the dashboard
    session.received(agent.frame(force=True), 20.0)
    drain(session)
    assert session.status(30.0).attention == asked
    assert session.last_output == 2.0
    agent.prints(b"y\r\nrunning\r\n")  # answered elsewhere: the agent goes on
    session.received(agent.frame(), 40.0)
    drain(session)
    assert session.status(40.0).attention is None


# -- a tile costs the rows it shows ---------------------------------------------------------------


def crop_of(height: int) -> Callable[[int, int, int, int], range]:
    """A tile's crop ``height`` rows tall, ending at the cursor's row where it can (as a tile
    follows the cursor)."""

    def shown(cols: int, rows: int, x: int, y: int) -> range:
        first = max(0, min(y - height + 1, rows - height))
        return range(first, first + min(height, rows))

    return shown


def cropped_tile(height: int) -> tuple[WatchedSession, Agent]:
    """A tile ``height`` rows tall over a blank 20-row screen, the cursor on its last row."""
    session, agent = tile(), Agent(rows=20)
    session.show_rows(crop_of(height))
    agent.prints(b"\r\n" * 19)
    session.received(agent.frame(force=True), 1.0)
    drain(session)
    return session, agent


def test_a_tile_paints_the_rows_its_crop_shows_and_the_others_once_they_are_read() -> None:
    session, agent = tile(), Agent(rows=20)
    session.show_rows(crop_of(3))
    agent.prints(b"".join(b"line %d\r\n" % n for n in range(19)) + b"$ ")
    session.received(agent.frame(force=True), 1.0)  # the full frame that starts the view
    drain(session)
    assert session.model.text() == agent.model.text()
    session.take_events()
    agent.prints(b"\x1b[2;1Hearly\x1b[18;1Hlate\x1b[20;3H")  # rows 1 and 17 change
    session.received(agent.frame(), 2.0)
    drain(session)
    assert repainted(session, 20) == [{17}]  # row 1 is not shown: it waits
    assert session.model.text()[1] == "line 1" and session.model.text()[17] == "late 17"
    # The crop grows (the terminal was resized): what it shows now is painted at once.
    session.show_rows(crop_of(20))
    assert session.model.text() == agent.model.text()


def test_rows_a_crop_left_unpainted_are_what_the_prompt_recognisers_read() -> None:
    session, agent = cropped_tile(2)
    agent.prints(b"\x1b[12;1HDo you want to proceed?\x1b[20;1H")  # above the crop, within reach
    session.received(agent.frame(), 2.0)
    drain(session)
    assert session.model.text()[11] == ""  # not shown, not painted: nobody read it yet
    attention = session.status(10.0).attention  # quiet long enough: the recognisers read it
    assert attention is not None and attention.reason == "needs permission"
    assert session.model.text()[11] == "Do you want to proceed?"


def test_opening_a_tile_shows_every_row_before_the_snapshot_comes() -> None:
    session, agent = cropped_tile(2)
    agent.prints(b"\x1b[HTOP\x1b[20;1H\x07")  # a row the tile does not show, and a bell
    session.received(agent.frame(), 2.0)
    drain(session)
    bells = session.model.bells
    session.choose_view("stream")
    assert session.model.text() == agent.model.text()
    assert session.model.bells == bells  # rows painted late bring no notification again


def test_rows_painted_late_land_after_the_frames_still_waiting_for_the_model() -> None:
    session, agent = cropped_tile(3)
    agent.prints(b"\x1b[18;1Hfirst\x1b[20;1H")  # shown: painted when the feeder gets to it
    session.received(agent.frame(), 2.0)
    agent.prints(b"\x1b[18;1Hsecond\x1b[11;1H")  # the cursor moved up: row 17 is not shown
    session.received(agent.frame(), 3.0)
    session.show_rows(crop_of(20))  # before the feeder parsed either frame
    drain(session)
    assert session.model.text()[17] == "second"


def narrow_tile(columns: int) -> tuple[WatchedSession, Agent]:
    """A tile showing the bottom 3 rows of a 20-row screen, ``columns`` columns of them."""
    session, agent = tile(), Agent(rows=20)
    session.show_rows(crop_of(3), columns)
    agent.prints(b"\r\n" * 19)
    session.received(agent.frame(force=True), 1.0)
    drain(session)
    return session, agent


def test_a_narrow_tile_paints_its_rows_up_to_its_width_and_whole_once_read_whole() -> None:
    session, agent = narrow_tile(6)
    agent.prints(b"\x1b[18;1H\x1b[31mone two\x1b[32m three\x1b[19;1Hfour five six\x1b[20;1H$ ")
    session.received(agent.frame(), 2.0)
    drain(session)
    text = session.model.text()
    assert text[17:19] == ["one tw", "four f"]  # what the tile shows of them
    assert session.model.line(17)[5].fg == "red"  # with their colours
    # The tile grows: the rows are painted up to its new width.
    session.show_rows(crop_of(3), 10)
    assert session.model.text()[17:19] == ["one two th", "four five"]
    session.choose_view("stream")  # the full view reads every row whole
    assert session.model.text() == agent.model.text()


def test_a_tile_opened_while_its_connection_is_down_shows_its_rows_whole() -> None:
    session, agent = narrow_tile(6)
    agent.prints(b"\x1b[18;1Hone two three\x1b[19;1Hfour five six\x1b[20;1H$ ")
    session.received(agent.frame(), 2.0)
    drain(session)
    assert session.model.text()[17:19] == ["one tw", "four f"]
    session.connection_closed("the connection dropped", code=None, now=3.0)
    session.choose_view("stream")  # opened full size: no connection to ask the stream on
    drain(session)
    assert session.model.text() == agent.model.text()


def test_the_prompt_recognisers_read_whole_the_rows_a_narrow_tile_cut() -> None:
    session, agent = narrow_tile(4)
    agent.prints(b"\x1b[19;1HDo you want to proceed?\x1b[20;1H")  # shown, past the tile's width
    session.received(agent.frame(), 2.0)
    drain(session)
    assert session.model.text()[18] == "Do y"
    attention = session.status(10.0).attention  # quiet long enough: the recognisers read it
    assert attention is not None and attention.reason == "needs permission"
    assert session.model.text()[18] == "Do you want to proceed?"


def test_a_tile_that_draws_its_rows_from_the_frames_leaves_its_model_until_it_is_read() -> None:
    session, agent = tile(), Agent(rows=20)
    session.show_rows(crop_of(3), drawn=True)
    agent.prints(b"".join(b"line %d\r\n" % n for n in range(19)) + b"$ ")
    session.received(agent.frame(force=True), 1.0)  # the full frame that starts the view
    drain(session)
    assert session.model.text() == agent.model.text()
    session.take_events()
    agent.prints(b"\x1b[2;1Hearly\x1b[18;1Hlate\x1b[20;5H")  # rows 1 and 17 change
    session.received(agent.frame(), 2.0)
    drain(session)
    assert repainted(session, 20) == [{1, 17}]  # the view draws what it shows of them
    assert session.screen_line(17) == "late 17" == agent.model.text()[17]
    assert session.screen_cursor() == (4, 19, True)
    assert session.model.text()[17] == "line 17"  # not parsed: the view drew it from the frame
    assert (session.model.cursor_x, session.model.cursor_y) == (2, 19)  # nor the cursor
    session.choose_view("stream")  # opened: the full view reads the model, every row of it
    assert session.screen_line(17) is None and session.screen_cursor() is None
    assert session.model.text() == agent.model.text()
    assert (session.model.cursor_x, session.model.cursor_y) == (4, 19)


def test_a_drawn_tiles_history_keeps_what_it_showed_in_its_events_and_keyframes(
    tmp_path: Path,
) -> None:
    session, agent = tile(), Agent(rows=20)
    session.show_rows(crop_of(3), drawn=True)
    agent.prints(b"\r\n" * 19)
    session.received(agent.frame(force=True), 1.0)
    drain(session)
    history = SessionHistory(tmp_path, session.model, now=100.0, spacing=1.0)
    session.tap_feed(history)
    agent.prints(b"\x1b[19;1Hshown once\x1b[20;1H")  # a row the tile shows, written once
    session.received(agent.frame(), 2.0)
    session.feed(1 << 20, 100.0)
    for n in range(40):  # then only a row it does not show, for 20 s
        agent.prints(b"\x1b[3;1H\x1b[2Kcount %d\x1b[20;1H" % n)
        session.received(agent.frame(), 3.0 + n)
        session.feed(1 << 20, 100.5 + n / 2)
    history.flush(session.model, 121.0)
    assert len(history.keyframes.keyframes) > 3
    live = history.time_of(121.0)
    rewind = Rewind(history.timeline, history.keyframes)
    rewind.seek(20.0, live)
    assert rewind.player.model.text()[18] == "shown once"
    for moment in (15.25, 8.25, 2.75):  # going back: each from the keyframe before it
        assert rewind.seek(moment, live) == Moved(set(range(20)), True)
        assert rewind.player.model.text()[18] == "shown once", moment


def test_the_recognisers_read_a_drawn_tiles_rows_around_the_cursor_the_frames_place() -> None:
    session, agent = cropped_tile(2)  # its model's cursor on the last row
    session.show_rows(crop_of(2), drawn=True)
    agent.prints(b"\x1b[2J\x1b[2;1HDo you want to proceed?\x1b[4;1H")  # far above it now
    session.received(agent.frame(), 2.0)
    drain(session)
    assert session.model.text()[1] == ""  # drawn from the frame, not painted
    attention = session.status(10.0).attention  # quiet long enough: the recognisers read it
    assert attention is not None and attention.reason == "needs permission"


def test_a_drawn_tile_that_reconnects_shows_the_last_frame_until_the_next_comes() -> None:
    session, agent = cropped_tile(2)
    session.show_rows(crop_of(2), drawn=True)
    agent.prints(b"\x1b[19;1Hlast words\x1b[20;3H")
    session.received(agent.frame(), 2.0)
    drain(session)
    assert session.screen_line(18) == "last words" and session.model.text()[18] == ""
    session.connection_closed("dropped", code=None, now=3.0)
    assert session.screen_line(18) == "last words"  # the last frame, while the link is down
    session.connection_opened(NativeAdapter(), 4.0)  # asks for the screen again; no frame yet
    drain(session)
    assert session.screen_line(18) is None  # the model draws it, until the first frame
    assert session.model.text()[18] == "last words"
    assert (session.model.cursor_x, session.model.cursor_y) == (2, 19)


def test_opening_a_drawn_tile_paints_its_rows_before_the_frames_still_waiting() -> None:
    session, agent = cropped_tile(2)
    session.show_rows(crop_of(2), drawn=True)
    agent.prints(b"\x1b[5;1Hnewest\x1b[20;1H")
    session.received(agent.frame(), 2.0)  # not parsed yet: it waits in the inbox
    assert session.pending
    session.choose_view("stream")  # those frames carry no row: the rows are painted at once
    assert session.model.text()[4] == "newest"
    drain(session)
    assert session.model.text() == agent.model.text()
