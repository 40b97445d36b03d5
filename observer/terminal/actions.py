"""Compiling control sequences into cached actions.

Each distinct sequence text is decoded once into a callable (a bound screen method with its
arguments fixed, or a pen change) and cached by its text; runs of simple sequences around
text are folded into one action, so redrawing streams cost a dictionary lookup per run.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from observer.terminal import csi
from observer.terminal.cells import BLANK, Cell
from observer.terminal.screen import VTScreen
from observer.terminal.sgr import apply_sgr

#: Longest control sequence kept while waiting for its end; longer ones are ignored.
MAX_SEQUENCE = 1024
#: Entries kept in each cache of decoded control sequences.
MAX_CACHED = 4096

Action = Callable[[], object]
_CHAIN_PART = re.compile(r"\x1b\[([0-9;]*)([@-~])|\r\n")
_RESET = ((None,), (0,))


def noop() -> None:
    """The action of a sequence that is ignored."""


class ActionCompiler:
    """Turns sequence text into cached actions on a screen."""

    screen: VTScreen
    _cache: dict[str, Action]
    _chains: dict[str, Action]

    def _compile(self, key: str, params: str, inter: str, final: str) -> Action:
        action = self._decode(params, inter, final)
        if len(self._cache) >= MAX_CACHED:
            self._cache.clear()
        self._cache[key] = action
        return action

    def _decode(self, params: str, inter: str, final: str) -> Action:
        prefix = params[:1] if params[:1] in ("<", "=", ">", "?") else ""
        groups = csi.parse_params(params[len(prefix) :])
        if groups is None or inter or len(params) > MAX_SEQUENCE:
            return noop
        if final == "m" and not prefix:
            return self._sgr([groups])
        if any(len(group) > 1 for group in groups):
            return noop  # sub-parameters mean nothing outside SGR
        handler = csi.TABLES.get(prefix, {}).get(final)
        if handler is None:
            return noop
        return handler(self.screen, tuple(group[0] or 0 for group in groups))

    def _chain(self, chain: str) -> Action:
        """The action for a run of simple CSIs and CR LFs, cached by its text. Consecutive
        SGRs are folded into one pen change."""
        actions: list[Action] = []
        pens: list[tuple[tuple[int | None, ...], ...]] = []
        for part in _CHAIN_PART.finditer(chain):
            params, final = part.group(1), part.group(2)
            if final == "m":
                pens.append(csi.parse_params(params) or ())
                continue
            if pens:
                actions.append(self._sgr(pens))
                pens = []
            actions.append(self._decode(params, "", final) if final else self.screen.newline)
        if pens:
            actions.append(self._sgr(pens))
        action = actions[0] if len(actions) == 1 else self._sequence(actions)
        if len(chain) <= MAX_SEQUENCE:
            if len(self._chains) >= MAX_CACHED:
                self._chains.clear()
            self._chains[chain] = action
        return action

    def _sequence(self, actions: list[Action]) -> Action:
        screen = self.screen

        def run() -> None:
            for action in actions:
                try:
                    action()
                except Exception:  # each sequence is guarded on its own
                    screen.recover()

        return run

    def _sgr(self, steps: list[tuple[tuple[int | None, ...], ...]]) -> Action:
        """An action applying SGR sequences; the resulting pen is computed once per
        starting pen, or once for all when a step resets the pen."""
        screen = self.screen
        resets = [i for i, groups in enumerate(steps) if not groups or groups[0] in _RESET]
        if resets:
            pen = BLANK
            for groups in steps[resets[-1] :]:
                pen = apply_sgr(pen, groups)  # the old pen does not matter

            def absolute() -> None:
                screen.cursor.attrs = pen

            return absolute
        memo: dict[Cell, Cell] = {}

        def relative() -> None:
            old = screen.cursor.attrs
            new = memo.get(old)
            if new is None:
                if len(memo) > 64:
                    memo.clear()
                new = old
                for groups in steps:
                    new = apply_sgr(new, groups)
                memo[old] = new
            screen.cursor.attrs = new

        return relative
