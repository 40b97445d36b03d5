"""What the screen reports and names: query replies, the title and its stack, the bell."""

from __future__ import annotations

from typing import Any

from pyte import modes as mo

from observer.terminal.draw import DrawMixin
from observer.terminal.notifications import Notifications
from observer.terminal.sanitize import sanitize_title


class ReportsMixin(DrawMixin):
    """Replies to DA/DSR (numbers only: nothing the program controls is echoed), the
    sanitized title and icon name with XTWINOPS's title stack, and the bell count."""

    replies: list[str]
    title_stack: list[tuple[str, str]]
    bells: int
    notifications: Notifications

    def set_title(self, param: str) -> None:
        """OSC 0/2: the window title, sanitized."""
        self.title = sanitize_title(param)

    def set_icon_name(self, param: str) -> None:
        """OSC 0/1: the icon name, sanitized."""
        self.icon_name = sanitize_title(param)

    def push_title(self) -> None:
        """XTWINOPS ``CSI 22 ; Ps t``: save the title and icon name on a stack (10 deep)."""
        self.title_stack = [*self.title_stack[-9:], (self.title, self.icon_name)]

    def pop_title(self) -> None:
        """XTWINOPS ``CSI 23 ; Ps t``: restore the title and icon name last saved."""
        if self.title_stack:
            self.title, self.icon_name = self.title_stack.pop()

    def bell(self, *args: Any) -> None:
        """BEL: counted, and an event for :attr:`notifications`."""
        self.bells += 1
        self.notifications.bell()

    def report_device_attributes(self, mode: int = 0, **kwargs: bool) -> None:
        """DA1 (``CSI c``): a VT100 with advanced video, as tmux answers."""
        if mode == 0:
            self.replies.append("\x1b[?1;2c")

    def report_secondary_attributes(self, mode: int = 0) -> None:
        """DA2 (``CSI > c``): a VT220, firmware 10."""
        if mode == 0:
            self.replies.append("\x1b[>1;10;0c")

    def report_device_status(self, mode: int = 0, private: bool = False) -> None:
        """DSR 5 (status: OK) and 6 (cursor position; ``CSI ? 6 n`` gives DECXCPR)."""
        if mode == 5 and not private:
            self.replies.append("\x1b[0n")
        elif mode == 6:
            y = self.cursor.y + 1
            if mo.DECOM in self.mode and self.margins is not None:
                y -= self.margins.top
            mark = "?" if private else ""
            self.replies.append(f"\x1b[{mark}{y};{self._x() + 1}R")
