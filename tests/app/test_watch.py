"""The watch screen with a scripted session: output, modes, input gating, paste, status.

These use :class:`ScriptedSource` (no network) to check the app's own side: what it shows and what
it hands to its session source. The same flows against a real server and PTY are in
``tests/app/test_live.py``.
"""

from __future__ import annotations

from textual import events

from observer.app.app import ObserverApp
from observer.app.links import ConnectionChanged
from observer.app.screens.confirm import ConfirmScreen
from observer.app.screens.watch import WatchScreen
from observer.app.widgets.status_bar import StatusBar
from observer.app.widgets.terminal_view import TerminalView
from observer.protocol.events import ControlChanged, OutputReceived
from tests.app.conftest import played, scripted
from tests.waiting import until

SIZE = (80, 16)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def screen_text(app: ObserverApp) -> str:
    view = app.screen.query_one(TerminalView)
    return "\n".join(view.render_line(y).text for y in range(view.size.height))


def in_control(app: ObserverApp) -> bool:
    return isinstance(app.screen, WatchScreen) and app.screen.control


def status_text(app: ObserverApp) -> str:
    """The whole status line, before a narrow window cuts it."""
    return app.screen.query_one(StatusBar).describe(app.clock()).plain


async def test_watching_shows_the_agent_output_and_the_watch_mode() -> None:
    source = scripted([b"\x1b[1;32mhello\x1b[0m from the agent\r\n$ "])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE):
        await until(lambda: "hello from the agent" in screen_text(app), "the agent's output")
        assert status_text(app).startswith(" WATCH ")
        assert "ws://127.0.0.1:9/ · agent-1" in status_text(app)


async def test_agent_text_that_looks_like_markup_is_shown_literally() -> None:
    source = scripted([b"[@click=app.quit]boom[/] [b]not bold[/b]"])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE):
        await until(lambda: "[@click=app.quit]boom[/]" in screen_text(app), "the agent's output")
        assert "[@click=app.quit]boom[/] [b]not bold[/b]" in screen_text(app)
        assert app.is_running


async def test_ctrl_t_then_y_takes_control_and_keys_reach_the_session() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE) as pilot:
        await played(source)
        await pilot.press("ctrl+t")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await until(lambda: in_control(app), "control")
        assert status_text(app).startswith(" CONTROL ")
        assert app.screen.has_class("-control")
        await pilot.press("l", "s", "enter", "up", "ctrl+c", "ctrl+q", "ctrl+p")
        await until(lambda: len(source.sent) >= 7, "the keys at the session")
        assert source.sent == [b"l", b"s", b"\r", b"\x1b[A", b"\x03", b"\x11", b"\x10"]
        assert app.is_running


async def test_ctrl_bracket_hands_control_back_and_keys_stop_reaching_the_session() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE) as pilot:
        await played(source)
        await pilot.press("ctrl+t", "enter")
        await until(lambda: in_control(app), "control")
        await pilot.press("a")
        await pilot.press("ctrl+right_square_bracket")
        await until(lambda: status_text(app).startswith(" WATCH "), "watching again")
        await pilot.press("b", "enter")
        await pilot.pause(0.1)  # time for keys that must not be sent
        assert source.sent == [b"a"]
        assert source.requests == ["take", "release"]


async def test_watch_mode_sends_nothing_whatever_is_typed_or_pasted() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE) as pilot:
        await played(source)
        await pilot.press(
            "a", "enter", "ctrl+c", "up", "f5", "escape", "tab", "ctrl+right_square_bracket"
        )
        view = app.screen.query_one(TerminalView)
        view.post_message(events.Paste("rm -rf /\n"))
        view.post_message(events.Paste("one line"))
        await pilot.press("ctrl+t", "n")
        await pilot.pause(0.2)  # time for input that must not be sent
        assert source.sent == []
        assert source.requests == []


async def test_a_multi_line_paste_asks_first_and_is_sent_bracketed_when_asked() -> None:
    source = scripted([b"\x1b[?2004h$ "])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE) as pilot:
        await played(source)
        await pilot.press("ctrl+t", "y")
        await until(lambda: in_control(app), "control")
        view = app.screen.query_one(TerminalView)
        view.post_message(events.Paste("echo one\necho two\n"))
        await until(lambda: isinstance(app.screen, ConfirmScreen), "the paste's question")
        await pilot.press("n")
        await pilot.pause(0.1)  # time for a paste that must not be sent
        assert source.sent == []
        view.post_message(events.Paste("echo one\necho two\n"))
        await until(lambda: isinstance(app.screen, ConfirmScreen), "the paste's question")
        await pilot.press("y")
        await until(lambda: source.sent, "the paste")
        assert len(source.sent) == 1
        assert source.sent[0].startswith(b"\x1b[200~echo one")
        assert source.sent[0].endswith(b"\x1b[201~")


async def test_a_single_line_paste_is_sent_without_asking() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE) as pilot:
        await played(source)
        await pilot.press("ctrl+t", "y")
        await until(lambda: in_control(app), "control")
        app.screen.query_one(TerminalView).post_message(events.Paste("hello"))
        await until(lambda: source.sent, "the paste")
        assert source.sent == [b"hello"]


