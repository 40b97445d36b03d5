"""Theme files (:mod:`observer.themes`) as Textual themes and terminal palettes."""

from __future__ import annotations

from textual.theme import Theme

from observer.render.rich_cells import Palette
from observer.themes import ThemeSpec


def to_textual_theme(spec: ThemeSpec) -> Theme:
    """The Textual theme for a theme file; its terminal colours become CSS variables too."""
    ui = spec.ui
    return Theme(
        name=spec.name,
        primary=ui["primary"],
        secondary=ui.get("secondary"),
        accent=ui.get("accent"),
        warning=ui.get("warning"),
        error=ui.get("error"),
        success=ui.get("success"),
        foreground=ui.get("foreground"),
        background=ui.get("background"),
        surface=ui.get("surface"),
        panel=ui.get("panel"),
        dark=spec.dark,
        variables={
            "terminal-foreground": spec.terminal.foreground,
            "terminal-background": spec.terminal.background,
        },
    )


def palette_of(spec: ThemeSpec | None) -> Palette:
    """The terminal palette of a theme (the default palette without one)."""
    return Palette.from_colours(spec.terminal) if spec is not None else Palette()
