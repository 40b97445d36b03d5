"""Keyframe index, playback clock and search across time for replay. Pure: time is passed in."""

from __future__ import annotations

from observer.replay.clock import SPEEDS, PlaybackClock, clock_text, next_marker, previous_marker
from observer.replay.keyframes import Keyframe, KeyframeIndex, apply, new_model
from observer.replay.playback import Moved, Playback
from observer.replay.player import Player, screen_at
from observer.replay.search import Match, find, following, occurrences, preceding, visible_text
from observer.replay.timeline import Marker, Timeline

__all__ = [
    "SPEEDS",
    "Keyframe",
    "KeyframeIndex",
    "Marker",
    "Match",
    "Moved",
    "Playback",
    "PlaybackClock",
    "Player",
    "Timeline",
    "apply",
    "clock_text",
    "find",
    "following",
    "new_model",
    "next_marker",
    "occurrences",
    "preceding",
    "previous_marker",
    "screen_at",
    "visible_text",
]
