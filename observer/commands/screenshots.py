"""``observer screenshots``: SVGs of the real app's views, made from the bundled recording."""

from __future__ import annotations

import argparse
from pathlib import Path

from observer.commands._options import add_old_spelling, add_output_option

NAME = "screenshots"
HELP = "save SVG screenshots of the app's views (watch, control, dashboard, themes)"
DESCRIPTION = """\
Runs the real app headless on scripted sessions cut from a recording of the demo agent (bundled,
or --recording FILE) and saves one SVG per view into -o/--output DIR: watch, fullscreen, confirm, control,
dashboard and two themes. The README shows them.
"""
EPILOG = """\
examples:
  observer screenshots -o screenshots
  observer screenshots -o /tmp/shots --only dashboard --recording my-agent.cast
"""


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arguments."""
    output = add_output_option(
        parser, "folder to save the SVGs in (default screenshots)", metavar="DIR",
        default=Path("screenshots"),
    )  # fmt: skip
    add_old_spelling(parser, "--out", output)
    parser.add_argument(
        "--recording", type=Path, metavar="FILE", help="asciicast to cut scenes from"
    )
    parser.add_argument("--only", action="append", metavar="NAME", help="just this view")


def run(args: argparse.Namespace) -> int:
    """Save the SVGs; print one path per line."""
    import asyncio

    from observer.demo.scenes import SCENES, save_scene
    from observer.errors import UsageError

    scenes = [s for s in SCENES if not args.only or s.name in args.only]
    if not scenes:
        known = ", ".join(s.name for s in SCENES)
        raise UsageError(f"no view named {', '.join(args.only)}", f"choose from {known}")
    try:
        args.output.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(
            f"cannot create {args.output}: {error.strerror}", "choose another -o/--output"
        ) from None

    async def save_all() -> None:
        for scene in scenes:
            print(await save_scene(scene, args.output, args.recording))

    asyncio.run(save_all())
    return 0
