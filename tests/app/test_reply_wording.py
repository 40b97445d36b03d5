"""Replying from the dashboard names the session by its profile, says what sending does and sends
on the dialog's own enter (one confirmation for one line), and a closed session says it will
not come back (not "once the connection is back")."""

from __future__ import annotations

from textual.widgets import Static

from observer.app.app import ObserverApp
from observer.app.links import ScriptedLink
from observer.app.screens.confirm import ConfirmScreen
from observer.app.screens.reply import ReplyScreen
from tests.app.conftest import scripted, settled
from tests.waiting import until


def named(*names: str) -> list[ScriptedLink]:
    links = [scripted(identifier=name) for name in names]
    for link in links:
        link.label = f"{link.session.identifier} · ws://127.0.0.1:18765"
    return links


async def test_the_reply_dialog_names_the_profile_says_what_enter_does_and_is_the_one_step(
) -> None:  # fmt: skip
    links = named("alpha", "beta")
    app = ObserverApp(links)
    async with app.run_test(size=(120, 36)) as pilot:
        await until(lambda: all(link.drained.is_set() for link in links), "the sessions")
        await pilot.press("right", "r")
        await until(lambda: isinstance(app.screen, ReplyScreen), "the reply dialog")
        question = str(app.screen.query_one("#question", Static).render())
        assert question == "Reply to beta", question
        shown = " ".join(str(s.render()) for s in app.screen.query(Static))
        assert "observer takes control, types it, and hands control back" in shown, shown
        assert "18765" not in shown
        await pilot.press("o", "k", "enter")
        await until(lambda: links[1].sent == [b"ok\r"], "the reply at the agent")
        assert not isinstance(app.screen, ConfirmScreen | ReplyScreen)
        assert links[0].sent == []


async def test_replying_to_a_closed_session_says_it_does_not_come_back() -> None:
    links = named("alpha", "beta")
    app = ObserverApp(links)
    async with app.run_test(size=(120, 36)) as pilot:
        await settled(app)  # closed after the hello
        links[1].session.connection_closed(
            "the agent's server went away", code=1000, now=app.clock()
        )
        await pilot.press("right", "r")
        await until(lambda: app._notifications, "the refusal")
        assert not isinstance(app.screen, ReplyScreen)
        messages = [n.message for n in app._notifications]
        assert messages[-1] == (
            "Cannot reply: The connection is closed for good — open the session again to type "
            "into it."
        ), messages
        assert not any("once the connection is back" in m for m in messages)
