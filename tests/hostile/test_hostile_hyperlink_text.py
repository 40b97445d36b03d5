"""A hyperlink whose text names another address than the one it leads to is shown for what it is.

An OSC 8 hyperlink's text is whatever the agent writes: a prompt-injected agent can print
``https://good.example/login`` as the text of a link to ``https://evil.example/login`` (the
``[text](target)`` of Markdown, which agents' UIs render as OSC 8). A click must show the target
that would open, its host, and that the text differs, and open only that target once confirmed;
a spoofed text (bidi controls) or a look-alike host in the target (percent-encoded Cyrillic, as
the model keeps non-ASCII) cannot disguise it. Bytes go through the real terminal model.
"""

from __future__ import annotations

import pytest

from observer.app.app import ObserverApp
from observer.app.screens.confirm import ConfirmScreen
from observer.app.screens.watch import WatchScreen
from observer.app.widgets.terminal_view import TerminalView
from tests.app.conftest import scripted
from tests.app.test_copy_and_links import view_text
from tests.waiting import until

pytestmark = pytest.mark.timeout(60)


def hyperlink(target: str, text: str) -> bytes:
    return f"\x1b]8;;{target}\x1b\\{text}\x1b]8;;\x1b\\".encode()


async def dialog_for(output: bytes) -> tuple[str, list[str]]:
    """Click the first cell of ``output``, read the dialog, confirm; what it said and opened."""
    app = ObserverApp([scripted([output], cols=80, rows=12)])
    opened: list[str] = []
    async with app.run_test(size=(80, 13)) as pilot:
        await until(lambda: view_text(app).strip(), "the output")
        screen = app.screen
        assert isinstance(screen, WatchScreen)
        screen.opener = lambda target: opened.append(target) is None
        await pilot.click(TerminalView, offset=(2, 0))
        await until(lambda: not isinstance(app.screen, WatchScreen), "a dialog")
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen), "the click opened no dialog"
        detail = dialog.detail
        await pilot.press("y")
        await until(lambda: opened, "the opener")
    return detail, opened


async def test_a_link_whose_text_is_another_address_shows_where_it_really_leads() -> None:
    detail, opened = await dialog_for(
        hyperlink("https://evil.example/login", "https://good.example/login")
    )
    first, *rest = detail.splitlines()
    assert first == "https://evil.example/login"
    assert "host: evil.example" in rest
    assert "The text on screen differs from where it leads: “https://good.example/login”" in rest
    assert opened == ["https://evil.example/login"]


async def test_bidi_controls_in_the_text_and_a_look_alike_host_cannot_disguise_the_target() -> None:
    spoof = "https://good.example/\u202egol"  # reads "…/log" reversed after the RLO
    detail, opened = await dialog_for(hyperlink("https://\u0430pple.com/", spoof))
    assert "\u202e" not in detail
    assert detail.splitlines()[0] == "https://%D0%B0pple.com/"
    assert "host: xn--pple-43d.com" in detail
    assert opened == ["https://%D0%B0pple.com/"]
