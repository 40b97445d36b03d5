"""The confirm dialog fits small terminals: every line visible, the buttons on screen and working.

A 40x10 terminal is the smallest the README's takeover flow is checked at; a long detail (a paste
preview) scrolls inside the dialog so that its border and buttons never leave the screen.
"""

from __future__ import annotations

import re

import pytest
from textual.app import App
from textual.containers import VerticalScroll
from textual.widgets import Button

from observer.app.screens.confirm import ConfirmScreen

QUESTION = "Take control of this agent?"
DETAIL = "Every key you press will go to the agent until you press ctrl+] to hand it back."
PREVIEW = "\n".join(f"preview line {n}" for n in range(1, 7))


class Host(App[None]):
    """Shows one dialog and keeps its answer."""

    def __init__(self, question: str, detail: str) -> None:
        super().__init__()
        self.dialog = ConfirmScreen(question, detail)
        self.answers: list[bool | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.answers.append)


def rows(app: Host) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def inside_the_border(lines: list[str]) -> str:
    """The dialog's text as one line: rows between ╭ and ╰, border characters removed."""
    top = next(i for i, line in enumerate(lines) if "╭" in line)
    bottom = next(i for i, line in enumerate(lines) if "╰" in line)
    body = [re.sub(r"[│▁-█]", " ", line) for line in lines[top + 1 : bottom]]
    return " ".join(" ".join(body).split())


async def test_at_40x10_every_line_of_the_takeover_question_shows_without_scrolling() -> None:
    app = Host(QUESTION, DETAIL)
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        lines = rows(app)
        assert any("╭" in line for line in lines) and any("╰" in line for line in lines), lines
        text = inside_the_border(lines)
        assert f"{QUESTION} {DETAIL}" in text, lines
        assert "Yes (y)" in text and "No (n)" in text
        assert app.dialog.query_one("#body", VerticalScroll).max_scroll_y == 0


@pytest.mark.parametrize(("button", "answer"), [("#yes", True), ("#no", False)])
async def test_at_40x10_the_buttons_are_on_screen_and_a_click_answers(
    button: str, answer: bool
) -> None:
    app = Host(QUESTION, DETAIL)
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        widget = app.dialog.query_one(button, Button)
        assert app.screen.region.contains_region(widget.region)
        center = widget.region.center
        assert app.screen.get_widget_at(*center)[0] is widget, "something covers the button"
        assert await pilot.click(button)
        await pilot.pause()
    assert app.answers == [answer]


@pytest.mark.parametrize(("keys", "answer"), [("y", True), ("enter", True), ("n", False)])
async def test_the_keys_still_answer(keys: str, answer: bool) -> None:
    app = Host(QUESTION, DETAIL)
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        await pilot.press(keys)
        await pilot.pause()
    assert app.answers == [answer]


async def test_a_detail_taller_than_the_terminal_scrolls_between_question_and_buttons() -> None:
    app = Host("Paste 6 lines into the agent?", PREVIEW)
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        lines = rows(app)
        assert any("╰" in line for line in lines), "the bottom border left the screen"
        assert "Yes (y)" in inside_the_border(lines)
        body = app.dialog.query_one("#body", VerticalScroll)
        assert body.max_scroll_y > 0
        assert "preview line 6" not in inside_the_border(lines)
        body.scroll_end(animate=False)
        await pilot.pause()
        assert "preview line 6" in inside_the_border(rows(app))
        assert "Yes (y)" in inside_the_border(rows(app))
        await pilot.press("escape")
        await pilot.pause()
    assert app.answers == [False]
