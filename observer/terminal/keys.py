"""Keys and pastes to the bytes an xterm sends to the program: pure, no I/O.

Key names are Textual's (``event.key``): ``"a"``, ``"A"``, ``"enter"``, ``"ctrl+c"``, ``"shift+tab"``,
``"ctrl+shift+up"``, ``"alt+x"``, ``"f5"``, punctuation by name (``"slash"``, ``"left_square_bracket"``)
or as the character itself. Modifiers may come in any order.

The encodings follow xterm's defaults as described in "XTerm Control Sequences" (ctlseqs), sections
"PC-Style Function Keys", "VT220-Style Function Keys" and "Alt and Meta Keys":

- cursor keys send ``CSI A``..``CSI D``, or ``SS3 A``..``SS3 D`` in application cursor mode (DECCKM,
  ``CSI ? 1 h``); Home/End follow the same mode (``CSI H``/``SS3 H``, ``CSI F``/``SS3 F``);
- a modified special key always uses the CSI form with the xterm modifier parameter
  ``1 + shift(1) + alt(2) + ctrl(4) + meta(8)``: ``ctrl+up`` is ``CSI 1 ; 5 A``, ``shift+f5`` is
  ``CSI 15 ; 2 ~``;
- Alt (and Meta) with an ordinary key prefixes ESC (xterm's ``metaSendsEscape``);
- Backspace sends DEL (xterm's default ``backarrowKey``), Ctrl+Backspace sends BS;
- keypad keys (names ``kp_0``..``kp_9``, ``kp_enter``, ...; Textual reports ``kp_begin``) send
  ``SS3`` codes in application keypad mode (DECKPAM, ``ESC =``), their characters otherwise.
"""

from __future__ import annotations

import re
import unicodedata

ESC = "\x1b"
CSI = ESC + "["
SS3 = ESC + "O"

# xterm ctlseqs, "PC-Style Function Keys": the modifier parameter is 1 + the sum of these bits.
_MODIFIER_BITS = {"shift": 1, "alt": 2, "ctrl": 4, "control": 4, "meta": 8}

# Cursor keys (and Home/End, which xterm sends the same way): final byte of CSI/SS3 form.
_CURSOR_FINALS = {"up": "A", "down": "B", "right": "C", "left": "D", "home": "H", "end": "F"}
_CURSOR_FINALS["kp_begin"] = "E"

# "VT220-Style Function Keys" as xterm's PC-style keyboard sends them: CSI <n> ~.
_TILDE_CODES = {
    "insert": 2,
    "delete": 3,
    "pageup": 5,
    "pagedown": 6,
    "f5": 15,
    "f6": 17,
    "f7": 18,
    "f8": 19,
    "f9": 20,
    "f10": 21,
    "f11": 23,
    "f12": 24,
}

# F1..F4 send SS3 P..S unmodified and CSI 1 ; m P..S modified.
_PF_FINALS = {"f1": "P", "f2": "Q", "f3": "R", "f4": "S"}

# xterm's F13..F24 are Shift+F1..F12 (the xterm terminfo entry: kf13=\E[1;2P ... kf24=\E[24;2~).
_SHIFTED_FUNCTION_KEYS = {f"f{n + 12}": f"f{n}" for n in range(1, 13)}

# Keys that send one fixed string whatever the mode.
_PLAIN_KEYS = {
    "enter": "\r",
    "return": "\r",
    "newline": "\n",
    "tab": "\t",
    "backspace": "\x7f",
    "escape": ESC,
    "space": " ",
}

# Ctrl with a non-letter: the VT220/xterm control characters (ctlseqs "Single-character functions"
# and the historical VT100 keyboard: Ctrl+Space/@/2 is NUL, Ctrl+[ ESC, ... Ctrl+? DEL).
_CTRL_SYMBOLS = {
    "@": "\x00",
    " ": "\x00",
    "2": "\x00",
    "[": "\x1b",
    "3": "\x1b",
    "\\": "\x1c",
    "4": "\x1c",
    "]": "\x1d",
    "5": "\x1d",
    "^": "\x1e",
    "6": "\x1e",
    "_": "\x1f",
    "7": "\x1f",
    "/": "\x1f",
    "?": "\x7f",
    "8": "\x7f",
}

