"""The model shows what tmux 3.3a showed for bytes captured from real programs.

Each fixture in ``tests/fixtures/captures/`` (see ``docs/captures.md``) holds every byte a real
program wrote and, at checkpoints, the screen, cursor and modes tmux showed; the capture tool kept a
fixture only after replaying its bytes alone in a fresh tmux reproduced every checkpoint. Bytes are fed
in several chunk sizes, because real reads split escape sequences and UTF-8 anywhere.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pyte.graphics import FG_BG_256
from wcwidth import wcwidth

from observer.terminal import Cell, TerminalModel
from tests.fixtures.capture import DEC_SPECIAL_GRAPHICS

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures" / "captures"
NAMES = sorted(p.stem for p in CAPTURES.glob("*.json"))
WHOLE = 0  # feed each stretch between checkpoints in one call
# Chunk sizes the bytes are fed in: each stretch between checkpoints at once, a typical read size,
# an odd size that splits sequences, and one byte at a time.
CHUNKS = (WHOLE, 4096, 7, 1)


@dataclass(frozen=True)
class Capture:
    name: str
    data: bytes
    fixture: dict[str, Any]


def load(name: str) -> Capture:
    fixture = json.loads((CAPTURES / f"{name}.json").read_text(encoding="utf-8"))
    return Capture(name, (CAPTURES / f"{name}.bin").read_bytes(), fixture)


def replay(capture: Capture, chunk: int) -> Iterator[tuple[dict[str, Any], TerminalModel]]:
    """Feed the bytes checkpoint by checkpoint, resizing where the capture did; yield at each."""
    fx = capture.fixture
    model = TerminalModel(cols=fx["cols"], rows=fx["rows"])
    fed = 0

    def feed_to(stop: int) -> None:
        nonlocal fed
        step = chunk or max(stop - fed, 1)
        for start in range(fed, stop, step):
            model.feed(capture.data[start : min(start + step, stop)])
        fed = max(fed, stop)

    resizes = iter(fx["resizes"])
    applied = 0
    for checkpoint in fx["checkpoints"]:
        while applied < checkpoint["resizes_before"]:
            resize = next(resizes)
            feed_to(resize["offset"])
            model.resize(resize["cols"], resize["rows"])
            applied += 1
        feed_to(checkpoint["offset"])
        yield checkpoint, model


def nfc(rows: Sequence[str]) -> list[str]:
    return [unicodedata.normalize("NFC", row) for row in rows]


def trim_rows(rows: Sequence[str]) -> list[str]:
    """Rows without the trailing empty ones (tmux lists every row; the model may stop early).

    Rows are compared in Unicode NFC: ``e`` + U+0301 and U+00E9 are the same glyph on screen, and
    tmux keeps the decomposed form a program wrote while pyte composes it.
    """
    rows = nfc(rows)
    while rows and not rows[-1]:
        rows.pop()
    return rows


def shown_cursor(x: int, y: int, cols: int) -> tuple[int, int]:
    # After a write to the last column the cursor waits to wrap: tmux reports x == cols, xterm keeps
    # it in the last column with a wrap flag. Both show it in the last column.
    return min(x, cols - 1), y


def params_for_sizes(chunks: Sequence[int] = CHUNKS) -> list[Any]:
    cases = []
    for name in NAMES:
        for chunk in chunks:
            cases.append(pytest.param(name, chunk, id=f"{name}-{chunk or 'whole'}"))
    return cases


def differences(checkpoint: dict[str, Any], model: TerminalModel) -> dict[str, tuple[Any, Any]]:
    """Each aspect of the checkpoint the model shows differently: {aspect: (model, tmux)}."""
    history = ["".join(cell.data for cell in row).rstrip(" ") for row in model.history]
    text = model.text()
    pairs = {
        "size": ((model.cols, model.rows), (checkpoint["cols"], checkpoint["rows"])),
        "row count": (len(text) <= model.rows, True),
        # Where tmux draws a row otherwise than capture-pane lists it, what it draws.
        "text": (trim_rows(text), trim_rows(checkpoint.get("drawn", checkpoint["screen"]))),
        "cursor": (
            shown_cursor(model.cursor_x, model.cursor_y, model.cols),
            shown_cursor(*checkpoint["cursor"], checkpoint["cols"]),
        ),
        "cursor visible": (model.cursor_visible, checkpoint["cursor_visible"]),
        "alternate screen": (model.alternate, checkpoint["alternate"]),
        "application cursor": (model.application_cursor, checkpoint["application_cursor"]),
        "title": (model.title, checkpoint["title"]),
        "scrollback": (nfc(history), nfc(checkpoint["history"])),
    }
    return {aspect: pair for aspect, pair in pairs.items() if pair[0] != pair[1]}


@pytest.mark.parametrize(("name", "chunk"), params_for_sizes())
def test_replayed_bytes_show_the_screens_tmux_showed(name: str, chunk: int) -> None:
    for checkpoint, model in replay(load(name), chunk):
        where = f"{name} at {checkpoint['label']!r} (byte {checkpoint['offset']})"
        for aspect, (got, want) in differences(checkpoint, model).items():
            assert got == want, f"{where}: {aspect} (model, then tmux)"


def test_every_fixture_has_its_bytes_and_checkpoints() -> None:
    assert len(NAMES) >= 30
    for name in NAMES:
        capture = load(name)
        offsets = [c["offset"] for c in capture.fixture["checkpoints"]]
        assert offsets, name
        assert offsets == sorted(offsets), name
        assert offsets[-1] <= len(capture.data), name


# --------------------------------------------------------------------------- colours and attributes

SGR_OR_CHARSET = re.compile(r"\x1b\[([0-9;:]*)m|([\x0e\x0f])")
NAMED = [
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
]  # fmt: skip
# pyte calls colour 3 "brown"; the model may use either name.
NAMED_INDEX = {n: i for i, n in enumerate(NAMED)} | {"brown": 3}
NAMED_INDEX |= {f"bright{n}": i + 8 for n, i in list(NAMED_INDEX.items())}


@dataclass
class Style:
    fg: str = "default"
    bg: str = "default"
    bold: bool = False
    italics: bool = False
    underscore: bool = False
    strikethrough: bool = False
    reverse: bool = False
    blink: bool = False
    conceal: bool = False


def index_colour(index: int) -> str:
    return FG_BG_256[index]


def model_colour(value: str) -> str:
    """A model colour ("default", a name, "rrggbb") as "default" or "rrggbb" (xterm palette)."""
    if value == "default":
        return value
    if value in NAMED_INDEX:
        return index_colour(NAMED_INDEX[value])
    return value.lower()


FLAGS_ON = {
    1: "bold",
    3: "italics",
    4: "underscore",
    5: "blink",
    7: "reverse",
    8: "conceal",
    9: "strikethrough",
}
FLAGS_OFF = {
    22: "bold",
    23: "italics",
    24: "underscore",
    25: "blink",
    27: "reverse",
    28: "conceal",
    29: "strikethrough",
}


def extended_colour(values: list[list[str]], i: int) -> tuple[str, int]:
    """Read ``38;5;N`` / ``38;2;R;G;B`` (or their colon forms) at ``values[i]``; return the colour
    and the index after it (xterm ctlseqs, "SGR 38/48")."""
    head = values[i]
    if len(head) > 1:  # colon form: 38:5:N or 38:2:[colourspace]:R:G:B
        sub = head[1:]
        if sub[0] == "2" and len(sub) == 5:
            sub = [sub[0], *sub[2:]]
        nxt = i + 1
    else:
        sub = [v[0] for v in values[i + 1 : i + 5]]
        nxt = i + 1 + (2 if sub[0] == "5" else 4)
    if sub[0] == "5":
        return index_colour(int(sub[1])), nxt
    return "{:02x}{:02x}{:02x}".format(*(int(v) for v in sub[1:4])), nxt


def apply_sgr(style: Style, params: str) -> Style:
    """Apply one SGR of the subset ``capture-pane -e`` writes (ECMA-48 8.3.117, xterm ctlseqs)."""
    values = [p.split(":") for p in (params or "0").split(";")]
    i = 0
    while i < len(values):
        head = values[i]
        code = int(head[0] or 0)
        if code in (38, 48, 58):
            colour, i = extended_colour(values, i)
            if code == 38:
                style.fg = colour
            elif code == 48:
                style.bg = colour
            continue
        i += 1
        if code == 0:
            style = Style()
        elif 30 <= code <= 37 or 90 <= code <= 97:
            style.fg = index_colour(code - 30 if code < 90 else code - 90 + 8)
        elif 40 <= code <= 47 or 100 <= code <= 107:
            style.bg = index_colour(code - 40 if code < 100 else code - 100 + 8)
        elif code == 39:
            style.fg = "default"
        elif code == 49:
            style.bg = "default"
        elif code in FLAGS_ON:
            # 4:0 is "no underline"; 4:1..4:5 are underline styles.
            setattr(style, FLAGS_ON[code], not (code == 4 and head[1:] == ["0"]))
        elif code in FLAGS_OFF:
            setattr(style, FLAGS_OFF[code], False)
    return style


def styled_rows(lines: list[str]) -> Iterator[list[tuple[str, Style]]]:
    """Split ``capture-pane -e -N`` rows into (character, style) lists.

    tmux writes each SGR and SO/SI relative to the previous cell, so both carry across rows.
    """
    style, graphics = Style(), False
    for line in lines:
        out: list[tuple[str, Style]] = []
        pos = 0
        for match in [*SGR_OR_CHARSET.finditer(line), None]:
            for ch in line[pos : match.start() if match else len(line)]:
                ch = DEC_SPECIAL_GRAPHICS.get(ch, ch) if graphics and ch != " " else ch
                out.append((ch, Style(**vars(style))))
            if match is None:
                break
            pos = match.end()
            if match.group(2):
                graphics = match.group(2) == "\x0e"
            else:
                style = apply_sgr(style, match.group(1))
        yield out


def cell_style(cell: Cell) -> Style:
    return Style(
        fg=model_colour(cell.fg), bg=model_colour(cell.bg), bold=cell.bold, italics=cell.italics,
        underscore=cell.underscore, strikethrough=cell.strikethrough, reverse=cell.reverse,
        blink=cell.blink, conceal=cell.conceal,
    )  # fmt: skip


def visible(style: Style, blank: bool) -> Style:
    # On a blank cell the foreground colour, bold, italics and blink cannot be seen.
    if blank:
        return Style(bg=style.bg, reverse=style.reverse, underscore=style.underscore,
                     strikethrough=style.strikethrough)  # fmt: skip
    return style


def clusters(chars: list[tuple[str, Style]]) -> Iterator[tuple[str, Style]]:
    """Group characters into cells: a zero-width character joins the cell before it."""
    text, style = "", Style()
    for ch, ch_style in chars:
        if text and wcwidth(ch) == 0:
            text += ch
            continue
        if text:
            yield text, style
        text, style = ch, ch_style
    if text:
        yield text, style


def row_differences(row: Sequence[Cell], expected: list[tuple[str, Style]]) -> list[str]:
    """Compare the cells tmux listed (it omits erased cells past a row's last written one)."""
    problems = []
    cells = (cell for cell in row if cell.data != "")  # skip right halves of wide characters
    for x, ((ch, want), cell) in enumerate(zip(clusters(expected), cells, strict=False)):
        got = cell_style(cell)
        if visible(got, cell.data.strip() == "") != visible(want, ch.strip() == ""):
            problems.append(f"cell {x} {cell.data!r}: model {got}, tmux {want}")
    return problems


# Whole, and in 7-byte chunks that split SGR sequences (fewer sizes: keeps the unit run fast).
@pytest.mark.parametrize(("name", "chunk"), params_for_sizes((WHOLE, 7)))
def test_replayed_bytes_show_the_colours_and_attributes_tmux_showed(name: str, chunk: int) -> None:
    """Rows whose text differs are left to the text test, which reports them."""
    for checkpoint, model in replay(load(name), chunk):
        text = model.text()
        for y, cells in enumerate(styled_rows(checkpoint["screen_sgr"])):
            if trim_rows([text[y] if y < len(text) else ""]) != trim_rows(
                [checkpoint["screen"][y]]
            ):
                continue
            problems = row_differences(model.line(y), cells)
            assert not problems, f"{name} at {checkpoint['label']!r}, row {y}: {problems[:3]}"
