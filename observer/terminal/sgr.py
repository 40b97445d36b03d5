"""SGR (select graphic rendition): both the ``;`` and the ``:`` (ITU T.416) forms.

ECMA-48 8.3.117 defines SGR; xterm's ctlseqs documents the 256-colour and direct-colour
extensions ``38;5;N``, ``38;2;R;G;B`` and their colon forms ``38:5:N``, ``38:2::R:G:B``
(the empty field is the colour-space id) and the underline styles ``4:0``..``4:5``.
"""

from __future__ import annotations

from pyte import graphics as g

from observer.terminal.cells import Cell

#: One SGR parameter: the main value followed by its colon-separated sub-parameters.
#: ``None`` stands for an empty field.
Group = tuple[int | None, ...]

#: The 16 colour names a cell's ``fg``/``bg`` may hold (pyte's names: colour 3 is "brown").
COLOUR_NAMES: tuple[str, ...] = (
    "black", "red", "green", "brown", "blue", "magenta", "cyan", "white",
    "brightblack", "brightred", "brightgreen", "brightbrown",
    "brightblue", "brightmagenta", "brightcyan", "brightwhite",
)  # fmt: skip

_FLAGS: dict[int, tuple[str, bool]] = {
    1: ("bold", True),
    2: ("dim", True),  # faint (ECMA-48); pyte 0.8.2 drops it
    3: ("italics", True),
    4: ("underscore", True),
    5: ("blink", True),
    6: ("blink", True),
    7: ("reverse", True),
    8: ("conceal", True),
    9: ("strikethrough", True),
    21: ("underscore", True),  # doubly underlined (xterm)
    23: ("italics", False),
    24: ("underscore", False),
    25: ("blink", False),
    27: ("reverse", False),
    28: ("conceal", False),
    29: ("strikethrough", False),
}

_FG: dict[int, str] = {30 + i: name for i, name in enumerate(COLOUR_NAMES[:8])}
_FG.update({90 + i: name for i, name in enumerate(COLOUR_NAMES[8:])})
_FG[39] = "default"
_BG: dict[int, str] = {40 + i: name for i, name in enumerate(COLOUR_NAMES[:8])}
_BG.update({100 + i: name for i, name in enumerate(COLOUR_NAMES[8:])})
_BG[49] = "default"

#: ``38;5;N``: the 16 palette colours by name, as ``30..37``/``90..97`` store them, so the
#: viewer's theme draws them and a repaint writes them back as palette colours (xterm and
#: tmux treat ``38;5;1`` and ``31`` as the same colour); 16..255 as their xterm RGB values.
_INDEXED: tuple[str, ...] = (*COLOUR_NAMES, *g.FG_BG_256[16:])

_DEFAULT = Cell(" ")
#: Everything SGR 0 resets: every field but the text and the hyperlink (which SGR 0 keeps,
#: as in VTE and tmux), to its default.
_RESET: dict[str, str | bool] = {
    k: v for k, v in _DEFAULT._asdict().items() if k not in ("data", "link")
}
_INDEX = {name: i for i, name in enumerate(Cell._fields)}


#: What each simple code sets, as (field index, value) pairs: the flags, the 16 named colours
#: and the defaults, 22 (neither bold nor faint) and 0 (everything back to its default). Both
#: decoders below read this one table.
_SETS: dict[int, tuple[tuple[int, str | bool], ...]] = {
    code: ((_INDEX[name], on),) for code, (name, on) in _FLAGS.items()
}
_SETS.update({code: ((_INDEX["fg"], name),) for code, name in _FG.items()})
_SETS.update({code: ((_INDEX["bg"], name),) for code, name in _BG.items()})
_SETS[22] = ((_INDEX["bold"], False), (_INDEX["dim"], False))
_SETS[0] = tuple((_INDEX[name], value) for name, value in _RESET.items())
#: The same, by the parameter's text as programs write it ("1", "01", "" ...).
_SETS_BY_TEXT = {str(code): sets for code, sets in _SETS.items()}
_SETS_BY_TEXT.update({f"0{code}": sets for code, sets in _SETS.items() if code < 10})
_SETS_BY_TEXT["00"] = _SETS_BY_TEXT[""] = _SETS[0]
#: Two hex digits for a colour component, by its text ("0".."255"; others are converted).
HEX_BY_TEXT = _HEX = {str(i): f"{i:02x}" for i in range(256)}


def _hex(text: str) -> str:
    digits = text.lstrip("0")
    return _HEX["255" if len(digits) > 3 else str(min(int(digits or 0), 255))]