# Application keypad (DECKPAM): ctlseqs "VT220-Style Function Keys", numeric keypad table.
_KEYPAD = {
    "kp_0": ("0", "p"),
    "kp_1": ("1", "q"),
    "kp_2": ("2", "r"),
    "kp_3": ("3", "s"),
    "kp_4": ("4", "t"),
    "kp_5": ("5", "u"),
    "kp_6": ("6", "v"),
    "kp_7": ("7", "w"),
    "kp_8": ("8", "x"),
    "kp_9": ("9", "y"),
    "kp_decimal": (".", "n"),
    "kp_divide": ("/", "o"),
    "kp_multiply": ("*", "j"),
    "kp_subtract": ("-", "m"),
    "kp_add": ("+", "k"),
    "kp_separator": (",", "l"),
    "kp_equal": ("=", "X"),
    "kp_enter": ("\r", "M"),
}

# Textual names punctuation after its Unicode name, with a few friendlier replacements.
_NAME_REPLACEMENTS = {
    "slash": "/",
    "backslash": "\\",
    "at": "@",
    "minus": "-",
    "plus": "+",
    "underscore": "_",
    "left_square_brace": "[",
}


def _character(name: str) -> str | None:
    """The printable character a Textual key name stands for, if any."""
    if len(name) == 1:
        return name
    if name in _NAME_REPLACEMENTS:
        return _NAME_REPLACEMENTS[name]
    try:
        char = unicodedata.lookup(name.replace("_", " ").upper())
    except KeyError:
        return None
    # Names of control characters (e.g. "delete" is an alias of U+007F) are not typed characters.
    return char if char.isprintable() else None


def _split(key: str) -> tuple[int, str] | None:
    """Split ``"ctrl+shift+up"`` into the modifier bits and the base name; None if unknown."""
    if key == "+":
        parts = ["+"]
    elif key.endswith("++"):  # "ctrl++": the base key is the plus sign itself
        parts = [*key[:-2].split("+"), "+"]
    else:
        parts = key.split("+")
    *mods, base = parts
    bits = 0
    for mod in mods:
        if mod.lower() not in _MODIFIER_BITS:
            return None  # super/hyper have no xterm encoding
        bits |= _MODIFIER_BITS[mod.lower()]
    if not base:
        return None
    return bits, base if len(base) == 1 else base.lower()


def encode_key(
    key: str, *, application_cursor: bool = False, application_keypad: bool = False
) -> bytes | None:
    """Encode a Textual key name as the bytes xterm would send for it.

    Args:
        key: Textual key name, e.g. ``"a"``, ``"ctrl+c"``, ``"shift+tab"``, ``"ctrl+up"``.
        application_cursor: DECCKM is set (the model's ``application_cursor``).
        application_keypad: DECKPAM is set (keypad keys send SS3 codes).

    Returns:
        The bytes to write to the program, or None for a key with no encoding (``"super+a"``,
        ``"caps_lock"``, an unknown name).
    """
    split = _split(key)
    if split is None:
        return None
    bits, base = split
    if base in _SHIFTED_FUNCTION_KEYS:  # "f13" is Shift+F1
        bits, base = bits | _MODIFIER_BITS["shift"], _SHIFTED_FUNCTION_KEYS[base]
    text = _special(base, bits, application_cursor, application_keypad)
    if text is None:
        text = _ordinary(base, bits)
    return None if text is None else text.encode("utf-8")


def _modifier_param(bits: int) -> int:
    # ctlseqs "PC-Style Function Keys": 2 Shift, 3 Alt, 5 Control, 6 Shift+Control, 9 Meta, ...
    return 1 + bits


