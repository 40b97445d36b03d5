"""The watch screen names who has the keyboard and, on ``w``, lists who is here."""

from __future__ import annotations

from textual.widgets import Static

from observer.app.app import ObserverApp
from observer.app.screens.people import PeopleScreen
from observer.protocol.events import ControlChanged, PeopleListed
from observer.protocol.people_frames import Person
from tests.app.conftest import played, scripted
from tests.app.test_watch import status_text
from tests.waiting import until

PEOPLE = (
    Person(1, "alice", "control", 1.0),
    Person(2, "bob", "control", 2.0),
    Person(3, "carol", "watch", 3.0),
    Person(4, "carol", "watch", 4.0),
)


async def test_the_status_names_the_holder_and_w_lists_everybody() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=(100, 16)) as pilot:
        await played(source)
        source.push(ControlChanged("other"))
        source.push(PeopleListed(2, 1, PEOPLE))
        await until(lambda: "alice has the keyboard" in status_text(app), "the holder's name")
        assert source.session.status(app.clock()).people == ("alice", "bob", "carol (2)")
        await pilot.press("w")
        await until(lambda: isinstance(app.screen, PeopleScreen), "the list of who is here")
        lines = [str(s.render()) for s in app.screen.query(Static).results()]
        assert "alice: has the keyboard · may type" in lines
        assert "bob (you): watching · may type" in lines
        assert lines.count("carol: watching · watch only") == 2
        await pilot.press("escape")
        await until(lambda: not isinstance(app.screen, PeopleScreen), "the list closed")
