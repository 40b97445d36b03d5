"""asciinema-player 3.18 in headless Chromium watches a live ``observer serve``.

The page is served from a loopback HTTP server, so the browser sends that origin, which the
server allows (``--allow-origin``); the player offers its subprotocols and gets ALiS. The agent
waits for a line, then prints red text: the player must show it, red, within 2 s of the line
being sent (its buffer adds about 0.1 s on loopback), in its DOM and in a screenshot. Skipped,
saying why, where Chromium or the player's bundle is missing (``.ci/run`` installs both where it
can).
"""

from __future__ import annotations

import asyncio
import base64
import json
import time
from typing import Any

import pytest
from websockets.asyncio.client import connect

from tests.hostile.serve_process import serve_process
from tests.integration.headless_chromium import (
    DevTools,
    browser,
    chromium_or_skip,
    page_server,
    player_bundle_or_skip,
    player_page,
    png_pixels,
)

pytestmark = [pytest.mark.interop, pytest.mark.timeout(120)]

DOCUMENTED = "/?identifier=default&api-version=2024-02-02-preview"
AGENT = (
    r"printf 'waiting for go\r\n'; read line; printf '\033[31mLIVE RED TEXT\033[0m\r\n'; sleep 60"
)
FIND = """(() => {
  for (const span of document.querySelectorAll('.ap-term-text span span')) {
    if (span.textContent.includes(%s)) {
      const box = span.getBoundingClientRect();
      return {color: getComputedStyle(span).color, box: [box.x, box.y, box.width, box.height]};
    }
  }
  return null;
})()"""
SHOWN = "document.querySelector('.ap-term-text')?.innerText ?? ''"


async def shown(page: DevTools, text: str, timeout: float) -> dict[str, Any]:
    """Look at the player's DOM until a span holds ``text``: its computed colour and box."""
    deadline = time.monotonic() + timeout
    while not (found := await page.evaluate(FIND % json.dumps(text))):
        if time.monotonic() > deadline:
            screen = await page.evaluate(SHOWN)
            raise AssertionError(f"the player did not show {text!r} in {timeout} s: {screen!r}")
        await asyncio.sleep(0.02)
    result: dict[str, Any] = found
    return result


def rgb(css: str) -> tuple[int, ...]:
    """``rgb(r, g, b)`` as numbers."""
    return tuple(int(part) for part in css.removeprefix("rgb(").rstrip(")").split(",")[:3])


def reddish(r: int, g: int, b: int) -> bool:
    return r > 150 and r - g > 80 and r - b > 50


async def test_the_player_shows_a_live_agents_red_text_within_2_s() -> None:
    chromium = chromium_or_skip()
    bundle = player_bundle_or_skip()
    pages: dict[str, str] = {}
    async with page_server(pages) as origin:
        options = ["--insecure-no-auth", "--allow-origin", origin, "--size", "60x8"]
        async with serve_process(options, AGENT) as serve:
            live = f"ws://127.0.0.1:{serve.port}{DOCUMENTED}"
            source = {"driver": "websocket", "url": live}
            pages["/"] = player_page(bundle, source, {"autoPlay": True, "fit": False})
            async with browser(chromium, origin + "/") as page:
                await shown(page, "waiting for go", timeout=60)
                async with connect(live + "&mode=control") as controller:
                    await controller.send(b"go\r")
                    sent = time.monotonic()
                    found = await shown(page, "LIVE RED TEXT", timeout=10)
                    delay = time.monotonic() - sent
                assert delay < 2.0, f"shown {delay:.2f} s after it was printed"
                assert reddish(*rgb(found["color"])), found["color"]
                x, y, width, height = found["box"]
                clip = {"x": x, "y": y, "width": width, "height": height, "scale": 1}
                png = await page.call("Page.captureScreenshot", clip=clip)
    _, _, rows = png_pixels(base64.b64decode(png["data"]))
    pixels = [tuple(row[i : i + 3]) for row in rows for i in range(0, len(row), 4)]
    drawn = pixels.count(rgb(found["color"]))
    assert drawn >= 100, f"{drawn} pixels of the screenshot are the text's red"
