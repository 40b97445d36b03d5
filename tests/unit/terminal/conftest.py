from __future__ import annotations

from observer.terminal import TerminalModel


def screen(data: bytes, cols: int = 20, rows: int = 5, **kwargs: int) -> TerminalModel:
    """A model of the given size fed ``data``."""
    model = TerminalModel(cols, rows, **kwargs)
    model.feed(data)
    return model
