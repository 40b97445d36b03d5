"""``observer replay``: play a recording with instant seeking, markers and search across time."""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "replay"
HELP = "play a recording: seek instantly, jump between markers, search text across time"
DESCRIPTION = """\
Play an asciicast recording (v1, v2 or v3, e.g. one made with --record, observer record or
asciinema rec) in the same terminal view as a live session.

keys: space play/pause · ←/→ seek 5 s (shift: 30 s) · [ / ] previous/next marker · + / - speed
(0.25×–16×) · . one event forward (pauses) · / search the text across the whole recording, then
n / N for the next/previous moment it appeared · click the timeline to seek · ctrl+q quits.

The file is read and indexed in the background while playback starts. A damaged line stops the
replay with its line number; --lenient skips damaged lines and says how many.
"""
EPILOG = """\
examples:
  observer replay session.cast
  observer replay session.cast --idle-limit 2 --speed 4      pauses capped to 2 s, four times faster
  observer replay broken.cast --lenient                      skip damaged lines
"""


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arguments."""
    parser.add_argument("file", type=Path, metavar="FILE", help="asciicast recording")
    parser.add_argument(
        "--idle-limit",
        type=float,
        metavar="SECONDS",
        help="cap pauses to SECONDS (default: the recording's own idle_time_limit, if any)",
    )
    parser.add_argument(
        "--speed", type=float, default=1.0, metavar="FACTOR", help="playback speed, 0.25 to 16"
    )
    parser.add_argument("--theme", metavar="NAME", help="colour theme")
    parser.add_argument(
        "--lenient", action="store_true", help="skip damaged lines of the recording, and count them"
    )
    parser.add_argument("--paused", action="store_true", help="start paused at the beginning")


def run(args: argparse.Namespace) -> int:
    """Open the replay app; return its exit status."""
    from observer.app import textual_patches
    from observer.app.replay_app import replay_app
    from observer.errors import UsageError
    from observer.recording.castfiles import open_cast
    from observer.runtime.config import config_dir, load_config

    if not 0.25 <= args.speed <= 16:
        raise UsageError(f"--speed {args.speed:g} is outside 0.25..16", "e.g. --speed 2")
    limit = args.idle_limit
    if limit is not None and not 0 < limit < float("inf"):
        raise UsageError(f"--idle-limit {limit:g} is not a positive number of seconds", "e.g. 2")
    with open_cast(args.file, lenient=args.lenient) as reader:  # header errors: before the app
        header = reader.header
    if limit is None and header.idle_time_limit and header.idle_time_limit > 0:
        limit = header.idle_time_limit
    config = load_config()
    app = replay_app(
        args.file,
        header,
        lenient=args.lenient,
        idle_limit=limit,
        speed=args.speed,
        autoplay=not args.paused,
        theme=args.theme or config.theme,
        config_dir=config_dir(),
    )
    textual_patches.install()
    app.run()
    if app.fatal is not None:
        raise with_lenient_hint(app.fatal, args.lenient)
    return app.return_code or 0


def with_lenient_hint(error: Exception, lenient: bool) -> Exception:
    """A damaged event line (not the header, which nothing can skip) says how to play the rest."""
    from observer.errors import CastFormatError

    if isinstance(error, CastFormatError) and not lenient and error.line and error.line > 1:
        hint = "--lenient skips damaged lines and plays the rest"
        advice = f"{error.advice} ({hint})" if error.advice else None
        reason = error.reason if advice else f"{error.reason} ({hint})"
        return CastFormatError(reason, advice, path=error.path, line=error.line)
    return error
