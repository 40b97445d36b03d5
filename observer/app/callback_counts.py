"""Textual's count of a callback's parameters, remembered for ``functools.partial`` too.

Before it calls a callback, Textual counts the parameters the callback takes
(``textual._callback.count_parameters``) and remembers the count on the function. For a
``partial`` it counts the wrapped callable with ``inspect.signature`` every time instead, and
remembers the count on the partial, which is new at each call. Every timer is such a partial
(``set_timer`` wraps its callback in ``partial(self.call_next, callback)``, and ``call_next``
wraps it again): each tile's frame timer cost two ``inspect.signature`` calls, about 220 a
second with 40 tiles and some 3 % of the dashboard's time.

:func:`install` remembers the count of a partial's bound method by its function (the count
``inspect.signature`` gives for one bound method of a function is the count for all of them),
so it is asked once; the result is Textual's own (the same signature, less the partial's
arguments). Any other callable is counted by Textual as before. It installs once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from inspect import signature
from types import MethodType
from typing import Any
from weakref import WeakKeyDictionary

from textual import _callback

_textual_count: Callable[[Callable[..., Any]], int] = _callback.count_parameters
_bound_counts: WeakKeyDictionary[Callable[..., Any], int] = WeakKeyDictionary()
"""Parameters of a function's bound methods, by the function."""


def count_parameters(func: Callable[..., Any]) -> int:
    """Textual's parameter count of ``func``, remembered for a partial of a bound method."""
    if isinstance(func, partial) and isinstance(func.func, MethodType):
        method = func.func
        function = method.__func__
        count = _bound_counts.get(function)
        if count is None:
            count = _bound_counts[function] = len(signature(method).parameters)
        return count - (len(func.args) + len(func.keywords))
    return _textual_count(func)


def install() -> None:
    """Count callbacks with :func:`count_parameters` (where Textual invokes them)."""
    _callback.count_parameters = count_parameters