def decode(pen: Cell, params: str) -> Cell | None:
    """Apply the parameters of one ``;``-form SGR (digits and ``;`` only) to ``pen``,
    without parsing them into groups or caching anything: the fast path for SGRs seen once,
    such as a truecolour run per word. Returns ``None`` for what it leaves to
    :func:`apply_sgr` (a 38/48 that is not ``2;r;g;b`` or ``5;n``, 58, fields of more than 4
    digits); the result is then the same.
    """
    parts = params.split(";")
    n = len(parts)
    if n == 5 and parts[1] == "2" and (parts[0] == "38" or parts[0] == "48"):
        # The most frequent SGR of agent UIs, one colour per word: straight to the pen.
        hexes = _HEX.get
        r, g, b = parts[2], parts[3], parts[4]
        colour = (hexes(r) or _hex(r)) + (hexes(g) or _hex(g)) + (hexes(b) or _hex(b))
        # Concatenating tuples builds them faster than unpacking into a display.
        if parts[0] == "38":
            return tuple.__new__(Cell, (pen[0], colour) + pen[2:])  # noqa: RUF005
        return tuple.__new__(Cell, (pen[0], pen[1], colour) + pen[3:])  # noqa: RUF005
    values: list[object] | None = None
    i = 0
    while i < n:
        part = parts[i]
        i += 1
        sets = _SETS_BY_TEXT.get(part)
        if sets is None:
            if part in {"38", "48"}:
                extended, i = _decode_extended(parts, i)
                if extended is None:
                    return None
                if values is None:
                    values = list(pen)
                values[1 if part == "38" else 2] = extended
                continue
            if len(part) > 4 or int(part) in (38, 48, 58):
                return None
            sets = _SETS.get(int(part))
            if sets is None:
                continue  # an unknown code: skipped, as by apply_sgr
        if values is None:
            values = list(pen)
        for index, value in sets:
            values[index] = value
    return pen if values is None else tuple.__new__(Cell, values)


def assignments(params: str) -> tuple[tuple[int, str | bool], ...] | None:
    """What an SGR of simple codes only (flags, named colours, defaults) sets, as (field
    index, value) pairs in order; ``None`` if it holds a 38/48/58 or a colon."""
    if ":" in params:
        return None
    out: list[tuple[int, str | bool]] = []
    for part in params.split(";"):
        sets = _SETS_BY_TEXT.get(part)
        if sets is None:
            if len(part) > 4 or int(part) in (38, 48, 58):
                return None
            sets = _SETS.get(int(part), ())
        out += sets
    return tuple(out)


def _decode_extended(parts: list[str], i: int) -> tuple[str | None, int]:
    """``2;r;g;b`` or ``5;n`` after a 38/48 at ``parts[i]``; the colour and where to go on."""
    kind = parts[i] if i < len(parts) else ""
    if kind == "2" and i + 3 < len(parts):
        r, g, b = parts[i + 1 : i + 4]
        if len(r) <= 4 and len(g) <= 4 and len(b) <= 4:
            return _hex(r) + _hex(g) + _hex(b), i + 4
    elif kind == "5" and i + 1 < len(parts) and 0 < len(parts[i + 1]) <= 4:
        index = int(parts[i + 1])
        if index <= 255:
            return _INDEXED[index], i + 2
    return None, i


def _colour(fields: list[int | None]) -> str | None:
    """Decode the fields after 38/48: ``5, N`` or ``2, R, G, B``; ``None`` if malformed."""
    if not fields:
        return None
    kind = fields[0]
    if kind == 5 and len(fields) >= 2 and fields[1] is not None and 0 <= fields[1] <= 255:
        return _INDEXED[fields[1]]
    if kind == 2 and len(fields) >= 4:
        rgb = [min(v or 0, 255) for v in fields[1:4]]
        return "{:02x}{:02x}{:02x}".format(*rgb)
    return None


def _extended(code: int, group: Group, rest: list[Group]) -> tuple[str | None, int]:
    """Decode a 38/48/58 colour; return the colour and how many following groups it used."""
    if len(group) > 1:  # colon form: everything is in this one group
        sub = list(group[1:])
        if sub and sub[0] == 2 and len(sub) >= 5:
            sub = [2, *sub[2:5]]  # 38:2:<colour space>:R:G:B
        return _colour(sub), 0
    # semicolon form: the fields are the following groups
    kind = rest[0][0] if rest else None
    used = 2 if kind == 5 else 4 if kind == 2 else 1
    fields = [grp[0] for grp in rest[:used]]
    return _colour(fields), min(used, len(rest))


def apply_sgr(attrs: Cell, groups: tuple[Group, ...]) -> Cell:
    """Return ``attrs`` with the SGR parameters ``groups`` applied.

    Unknown or malformed parameters are skipped; the function never raises.

    Args:
        attrs: the current pen (a pyte ``Cell``; its ``data`` is ignored).
        groups: the parameters, one group per ``;``-separated field.

    Returns:
        The new pen.
    """
    if not groups:
        return _DEFAULT
    changes: dict[str, str | bool] = {}
    i = 0
    while i < len(groups):
        group = groups[i]
        code = group[0] or 0
        i += 1
        if code == 0:
            changes = dict(_RESET)
        elif code == 22:  # normal intensity: neither bold nor faint (ECMA-48 8.3.117)
            changes["bold"] = changes["dim"] = False
        elif code == 4 and len(group) > 1:
            changes["underscore"] = bool(group[1])  # 4:0 off, 4:1..4:5 underline styles
        elif code in _FLAGS:
            name, on = _FLAGS[code]
            changes[name] = on
        elif code in _FG:
            changes["fg"] = _FG[code]
        elif code in _BG:
            changes["bg"] = _BG[code]
        elif code in (38, 48, 58):
            colour, used = _extended(code, group, list(groups[i : i + 4]))
            i += used
            if colour is not None and code != 58:  # 58 is the underline colour: not modelled
                changes["fg" if code == 38 else "bg"] = colour
    if not changes:
        return attrs
    values: list[object] = list(attrs)
    for name, value in changes.items():
        values[_INDEX[name]] = value
    return tuple.__new__(Cell, values)  # what _replace does, without its overhead
