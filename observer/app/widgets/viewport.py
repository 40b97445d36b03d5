"""Which part of a remote terminal a view shows: a pure function of sizes, cursor and scroll.

The remote size is authoritative (docs/app.md, "Full window, frame and crop"): a view larger than the remote screen
centres it; a smaller one crops it around the cursor, unless the user moved it (``top``: the first
line shown, scrolled into the history or panned up and down a tall screen; ``left``: the first
column, panned across a wide one). Following the cursor depends on the cursor alone, never on
earlier frames, so the same screen always looks the same (screenshots, snapshot tests). Moved,
the view keeps its last row for the bar that says how to go back to live.

Lines are *virtual*: the history's, oldest first, then the screen's rows.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Window:
    """The visible part of the virtual lines."""

    first: int
    """First virtual line shown."""
    count: int
    """How many lines are shown."""
    pad_top: int
    """Blank view rows above them (centring)."""
    left: int
    """First terminal column shown when cropping; minus the centring pad when negative."""


@dataclass(frozen=True, slots=True)
class Geometry:
    """Everything the window depends on."""

    cols: int
    rows: int
    cursor_x: int
    cursor_y: int
    history: int
    """History lines that can be scrolled to (0 on the alternate screen)."""
    width: int
    height: int


@dataclass(frozen=True, slots=True)
class Crop:
    """How a view shows a remote screen larger than itself (the crop indicator's facts)."""

    cols: int
    rows: int
    width: int
    height: int
    left: bool
    """Columns are hidden to the left."""
    right: bool
    up: bool
    """Rows of the screen are hidden above (history lines do not count)."""
    down: bool

    @property
    def cropped(self) -> bool:
        """Whether the remote screen is larger than the view in either direction."""
        return self.cols > self.width or self.rows > self.height

    def describe(self) -> str:
        """``cropped 120x40 → 98x27 ◀▼``: the remote size, the view's, and where more is."""
        arrows = "".join(
            arrow
            for arrow, hidden in (
                ("◀", self.left),
                ("▶", self.right),
                ("▲", self.up),
                ("▼", self.down),
            )
            if hidden
        )
        text = f"cropped {self.cols}x{self.rows} → {self.width}x{self.height}"
        return f"{text} {arrows}" if arrows else text


def bottom(geometry: Geometry) -> int:
    """The largest ``top``: the last lines fill the rows above the bar."""
    g = geometry
    return max(0, g.history + g.rows - max(1, g.height - 1))


def clamp_top(geometry: Geometry, top: int) -> int:
    """``top`` limited to the lines there are."""
    return max(0, min(top, bottom(geometry)))


def clamp_left(geometry: Geometry, left: int) -> int:
    """``left`` limited to the columns there are (centred when the screen is narrower)."""
    g = geometry
    if g.width >= g.cols:
        return -((g.width - g.cols) // 2)
    return max(0, min(left, g.cols - g.width))


def window(geometry: Geometry, top: int | None = None, left: int | None = None) -> Window:
    """The window for ``geometry``.

    Args:
        geometry: sizes, cursor and history length.
        top: the first virtual line shown, or None to show the live screen (around the cursor
            when it is taller than the view).
        left: the first column shown, or None to follow the cursor (or centre).
    """
    g = geometry
    column = clamp_left(g, g.cursor_x - g.width + 1 if left is None else left)
    if top is not None:
        first = clamp_top(g, top)
        count = min(max(1, g.height - 1), g.history + g.rows - first)
        return Window(first, count, 0, column)
    if g.height >= g.rows:
        return Window(g.history, g.rows, (g.height - g.rows) // 2, column)
    origin = max(0, min(g.cursor_y - g.height + 1, g.rows - g.height))
    return Window(g.history + origin, g.height, 0, column)


def crop(geometry: Geometry, shown: Window) -> Crop:
    """What ``shown`` hides of the remote screen."""
    g = geometry
    return Crop(
        cols=g.cols,
        rows=g.rows,
        width=g.width,
        height=g.height,
        left=shown.left > 0,
        right=shown.left >= 0 and shown.left + g.width < g.cols,
        up=shown.first > g.history,
        down=shown.first + shown.count < g.history + g.rows,
    )


def row_runs(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted, distinct ``rows`` as runs of consecutive rows: (first, how many). A view
    refreshes a run as one region (each region costs Textual's refresh and compositor)."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and runs[-1][0] + runs[-1][1] == row:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((row, 1))
    return runs
