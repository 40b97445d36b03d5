"""A tile's row drawn from the frame's text looks as the same row fed to a model and drawn.

The server paints each row of a screen frame as SGR and text (``observer.server.screen_sync``);
a tile draws the rows it shows from that text (:class:`~observer.app.widgets.strips.TextRows`)
rather than parsing them into its model. Whatever the row holds, every cell it shows must be
the one the model's row would show, in the same style, the cursor's included.
"""

from __future__ import annotations

import random

import pytest
from rich.style import Style
from textual.strip import Strip

from observer.app.widgets.strips import TextRows, screen_row
from observer.protocol.screen_view import cut_row
from observer.render.rich_cells import Palette
from observer.server.screen_sync import row_text
from observer.terminal import TerminalModel

PALETTE = Palette()
BLANK = Style(bgcolor="#101010")
SGRS = [
    b"\x1b[0m", b"\x1b[1m", b"\x1b[31;44m", b"\x1b[38;2;10;200;30m", b"\x1b[7m", b"\x1b[2;3;4m",
    b"\x1b[39m", b"\x1b[38:5:200m", b"\x1b[9;97;100m", b"\x1b[8m", b"\x1b[5m", b"\x1b[22m",
]  # fmt: skip
TEXTS = ["plain", "a b  c", "─│›●", "宽字", "e\u0301", "x" * 30, "-_/.:", "→ ok", "🙂"]
TEXTS += ["é\u00a0ñ", "\u200fbidi"]  # a no-break space, a bidi control


def cells(strip: Strip) -> list[tuple[str, Style | None]]:
    """Each column's character and style, however the strip is cut into segments."""
    return [(char, segment.style) for segment in strip for char in segment.text]


def agent_row(rng: random.Random) -> bytes:
    """What an agent may write on a row: text in any pens, wide and combining characters."""
    parts = []
    for _ in range(rng.randrange(0, 9)):
        if rng.random() < 0.6:
            parts.append(rng.choice(SGRS))
        parts.append(rng.choice(TEXTS).encode()[: rng.randrange(1, 40)])
    return b"".join(parts)


def drawn_from_a_model(text: str, cols: int, **shown: object) -> Strip:
    """The row as a tile draws it when its model is fed the frame's repaint of it."""
    model = TerminalModel(cols, 3, 0)
    model.feed(b"\x1b[2;1H\x1b[0m\x1b[2K" + text.encode("utf-8", "surrogatepass"))
    return screen_row(model, 1, PALETTE, **shown)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(4))
def test_a_row_drawn_from_its_text_is_the_row_drawn_from_a_model(seed: int) -> None:
    rng = random.Random(seed)
    rows = TextRows(limit=64)  # forgets as it goes: what it keeps is never what decides
    for _ in range(500):
        cols = rng.choice([12, 40, 120])
        agent = TerminalModel(cols, 2, 0)
        raw = agent_row(rng)
        agent.feed(raw)
        # As the server paints it, or as another peer might: the agent's own SGRs, relative
        # (where they fit the row: a server's row always does).
        fits = agent.cursor_y == 0 and rng.random() < 0.5
        text = raw.decode(errors="replace") if fits else row_text(agent.glyphs(0))
        left, width = rng.choice([(0, 10), (0, 38), (0, 200), (3, 20), (-4, 60)])
        cursor = rng.choice([None, 0, 5, cols - 1, cols + 3])
        shown = {"cursor": cursor, "left": left, "width": width, "blank": BLANK}
        cut = cut_row(text, left + width) if left >= 0 else text  # as a tile cuts it
        ours = rows.strip(cut, cols, PALETTE, **shown)  # type: ignore[arg-type]
        theirs = drawn_from_a_model(text, cols, **shown)
        assert cells(ours) == cells(theirs), (text, cols, shown)
        assert ours.cell_length == theirs.cell_length


@pytest.mark.parametrize(
    "row",
    [
        "\x1b[4hinserting",  # insert mode (IRM)
        "\x1b]8;;http://x\x1b\\a link left open",
        "\x1b]0;a title never ended",
        "\x1b[?7lno wrap",
        "\x1b(0qqq line drawing",  # DEC special graphics in G0
        "\x0eshifted out",
        "\x1b[1;31m\x1b[?5hreverse screen",
        "\x1bP a string never ended",
        "tab\there",
    ],
)
def test_nothing_a_row_sets_reaches_the_next_row_drawn(row: str) -> None:
    rows = TextRows()
    following = "\x1b[0;32mnext row\x1b[0m"
    shown = {"cursor": None, "left": 0, "width": 20, "blank": BLANK}
    hostile = rows.strip(row, 40, PALETTE, **shown)  # type: ignore[arg-type]
    assert cells(hostile) == cells(drawn_from_a_model(row, 40, **shown))
    after = rows.strip(following, 40, PALETTE, **shown)  # type: ignore[arg-type]
    assert cells(after) == cells(drawn_from_a_model(following, 40, **shown))
