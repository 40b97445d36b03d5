"""Messages the session workers post to the app (messages up; the app sets attributes down)."""

from __future__ import annotations

from textual.message import Message

from observer.app.session import LiveSession, Notice


class SessionNoticed(Message):
    """Something about a session the user should be told."""

    def __init__(self, session: LiveSession, notice: Notice) -> None:
        super().__init__()
        self.session = session
        self.notice = notice


class ControlUpdated(Message):
    """Who holds a session's keyboard may have changed."""

    def __init__(self, session: LiveSession) -> None:
        super().__init__()
        self.session = session
