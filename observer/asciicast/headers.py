"""Header conversion between the JSON objects of asciicast v1/v2/v3 and :class:`Header`.

v1 and v2 keep the size in ``width``/``height`` and the theme at the top level; v3 keeps them in
``term: {cols, rows, type, version, theme}`` (https://docs.asciinema.org/manual/asciicast/v3/).
Optional metadata of the wrong type is not fatal: it is kept in ``Header.extra`` as found, so the
recording still plays and a rewrite loses nothing. Only what playback needs (version, a sane size)
is checked strictly.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from observer.asciicast.events import Header
from observer.errors import ObserverError
from observer.terminal.size import SizeError, check_size

_SHARED_KEYS = ("timestamp", "title", "env", "theme", "idle_time_limit", "command")


class HeaderError(ObserverError, ValueError):
    """The header object cannot describe a playable recording.

    Args:
        what: What is wrong with the header.
        advice: What the reader can do; by default, that the header is damaged.
    """

    def __init__(self, what: str, advice: str = "the header is damaged") -> None:
        super().__init__(what, advice)


def header_from_json(obj: Mapping[str, Any]) -> Header:
    """Build a :class:`Header` from a parsed header object of any supported version.

    Raises:
        HeaderError: Unsupported version, missing or absurd size.
    """
    version = obj.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version not in (1, 2, 3):
        raise HeaderError(
            f"unsupported asciicast version {version!r}", "observer reads versions 1, 2 and 3"
        )
    rest = dict(obj)
    del rest["version"]
    rest.pop("stdout", None)  # v1 frames: events, not metadata
    term: dict[str, Any] = {}
    if version == 3:
        raw_term = rest.pop("term", None)
        if not isinstance(raw_term, dict):
            raise HeaderError('the v3 header has no "term" object with cols and rows')
        term = dict(raw_term)
        cols, rows = _size(term.pop("cols", None), term.pop("rows", None), "term.cols", "term.rows")
        if "theme" in term:
            rest["theme"] = term.pop("theme")
        term_type = term.pop("type", None)
    else:
        cols, rows = _size(rest.pop("width", None), rest.pop("height", None), "width", "height")
        env = rest.get("env")
        term_type = env.get("TERM") if isinstance(env, dict) else None
    values = {key: rest.pop(key) for key in _SHARED_KEYS if key in rest}
    extra = dict(rest)
    if term:
        extra["term"] = term  # unknown v3 term keys (e.g. "version"), written back by the v3 writer
    return Header(
        version=version,
        cols=cols,
        rows=rows,
        timestamp=_take(values, extra, "timestamp", _as_timestamp),
        title=_take(values, extra, "title", _as_str),
        env=_take(values, extra, "env", _as_env) or {},
        theme=_take(values, extra, "theme", _as_theme),
        idle_time_limit=_take(values, extra, "idle_time_limit", _as_seconds),
        command=_take(values, extra, "command", _as_str),
        term_type=term_type if isinstance(term_type, str) else None,
        extra=extra,
    )


def header_to_json(header: Header, version: int) -> dict[str, Any]:
    """Return the header object for writing ``header`` as asciicast ``version`` (2 or 3)."""
    extra = dict(header.extra)
    term_extra = extra.pop("term", None)
    obj: dict[str, Any] = {"version": version}
    if version == 3:
        term: dict[str, Any] = {"cols": header.cols, "rows": header.rows}
        if header.term_type is not None:
            term["type"] = header.term_type
        if isinstance(term_extra, dict):
            term.update({k: v for k, v in term_extra.items() if k not in term})
        if header.theme is not None:
            term["theme"] = dict(header.theme)
        obj["term"] = term
    else:
        obj["width"], obj["height"] = header.cols, header.rows
    for key in ("timestamp", "idle_time_limit", "command", "title"):
        value = getattr(header, key)
        if value is not None:
            obj[key] = value
    if header.env:
        obj["env"] = dict(header.env)
    if version == 2 and header.theme is not None:
        obj["theme"] = dict(header.theme)
    for key, value in extra.items():
        obj.setdefault(key, value)
    return obj


def _size(cols: object, rows: object, cols_name: str, rows_name: str) -> tuple[int, int]:
    for name, value in ((cols_name, cols), (rows_name, rows)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise HeaderError(f"the header's {name} is {value!r}, not a whole number")
    assert isinstance(cols, int) and isinstance(rows, int)
    try:
        check_size(cols, rows)
    except SizeError as error:
        raise HeaderError(f"absurd terminal size: {error.what}") from None
    return cols, rows


def _take(values: dict[str, Any], extra: dict[str, Any], key: str, convert: Any) -> Any:
    """Return the converted value of ``key``, or move a value of the wrong type to ``extra``."""
    if key not in values or values[key] is None:
        return None
    converted = convert(values[key])
    if converted is None:
        extra[key] = values[key]
    return converted


def _as_str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _as_seconds(value: object) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
        if math.isfinite(number) and number >= 0:
            return number
    return None


def _as_timestamp(value: object) -> int | None:
    seconds = _as_seconds(value)
    return int(seconds) if seconds is not None else None


def _as_env(value: object) -> dict[str, str] | None:
    if not isinstance(value, dict):
        return None
    return {str(k): v for k, v in value.items() if isinstance(v, str)}


def _as_theme(value: object) -> dict[str, str] | None:
    if not isinstance(value, dict):
        return None
    return {str(k): v for k, v in value.items() if isinstance(v, str)}
