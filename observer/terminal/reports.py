"""What the screen reports and names: query replies, the title and its stack, the bell."""

from __future__ import annotations

from typing import Any

from pyte import modes as mo

from observer.terminal.draw import DrawMixin
from observer.terminal.sanitize import sanitize_title

#: Private modes that change what the keyboard or mouse sends; a repaint restores them.
INPUT_MODES = frozenset({1, 9, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1015, 1016, 2004})
SYNCHRONIZED = 2026
#: Private modes tracked in ``private_modes``.
KNOWN_PRIVATE = INPUT_MODES | {SYNCHRONIZED}
#: Private modes kept in pyte's mode set (shifted, as pyte stores them).
PYTE_FLAGS = {6: mo.DECOM, 7: mo.DECAWM, 25: mo.DECTCEM}


class ReportsMixin(DrawMixin):
    """Replies to DA/DSR (numbers only: nothing the program controls is echoed), the
    sanitized title and icon name with XTWINOPS's title stack, and the bell count."""

    replies: list[str]
    alternate: bool
    private_modes: set[int]
    title_stack: list[tuple[str, str]]
    bells: int

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
        """BEL: counted."""
        self.bells += 1

    def report_device_attributes(self, mode: int = 0, **kwargs: bool) -> None:
        """DA1 (``CSI c``): a VT100 with advanced video, as tmux answers."""
        if mode == 0:
            self.replies.append("\x1b[?1;2c")

    def report_secondary_attributes(self, mode: int = 0) -> None:
        """DA2 (``CSI > c``): a VT220, firmware 10."""
        if mode == 0:
            self.replies.append("\x1b[>1;10;0c")

    def report_mode(self, mode: int, private: bool) -> None:
        """DECRQM (``CSI ? Ps $ p``): answer ``CSI ? Ps ; Pm $ y``, Pm 1 set, 2 reset,
        0 not recognized (VT510; xterm ctlseqs)."""
        if private:
            if mode in PYTE_FLAGS:
                state = 1 if PYTE_FLAGS[mode] in self.mode else 2
            elif mode in (47, 1047, 1049):
                state = 1 if self.alternate else 2
            elif mode in KNOWN_PRIVATE:
                state = 1 if mode in self.private_modes else 2
            else:
                state = 0
        else:
            state = (1 if mode in self.mode else 2) if mode in (mo.IRM, mo.LNM) else 0
        self.replies.append(f"\x1b[{'?' if private else ''}{mode};{state}$y")

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
