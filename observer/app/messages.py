"""Messages the session workers post to the app (messages up; the app sets attributes down)."""

from __future__ import annotations

from textual.message import Message

from observer.app.links import Link


class SessionChanged(Message):
    """A session's status changed, or it has something to tell the user."""

    def __init__(self, link: Link) -> None:
        super().__init__()
        self.link = link