async def test_the_status_bar_counts_down_to_the_next_reconnect() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE):
        await played(source)
        assert "connected" in status_text(app)
        source.push(ConnectionChanged("reconnecting", reason="reset"))
        # The first retry is at once.
        await until(lambda: "reconnecting in 0 s" in status_text(app), "the countdown")
        source.push(ConnectionChanged("connected"))
        await until(lambda: "reconnecting" not in status_text(app), "connected again")


async def test_when_another_client_holds_control_ctrl_t_explains_and_asks_nothing() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE) as pilot:
        await played(source)
        source.push(ControlChanged("other"))
        await until(lambda: "held by another client" in status_text(app), "the holder")
        await pilot.press("ctrl+t")
        await until(lambda: app._notifications, "the explanation")
        assert isinstance(app.screen, WatchScreen)
        assert source.requests == []
        assert any("Another client holds control" in n.message for n in app._notifications)


async def test_interrupt_sends_one_ctrl_c_and_returns_to_watching() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE) as pilot:
        await played(source)
        await pilot.press("ctrl+x")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await until(lambda: len(source.requests) >= 2, "the take and the release")
        assert source.sent == [b"\x03"]
        assert source.requests == ["take", "release"]
        assert not app.screen.control


async def test_control_returns_to_watch_after_the_idle_time() -> None:
    clock = FakeClock()
    source = scripted([b"$ "], idle_release=60)
    source.clock = clock
    app = ObserverApp([source], clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await played(source)
        await pilot.press("ctrl+t", "y")
        await until(lambda: in_control(app), "control")
        screen = app.screen
        assert isinstance(screen, WatchScreen)
        clock.now += 50
        await pilot.press("a")
        clock.now += 50
        app.check_agents()
        await pilot.pause()
        assert screen.control  # typing 50 s ago restarted the count
        clock.now += 11
        app.check_agents()
        await until(lambda: not screen.control, "the release after the idle time")
        await until(lambda: len(source.requests) >= 2, "the release at the session")
        assert source.requests == ["take", "release"]
        await until(
            lambda: any("after 60 s without typing" in n.message for n in app._notifications),
            "the notice that control was handed back",
        )


async def test_scrollback_can_be_browsed_while_output_continues() -> None:
    source = scripted([b"".join(b"line %d\r\n" % n for n in range(40))], rows=10)
    app = ObserverApp([source])
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: "line 39" in screen_text(app), "the output")
        await pilot.press("pageup")
        before = await until(
            lambda: "jump to live" in screen_text(app) and screen_text(app), "the scrollback"
        )
        source.push(OutputReceived(b"".join(b"more %d\r\n" % n for n in range(5)), 0))
        await until(lambda: "5 new lines" in screen_text(app), "the count of new lines")
        after = screen_text(app)
        assert after.splitlines()[:3] == before.splitlines()[:3]
        await pilot.press("end")
        await until(lambda: "more 4" in screen_text(app), "the live end")
        assert "jump to live" not in screen_text(app)


async def test_new_lines_are_counted_and_followed_once_the_scrollback_is_full() -> None:
    source = scripted([b"".join(b"line %d\r\n" % n for n in range(40))], rows=10, scrollback=20)
    app = ObserverApp([source])
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: "line 39" in screen_text(app), "the output")
        assert len(app.links[0].session.model.history) == 20  # full: it will not grow any more
        await pilot.press("pageup")
        before = await until(
            lambda: "jump to live" in screen_text(app) and screen_text(app), "the scrollback"
        )
        for batch in range(2):
            more = b"".join(b"more %d.%d\r\n" % (batch, n) for n in range(3))
            source.push(OutputReceived(more, 0))
            await until(lambda b=batch: f"{3 * (b + 1)} new lines" in screen_text(app), "a count")
        after = screen_text(app)
        assert "6 new lines" in after
        assert after.splitlines()[:3] == before.splitlines()[:3]


async def test_a_wider_remote_screen_is_cropped_around_the_cursor() -> None:
    source = scripted([b"\x1b[1;150Hedge"], cols=160, rows=10)
    app = ObserverApp([source])
    async with app.run_test(size=SIZE):
        await until(lambda: "edge" in screen_text(app), "the text at the cursor")


async def test_a_smaller_remote_screen_is_centred() -> None:
    source = scripted([b"x"], cols=20, rows=4)
    app = ObserverApp([source])
    async with app.run_test(size=SIZE):
        await until(lambda: "x" in screen_text(app), "the output")
        lines = screen_text(app).splitlines()
        row = next(line for line in lines if "x" in line)
        assert lines.index(row) > 0 and row.index("x") > 10


async def test_a_title_that_looks_like_markup_is_shown_literally_in_the_status_bar() -> None:
    source = scripted([b"\x1b]0;[@click=app.quit]t[/]\x07$ "])
    app = ObserverApp([source])
    async with app.run_test(size=(140, 16)):
        await until(lambda: "[@click=app.quit]t[/]" in status_text(app), "the title")
        assert "\x1b" not in status_text(app)
        assert app.is_running
