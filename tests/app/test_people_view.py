"""The watch screen names who has the keyboard and, on ``p``, lists who is here."""

from __future__ import annotations

from textual.command import CommandList, CommandPalette
from textual.widgets import Static

from observer.app.app import ObserverApp
from observer.app.screens.people import PeopleScreen
from observer.app.widgets.status_bar import StatusBar
from observer.protocol.events import ControlChanged, PeopleListed
from observer.protocol.people_frames import Person
from tests.app.conftest import played, scripted
from tests.app.test_watch import in_control, status_text
from tests.waiting import until

PEOPLE = (
    Person(1, "alice", "control", 1.0),
    Person(2, "bob", "control", 2.0),
    Person(3, "carol", "watch", 3.0),
    Person(4, "carol", "watch", 4.0),
)


async def test_the_status_names_the_holder_and_p_lists_everybody() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=(100, 16)) as pilot:
        await played(source)
        source.push(ControlChanged("other"))
        source.push(PeopleListed(2, 1, PEOPLE))
        await until(lambda: "alice has the keyboard" in status_text(app), "the holder's name")
        assert source.session.status(app.clock()).people == ("alice", "bob", "carol (2)")
        await pilot.press("p")
        await until(lambda: isinstance(app.screen, PeopleScreen), "the list of who is here")
        lines = [str(s.render()) for s in app.screen.query(Static).results()]
        assert "alice: has the keyboard · may type" in lines
        assert "bob (you): watching · may type" in lines
        assert lines.count("carol: watching · watch only") == 2
        await pilot.press("escape")
        await until(lambda: not isinstance(app.screen, PeopleScreen), "the list closed")


def offered(app: ObserverApp) -> str:
    """The commands the palette lists now, as text."""
    commands = app.screen.query_one(CommandList)
    prompts = (commands.get_option_at_index(i).prompt for i in range(commands.option_count))
    return "\n".join(str(getattr(prompt, "plain", prompt)) for prompt in prompts)


async def test_in_control_a_click_on_the_status_opens_the_palette_that_hands_over() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=(100, 16)) as pilot:
        await played(source)
        source.push(ControlChanged("you"))
        me_and_bob = (Person(1, "alice", "control", 1.0), Person(2, "bob", "control", 2.0))
        source.push(PeopleListed(1, 1, me_and_bob))
        await until(lambda: in_control(app), "alice in control")
        await pilot.click(StatusBar)
        await until(lambda: isinstance(app.screen, CommandPalette), "the command palette")
        await pilot.press(*"Hand the keyboard to bob")
        await until(lambda: "Hand the keyboard to bob" in offered(app), "the hand-over command")
        await pilot.press("enter")
        await until(lambda: '{"type":"hand","to":2}' in source.requests, "the hand frame sent")
