"""Textual's count of a callback's parameters, remembered for ``functools.partial`` too.

Before it calls a callback, Textual counts the parameters the callback takes
(``textual._callback.count_parameters``) and remembers the count on the function. For a
``partial`` it counts the wrapped callable with ``inspect.signature`` every time instead, and
remembers the count on the partial, which is new at each call. Every timer is such a partial
(``set_timer`` wraps its callback in ``partial(self.call_next, callback)``, and ``call_next``
wraps it again): each tile's frame timer cost two ``inspect.signature`` calls, about 220 a
second with 40 tiles and some 3 % of the dashboard's time.

:func:`install` counts a partial's wrapped callable through ``count_parameters`` itself, so
the count is remembered on the function as for any other callback; the result is Textual's
own (the same subtraction of the partial's arguments). It installs once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual import _callback

_textual_count: Callable[[Callable[..., Any]], int] = _callback.count_parameters


def count_parameters(func: Callable[..., Any]) -> int:
    """Textual's parameter count of ``func``, remembered for a partial's wrapped callable."""
    if isinstance(func, partial):
        return count_parameters(func.func) - (len(func.args) + len(func.keywords))
    return _textual_count(func)


def install() -> None:
    """Count callbacks with :func:`count_parameters` (where Textual invokes them)."""
    _callback.count_parameters = count_parameters
