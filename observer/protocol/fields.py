"""Checked reading of a text frame's JSON fields: every decoder of ``observer.v1`` uses these.

A missing field or one of the wrong type raises :class:`BadFrame`, which the decoders turn into a
:class:`~observer.protocol.frames.Malformed` value; it never reaches a caller.
"""

from __future__ import annotations

import json
from typing import Any


class BadFrame(Exception):
    """A text frame, or one of its fields, is not what the protocol says."""


def json_object(message: str) -> dict[str, Any]:
    """The JSON object of a text frame, with a string ``type``."""
    try:
        value = json.loads(message)
    except (ValueError, RecursionError) as error:
        raise BadFrame(f"text frame is not JSON ({type(error).__name__})") from None
    if not isinstance(value, dict):
        raise BadFrame("text frame is not a JSON object")
    kind = value.get("type")
    if not isinstance(kind, str):
        raise BadFrame("text frame has no string 'type'")
    return value


def integer(obj: dict[str, Any], key: str, low: int = 0, high: int | None = None) -> int:
    """Field ``key``: an integer within ``low..high``."""
    return _in_range(obj, key, obj.get(key), low, high)


def _in_range(obj: dict[str, Any], key: str, value: object, low: int, high: int | None) -> int:
    # bool is an int subclass in Python; JSON true is not a number.
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadFrame(f"'{obj['type']}' field '{key}' must be an integer")
    if value < low or (high is not None and value > high):
        raise BadFrame(f"'{obj['type']}' field '{key}' is out of range")
    return value


def string(obj: dict[str, Any], key: str) -> str:
    """Field ``key``: a string."""
    value = obj.get(key)
    if not isinstance(value, str):
        raise BadFrame(f"'{obj['type']}' field '{key}' must be a string")
    return value


def boolean(obj: dict[str, Any], key: str) -> bool:
    """Field ``key``: ``true`` or ``false``."""
    value = obj.get(key)
    if not isinstance(value, bool):
        raise BadFrame(f"'{obj['type']}' field '{key}' must be true or false")
    return value


def choice(obj: dict[str, Any], key: str, allowed: frozenset[str]) -> Any:
    """Field ``key``: one of ``allowed``."""
    value = string(obj, key)
    if value not in allowed:
        raise BadFrame(f"'{obj['type']}' field '{key}' has unknown value")
    return value


def integer_list(obj: dict[str, Any], key: str, length: int, high: int) -> list[int]:
    """Field ``key``: a list of ``length`` integers within ``0..high``."""
    value = obj.get(key)
    if not isinstance(value, list) or len(value) != length:
        raise BadFrame(f"'{obj['type']}' field '{key}' must be a list of {length} integers")
    return [_in_range(obj, key, item, 0, high) for item in value]
