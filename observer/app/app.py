"""``ObserverApp``: runs one worker per session and shows the watch screen or the dashboard."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.driver import Driver
from textual.markup import escape
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import BUILTIN_THEMES

from observer.app import textual_patches
from observer.app.attention_alerts import AttentionAlerts
from observer.app.back_at_desk import BackAtDesk
from observer.app.feeder import Slices, feed
from observer.app.links import Link, dispatch
from observer.app.messages import SessionChanged
from observer.app.notify_command import NotifyRunner, NotifyTarget
from observer.app.recogniser_files import load_recognisers
from observer.app.rewind import SessionHistories
from observer.app.screens.dashboard import DashboardScreen
from observer.app.screens.watch import WatchScreen
from observer.app.signals import end_on_signals
from observer.app.theming import palette_of, to_textual_theme
from observer.app.widgets.terminal_view import TerminalView
from observer.client.events import KeyboardAsked, SessionEvent
from observer.client.status import SessionStatus
from observer.errors import ObserverError, ThemeError
from observer.render.rich_cells import Palette
from observer.render.svg import mend_svg
from observer.runtime.collector import QUIET_AFTER, TICK_EVERY, CollectorPacing
from observer.themes import DEFAULT_DARK, ThemeSpec, load_themes

CHECK_EVERY = 1.0
"""Seconds between two looks at every session's state (:meth:`ObserverApp.check_agents`): idle
control handed back, an agent that started waiting told (a toast, the notify command)."""


class ObserverApp(App[int]):
    """Watch one session (watch screen) or several (dashboard)."""

    CSS_PATH = "app.tcss"
    TITLE = "observer"
    ENABLE_COMMAND_PALETTE = True
    _ALWAYS_ALLOWED: ClassVar[frozenset[str]] = frozenset()

    def __init__(
        self,
        links: Sequence[Link],
        *,
        theme: str | None = None,
        config_dir: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        screenshot_dir: Path | None = None,
        desktop_notifications: bool = False,
        environ: Mapping[str, str] = os.environ,
        notify: Mapping[int, NotifyTarget] | None = None,
    ) -> None:
        super().__init__()
        self.clock = clock
        self.screenshot_dir = screenshot_dir or Path.cwd()
        """Monotonic seconds for agent states (injected: screenshots and tests freeze it)."""
        self.links = list(links)
        self.theme_specs, self.theme_problems = load_themes(config_dir)
        recognisers, self.recogniser_problems = load_recognisers(config_dir)
        for link in self.links:
            link.session.use_recognisers(recognisers)
        for spec in self.theme_specs.values():
            self.register_theme(to_textual_theme(spec))
        name = theme or DEFAULT_DARK
        if name not in self.theme_specs:
            known = ", ".join(sorted(self.theme_specs))
            raise ThemeError(f"no theme named {name!r}", f"choose one of: {known}")
        self.theme = name
        for builtin in BUILTIN_THEMES:
            if builtin not in self.theme_specs:
                self.unregister_theme(builtin)
        self.alerts = AttentionAlerts(
            self._alert,
            self._write_to_host,
            desktop=desktop_notifications,
            environ=environ,
            spawn=lambda job: self.run_worker(job, group="desktop", exit_on_error=False),
        )
        """Tells the user when an agent starts needing them (and the desktop, if opted in)."""
        self.notify_runner = NotifyRunner(
            notify or {},
            spawn=lambda job: self.run_worker(job, group="notify", exit_on_error=False),
            complain=lambda text: self.notify(text, severity="error", markup=False),
            environ=environ,
        )
        """Runs the notify command when an agent starts waiting (:mod:`observer.client.notify`)."""
        self.histories = SessionHistories(clock)
        self._signals_off: Callable[[], None] = lambda: None
        """Each session's history since it connected, for live rewind (:mod:`observer.app.rewind`)."""
        self.back_at_desk = BackAtDesk(self.histories, self._while_away)
        """Says what happened while the user looked elsewhere (:mod:`observer.app.back_at_desk`)."""
        self.slices = Slices()
        """The parsing slice all sessions' feeders share (:mod:`observer.app.feeder`)."""
        self.collector = CollectorPacing(clock)
        """Keeps full garbage collections out of busy stretches (:mod:`observer.runtime.collector`)."""
        self.fatal: ObserverError | None = None
        """An error that ended the app (the only session could not connect at all)."""

    @property
    def palette(self) -> Palette:
        """The terminal palette of the current theme."""
        spec: ThemeSpec | None = self.theme_specs.get(self.theme)
        return palette_of(spec)

    def push_screen(self, *args: Any, **kwargs: Any) -> Any:
        """Textual's; the sessions' parsing waits a moment (:meth:`Slices.hold
        <observer.app.feeder.Slices.hold>`): with 40 tiles, the dialog, the opened tile or the
        command palette was composed and drawn with 40 feeders between its steps. Only over the
        dashboard: the first screen, or one session's, waits for nothing."""
        if len(self.links) > 1 and len(self.screen_stack) > 1:
            self.slices.hold()
        return super().push_screen(*args, **kwargs)

    def pop_screen(self) -> AwaitComplete:
        """Textual's; the screen beneath is drawn again first (see :meth:`push_screen`)."""
        if len(self.links) > 1:
            self.slices.hold()
        return super().pop_screen()

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for the platform; where the command that started the app installed
        :mod:`observer.app.textual_patches`, one that reads a lone ESC as soon as its delay ends."""
        return textual_patches.driver_class(super().get_driver_class())

    def on_mount(self) -> None:
        for problem in self.theme_problems:
            self.notify(
                str(problem), title="Theme not loaded", severity="error", markup=False, timeout=10
            )
        for broken in self.recogniser_problems:
            self.notify(
                str(broken), title="Prompt rules not loaded", severity="error", markup=False
            )
        self._exit_on_signals()
        self.histories.start(self.links)
        for link in self.links:
            self.run_worker(self._drive(link), group="sessions", exit_on_error=False)
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.screen_change_signal.subscribe(self, self._notices_on_top)
        self.set_interval(CHECK_EVERY, self.check_agents)
        self.set_interval(TICK_EVERY, self.pace_collector)
        if len(self.links) == 1:
            self.push_screen(WatchScreen(self.links[0], self.palette))
        else:
            self.add_class("-fleet")  # the command palette covers the tiles (app.tcss)
            self.push_screen(DashboardScreen(self.links, self.palette))
            for link in self.links:  # a tile opened later says what happened since
                self.back_at_desk.left(link, self.clock())

    def _exit_on_signals(self) -> None:
        """SIGTERM and SIGHUP end the app as ctrl+q does (:mod:`observer.app.signals`)."""
        self._signals_off = end_on_signals(
            asyncio.get_running_loop(), partial(self.exit, None), self.histories.close
        )

    def _notices_on_top(self, top: Screen[object]) -> None:
        """Only the screen in front shows notifications: one under a dialog hides its own, which
        the dialog's screen shows instead (``app.tcss``). A class on each screen's rack, not on the
        screen (Textual's ``SUSPENDED_SCREEN_CLASS``): a screen's class restyles every widget on
        it, and for a dashboard of 40 tiles that was most of the time ``enter``, ``escape`` and
        the command palette took to answer."""
        for screen in self.screen_stack:
            for rack in screen.query_children("ToastRack"):
                rack.set_class(screen is not top, "-aside")

    async def _drive(self, link: Link) -> None:
        """Run a session's link, and parse what it receives (see :mod:`observer.app.feeder`)."""
        ended = asyncio.Event()
        drain = partial(self._drain, link)
        feeder = asyncio.create_task(
            feed(link, clock=self.clock, ended=ended, slices=self.slices, drain=drain)
        )
        try:
            await link.run()
        except ObserverError as error:
            if len(self.links) == 1 and link.session.connections == 0:  # never connected
                self.fatal = error
                self.exit(1)
                return
            self.notify(self._prefixed(link, str(error)), severity="error", markup=False)
        finally:
            ended.set()
            link.received.set()
            await feeder

    def _prefixed(self, link: Link, text: str) -> str:
        return f"{link.label}: {text}" if len(self.links) > 1 else text

    def _drain(self, link: Link, events: list[SessionEvent]) -> None:
        """What ``link``'s session queued: its views repaint, notices show, bars refresh."""
        dispatch(
            link.session,
            events,
            status_changed=lambda: self.post_message(SessionChanged(link)),
            notify=lambda notice: self.notify(
                self._prefixed(link, notice.text), severity=notice.severity, markup=False
            ),
            asked=lambda event: self._keyboard_asked(link, event),
        )

    def _keyboard_asked(self, link: Link, event: KeyboardAsked) -> None:
        """Somebody asks for the keyboard this app holds: ask the user in the session's own
        view; elsewhere the notice already said so, and the view asks when it is back."""
        screen = self.screen
        if isinstance(screen, WatchScreen) and screen.link is link:
            screen.ask_to_hand_over(event.connection_id, event.label)

    def on_session_changed(self, message: SessionChanged) -> None:
        link = message.link
        for screen in self.screen_stack:
            if isinstance(screen, WatchScreen | DashboardScreen):
                screen.session_changed(link)
        now = self.clock()
        self.notify_runner.check([self._check_attention(link, now)], now)

    def check_agents(self) -> None:
        """Hand back idle control, and tell the user when an agent starts needing them."""
        now = self.clock()
        seen = []
        for link in self.links:
            link.session.tick(now)
            seen.append(self._check_attention(link, now))
        self.notify_runner.check(seen, now)

    def _check_attention(self, link: Link, now: float) -> tuple[Link, SessionStatus]:
        """Tell the user, and the session's history, what is new in its status; return it."""
        status = link.session.status(now)
        name = link.label.partition(" · ")[0] if len(self.links) > 1 else "the agent"
        self.alerts.seen(id(link), name, status.attention)
        self.histories.seen(link, status, now)
        return link, status

    def on_app_blur(self) -> None:
        self.back_at_desk.blurred(self.clock())

    def on_app_focus(self) -> None:
        screen = self.screen
        shown = [screen.link] if isinstance(screen, WatchScreen) else self.links
        self.back_at_desk.focused(shown, self.clock())

    def _while_away(self, text: str) -> None:
        self.notify(text, title="While you were away", timeout=20, markup=False)

    def _write_to_host(self, text: str) -> None:
        """Write observer's own bytes to the host terminal (as Textual's ``App.bell`` does)."""
        driver = self._driver
        if driver is not None and not self.is_headless:
            driver.write(text)
            driver.flush()

    def pace_collector(self) -> None:
        """Bounded collections while output flows; a full one once all sessions are quiet."""
        now = self.clock()
        self.collector.tick(
            any(
                (last := link.session.last_output) is not None and now - last < QUIET_AFTER
                for link in self.links
            )
        )

    def _alert(self, text: str) -> None:
        """An agent started needing the user: on the dashboard its tile says so (the badge and
        the border; a toast there too, for each of 40 agents, re-laid out the whole dashboard);
        in front of anything else, a toast."""
        if not isinstance(self.screen, DashboardScreen):
            self.notify(text, severity="warning", markup=False)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a notification on one line: ``title: message`` (see ``app.tcss``).

        A notification lies on one row of the screen's bottom edge, so it hides no tile; its
        title and any line breaks are folded into that row.
        """
        if title:
            message = f"{escape(title) if markup else title}: {message}"
        line = " ".join(message.split())
        super().notify(line, severity=severity, timeout=timeout, markup=markup)

    def _theme_changed(self, _theme: Any) -> None:
        palette = self.palette
        for screen in self.screen_stack:
            if isinstance(screen, WatchScreen | DashboardScreen):
                screen.palette = palette
            for view in screen.query(TerminalView):
                view.set_palette(palette)

    def _in_control(self) -> bool:
        screen = self.screen
        return isinstance(screen, WatchScreen) and screen.control

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """In control every key goes to the agent: the app's own key bindings step aside."""
        return not (self._in_control() and action not in self._ALWAYS_ALLOWED)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """observer's own commands only (not Textual's: its screenshot beside ours, Maximize),
        and of the watch screen's only those that can run now."""
        yield SystemCommand("Theme", "Change the colour theme", self.action_change_theme)
        if screen.query("HelpPanel"):
            yield SystemCommand("Keys", "Hide the keys of this view", self.action_hide_help_panel)
        else:
            yield SystemCommand(
                "Keys", "Show the keys of this view and what they do", self.action_show_help_panel
            )
        yield SystemCommand(
            "Save screenshot (SVG)", "Save the current view as an SVG file", self.action_save_svg
        )
        if isinstance(screen, WatchScreen):
            yield from self._control_commands(screen)
        yield SystemCommand("Quit", "Quit observer (ctrl+q)", self.action_quit)

    def _control_commands(self, screen: WatchScreen) -> Iterable[SystemCommand]:
        """Take control while watching (where the token may), release it while in control."""
        status = screen.session.status(self.clock())
        if screen.control:
            yield SystemCommand(
                "Release control", "Watch again (ctrl+])", screen.action_release_control
            )
        elif status.may_take and not status.requesting:
            yield SystemCommand(
                "Take control", "Type into the agent (ctrl+t)", screen.action_take_control
            )
        if screen.control or status.may_take:
            yield SystemCommand(
                "Interrupt the agent", "Send one Ctrl-C (ctrl+x)", screen.action_interrupt
            )
            yield from screen.people_commands()

    def action_save_svg(self) -> None:
        """Save the current view as SVG (in ``screenshot_dir``) and say where."""
        try:
            saved = Path(self.save_screenshot(path=str(self.screenshot_dir)))
            saved.write_text(mend_svg(saved.read_text("utf-8")), "utf-8")
        except OSError as error:
            self.notify(f"Could not save the screenshot: {error}", severity="error", markup=False)
            return
        self.notify(f"Saved {saved}", title="Screenshot", markup=False)

    async def on_unmount(self) -> None:
        self._signals_off()
        self.collector.stop()
        for link in self.links:
            with contextlib.suppress(ObserverError):
                await link.close()
        self.histories.close()