def _special(base: str, bits: int, app_cursor: bool, app_keypad: bool) -> str | None:
    """Cursor, editing, function and keypad keys; None if ``base`` is not one of them."""
    if base in _CURSOR_FINALS:
        final = _CURSOR_FINALS[base]
        if bits:
            return f"{CSI}1;{_modifier_param(bits)}{final}"
        return (SS3 if app_cursor else CSI) + final
    if base in _TILDE_CODES:
        code = _TILDE_CODES[base]
        return f"{CSI}{code};{_modifier_param(bits)}~" if bits else f"{CSI}{code}~"
    if base in _PF_FINALS:
        final = _PF_FINALS[base]
        return f"{CSI}1;{_modifier_param(bits)}{final}" if bits else SS3 + final
    if base in _KEYPAD:
        numeric, application = _KEYPAD[base]
        if app_keypad:
            return SS3 + application
        return _with_alt(numeric, bits)
    return None


def _with_alt(text: str, bits: int) -> str:
    # ctlseqs "Alt and Meta Keys": with metaSendsEscape the key's characters are prefixed by ESC.
    return ESC + text if bits & (_MODIFIER_BITS["alt"] | _MODIFIER_BITS["meta"]) else text


def _ordinary(base: str, bits: int) -> str | None:
    """Keys that send characters: Enter, Tab, Backspace, letters, punctuation, with modifiers."""
    shift = bits & _MODIFIER_BITS["shift"]
    ctrl = bits & _MODIFIER_BITS["ctrl"]
    if base == "tab" and shift and not ctrl:
        return _with_alt(CSI + "Z", bits)  # back-tab, CBT (ECMA-48 8.3.7)
    if base == "backspace" and ctrl:
        return _with_alt("\x08", bits)
    if base in _PLAIN_KEYS:
        text = _PLAIN_KEYS[base]
        if ctrl and base == "space":
            text = "\x00"
        return _with_alt(text, bits)
    char = _character(base)
    if char is None:
        return None
    if shift and len(char) == 1 and char.isalpha():
        char = char.upper()
    if ctrl:
        char = _control(char)
    return _with_alt(char, bits)


def _control(char: str) -> str:
    """The C0 character Ctrl turns ``char`` into (ctlseqs: Ctrl clears bits 6 and 7 of letters)."""
    if "a" <= char.lower() <= "z":
        return chr(ord(char.lower()) - 0x60)
    # xterm without modifyOtherKeys sends the unmodified character when Ctrl has no effect.
    return _CTRL_SYMBOLS.get(char, char)


# Both bracket markers (7-bit CSI and the 8-bit C1 CSI) so a paste can neither close the bracket
# early nor open a nested one.
_PASTE_MARKERS = re.compile("(?:\x1b\\[|\x9b)20[01]~")


def encode_paste(text: str, *, bracketed: bool) -> bytes:
    """Encode pasted text the way xterm sends a paste.

    Newlines become CR, as a terminal sends Enter. With bracketed paste (DECSET 2004, ctlseqs
    "Bracketed Paste Mode") the text is wrapped in ``CSI 200 ~`` ... ``CSI 201 ~``, and any bracket
    markers inside it are removed, repeatedly, so pasted text cannot end the paste early and have its
    remainder run as typed commands.

    Args:
        text: The pasted text.
        bracketed: The program enabled bracketed paste (the model's ``bracketed_paste``).

    Returns:
        The bytes to write to the program (UTF-8; unencodable code points replaced).
    """
    body = text.replace("\r\n", "\r").replace("\n", "\r")
    if bracketed:
        while True:
            cleaned = _PASTE_MARKERS.sub("", body)
            if cleaned == body:
                break
            body = cleaned
        body = f"{CSI}200~{body}{CSI}201~"
    return body.encode("utf-8", errors="replace")
