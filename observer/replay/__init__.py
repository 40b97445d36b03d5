"""Keyframe index and playback clock for replay. Pure: time is passed in."""
