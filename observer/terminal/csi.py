"""Control sequences (CSI) by final byte, private prefix and intermediates.

Sequences not listed here are ignored rather than misread: pyte treats ``CSI ? 4 m``
as SGR 4, ``CSI > 4 ; 1 m`` as SGR and prints the ``u`` of ``CSI < u``.
References: ECMA-48 chapter 8.3, xterm ctlseqs ("Functions using CSI").
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial

from observer.terminal.screen import VTScreen

Args = tuple[int, ...]
Action = Callable[[], object]
#: Builds the action for a decoded sequence once; the stream caches it by the raw text.
Handler = Callable[[VTScreen, Args], Action]

#: Numeric parameters are capped here (as pyte and the VT220 do); larger values mean "all".
MAX_VALUE = 9999
#: Parameters beyond this many are dropped (xterm keeps 30).
MAX_PARAMS = 32


def _a(args: Args, i: int = 0) -> int:
    return args[i] if len(args) > i else 0


def _noop() -> None:
    pass


def _scroll_down(s: VTScreen, a: Args) -> Action:
    # ``CSI Ps ; Ps ; Ps ; Ps ; Ps T`` with five parameters is xterm's mouse highlight
    # tracking, not SD.
    return partial(s.scroll_down, _a(a) or 1) if len(a) <= 1 else _noop


def _save(s: VTScreen, a: Args) -> Action:
    # SCOSC only without parameters; with them it is DECSLRM (left/right margins).
    return _noop if any(a) else s.save_cursor


def _restore(s: VTScreen, a: Args) -> Action:
    return _noop if any(a) else s.restore_cursor


def _window(s: VTScreen, a: Args) -> Action:
    # XTWINOPS: only the title stack (22 push, 23 pop; Ps 0 both, 1 icon, 2 title, kept
    # together here). Size reports and window moves are not answered or done.
    return {22: s.push_title, 23: s.pop_title}.get(_a(a), _noop)


PLAIN: dict[str, Handler] = {
    "@": lambda s, a: partial(s.insert_characters, _a(a)),
    "A": lambda s, a: partial(s.cursor_up, _a(a)),
    "B": lambda s, a: partial(s.cursor_down, _a(a)),
    "C": lambda s, a: partial(s.cursor_forward, _a(a)),
    "D": lambda s, a: partial(s.cursor_back, _a(a)),
    "E": lambda s, a: partial(s.cursor_down1, _a(a)),
    "F": lambda s, a: partial(s.cursor_up1, _a(a)),
    "G": lambda s, a: partial(s.cursor_to_column, _a(a)),
    "H": lambda s, a: partial(s.cursor_position, _a(a), _a(a, 1)),
    "I": lambda s, a: partial(s.tab, _a(a) or 1),
    "J": lambda s, a: partial(s.erase_in_display, _a(a)),
    "K": lambda s, a: partial(s.erase_in_line, _a(a)),
    "L": lambda s, a: partial(s.insert_lines, _a(a)),
    "M": lambda s, a: partial(s.delete_lines, _a(a)),
    "P": lambda s, a: partial(s.delete_characters, _a(a)),
    "S": lambda s, a: partial(s.scroll_up, _a(a) or 1),
    "T": _scroll_down,
    "X": lambda s, a: partial(s.erase_characters, _a(a)),
    "Z": lambda s, a: partial(s.back_tab, _a(a) or 1),
    "`": lambda s, a: partial(s.cursor_to_column, _a(a)),
    "a": lambda s, a: partial(s.cursor_forward, _a(a)),
    "b": lambda s, a: partial(s.repeat_last, _a(a) or 1),
    "c": lambda s, a: partial(s.report_device_attributes, _a(a)),
    "d": lambda s, a: partial(s.cursor_to_line, _a(a)),
    "e": lambda s, a: partial(s.cursor_down, _a(a)),
    "f": lambda s, a: partial(s.cursor_position, _a(a), _a(a, 1)),
    "g": lambda s, a: partial(s.clear_tab_stop, _a(a)),
    "h": lambda s, a: partial(s.set_mode, *a),
    "l": lambda s, a: partial(s.reset_mode, *a),
    "n": lambda s, a: partial(s.report_device_status, _a(a)),
    "r": lambda s, a: partial(s.set_margins, _a(a), _a(a, 1)),
    "s": _save,
    "t": _window,
    "u": _restore,
}

#: ``CSI ? ...``: DEC private modes, selective erase, DECXCPR.
PRIVATE: dict[str, Handler] = {
    # One mode (the usual case, e.g. 2026 around every frame) skips set_mode's loop.
    "h": lambda s, a: (
        partial(s.private_mode, a[0], True)
        if len(a) == 1
        else partial(s.set_mode, *a, private=True)
    ),
    "l": lambda s, a: (
        partial(s.private_mode, a[0], False)
        if len(a) == 1
        else partial(s.reset_mode, *a, private=True)
    ),
    "J": lambda s, a: partial(s.erase_in_display, _a(a)),
    "K": lambda s, a: partial(s.erase_in_line, _a(a)),
    "n": lambda s, a: partial(s.report_device_status, _a(a), private=True),
}

#: ``CSI > ...``: only DA2 is answered; modifyOtherKeys and the like are ignored.
SECONDARY: dict[str, Handler] = {
    "c": lambda s, a: partial(s.report_secondary_attributes, _a(a)),
}

TABLES: dict[str, dict[str, Handler]] = {"": PLAIN, "?": PRIVATE, ">": SECONDARY}


def number(digits: str) -> int:
    """A decimal parameter, capped at :data:`MAX_VALUE`. Leading zeros are read as the
    number's (vttest sends ``CSI 00000000004;000000001 H``); ``""`` is 0."""
    digits = digits.lstrip("0")
    return min(int(digits[:6]), MAX_VALUE) if digits else 0


@lru_cache(maxsize=4096)
def parse_params(text: str) -> tuple[tuple[int | None, ...], ...] | None:
    """Split CSI parameters into ``;`` groups of ``:`` sub-parameters.

    Returns ``None`` when the text holds a private-marker character past the start, which
    makes the sequence malformed (ECMA-48 5.4.2).
    """
    if not text:
        return ()
    groups = []
    for field in text.split(";", MAX_PARAMS)[:MAX_PARAMS]:
        values: list[int | None] = []
        for sub in field.split(":", MAX_PARAMS)[:MAX_PARAMS]:
            if not sub:
                values.append(None)
            elif sub.isdigit():  # ASCII only: the tokenizer admits nothing else
                values.append(number(sub))
            else:
                return None
        groups.append(tuple(values))
    return tuple(groups)
