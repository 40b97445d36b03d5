"""A terminal's size: the one ``COLSxROWS`` parser and the one limit on columns and rows.

Every size that enters observer passes here: ``--size`` on the command line, the resize events
and headers of a recording, the protocol's ``resize`` frames. A terminal wider or taller than
:data:`MAX_SIZE` is a mistake or an attack: the model of such a screen would exhaust memory
(every cell is an object), and no person reads a thousand columns.
"""

from __future__ import annotations

from typing import Final

from observer.errors import UsageError

MIN_SIZE: Final = 1
MAX_SIZE: Final = 1000
"""Columns and rows outside ``MIN_SIZE..MAX_SIZE`` are refused wherever a size is read."""

_ADVICE: Final = "write it like 120x40"


class SizeError(UsageError, ValueError):
    """A size is not ``COLSxROWS`` or is outside ``MIN_SIZE..MAX_SIZE``.

    A :class:`ValueError` too, so a reader of untrusted data can treat it as any damage.
    """


def parse_size(text: str, name: str = "size") -> tuple[int, int]:
    """Parse ``"COLSxROWS"`` (a resize event's data, a ``--size`` argument) into two integers.

    Args:
        text: The size, e.g. ``"80x24"``; case and surrounding blanks do not matter.
        name: What the size is called where the person wrote it (``"--size"``), for the error.

    Returns:
        ``(cols, rows)``.

    Raises:
        SizeError: The text is not two decimal numbers joined by ``x``, or a number is outside
            ``MIN_SIZE..MAX_SIZE``.
    """
    cols_text, sep, rows_text = text.strip().lower().partition("x")
    shown = repr(text if len(text) <= 24 else text[:20] + "…")
    if not sep or not _is_number(cols_text) or not _is_number(rows_text):
        raise SizeError(f"{name} {shown} is not COLSxROWS", _ADVICE)
    cols, rows = int(cols_text), int(rows_text)
    try:
        check_size(cols, rows)
    except SizeError as error:
        raise SizeError(f"{name} {shown}: {error.what}", _ADVICE) from None
    return cols, rows


def check_size(cols: int, rows: int) -> None:
    """Raise :class:`SizeError` unless both dimensions are within ``MIN_SIZE..MAX_SIZE``."""
    for dimension, value in (("columns", cols), ("rows", rows)):
        if not MIN_SIZE <= value <= MAX_SIZE:
            raise SizeError(f"{value} {dimension} is outside {MIN_SIZE}..{MAX_SIZE}", _ADVICE)


def format_size(cols: int, rows: int) -> str:
    """Return the ``"COLSxROWS"`` form :func:`parse_size` reads (a resize event's data)."""
    return f"{cols}x{rows}"


def _is_number(text: str) -> bool:
    # ASCII digits only: str.isdecimal() also accepts other scripts' digits, which no writer emits.
    # At most 9 of them: int() refuses thousands of digits with a message of its own.
    return text.isascii() and text.isdecimal() and len(text) <= 9
