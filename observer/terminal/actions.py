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
#: Finals of simple CSIs that never change the pen (cursor moves, erases, scrolls), so an
#: SGR after them in a run still starts from a pen known when the run was compiled.
_PEN_NEUTRAL = frozenset("@ABCDEFGHIJKLMPSTXZ`adefg")


def noop() -> None:
    """The action of a sequence that is ignored."""


class ActionCompiler:
    """Turns sequence text into cached actions on a screen."""

    screen: VTScreen
    _cache: dict[str, Action]
    _chains: dict[str, Action]
    _prefixes: dict[str, tuple[Action | None, Cell | None, bool]]

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
            return self._sgr([groups])[0]
        if ":" in params and any(len(group) > 1 for group in groups):
            return noop  # sub-parameters mean nothing outside SGR
        handler = csi.TABLES.get(prefix, {}).get(final)
        if handler is None:
            return noop
        return handler(self.screen, tuple([group[0] or 0 for group in groups]))

    def _run_actions(self, chain: str) -> tuple[list[Action], Cell | None]:
        """The actions of a run of simple CSIs and CR LFs. Consecutive SGRs are folded into
        one pen change; a trailing pen change that does not depend on the pen before it is
        returned as that pen instead of an action (the caller sets it)."""
        actions: list[Action] = []
        pens: list[tuple[tuple[int | None, ...], ...]] = []
        known: Cell | None = None  # the pen, when an earlier SGR here fixed it
        last_sgr = ""  # the text of the last SGR, when it is the only one in ``pens``
        for part in _CHAIN_PART.finditer(chain):
            params, final = part.group(1), part.group(2)
            if final == "m":
                pens.append(csi.parse_params(params) or ())
                last_sgr = part.group()
                continue
            if pens:
                action, known = self._pen_change(pens, known, last_sgr)
                actions.append(action)
                pens = []
            if not final:
                actions.append(self.screen.newline)
                continue
            if final not in _PEN_NEUTRAL:
                known = None
            key = part.group()
            cached = self._cache.get(key)
            actions.append(cached or self._compile(key, params, "", final))
        if pens:
            action, known = self._pen_change(pens, known, last_sgr)
            if known is None:
                actions.append(action)
            return actions, known
        return actions, None

    def _pen_change(
        self, pens: list[tuple[tuple[int | None, ...], ...]], known: Cell | None, text: str
    ) -> tuple[Action, Cell | None]:
        """:meth:`_sgr` for a run's SGRs; one SGR that depends on the pen before reuses
        the action cached for its text (one memo of pens per SGR, not one per run)."""
        if len(pens) == 1 and known is None and pens[0] and pens[0][0] not in _RESET:
            return self._cache.get(text) or self._compile(text, text[2:-1], "", "m"), None
        return self._sgr(pens, known)

    def _run_parts(self, chain: str) -> None:
        """Run a run of simple CSIs and CR LFs part by part, without compiling it."""
        screen = self.screen
        for part in _CHAIN_PART.finditer(chain):
            try:
                params, final = part.group(1, 2)
                if not final:
                    screen.newline()
                    continue
                key = part.group()
                action = self._cache.get(key)
                if action is None and final == "H" and params.count(";") == 1:
                    # A jump seen once (a cursor parked at a random place): not compiled.
                    line, column = params.split(";")
                    screen.cursor_position(csi.number(line), csi.number(column))
                    continue
                (action or self._compile(key, params, "", final))()
            except Exception:  # each sequence is guarded on its own
                screen.recover()

    def _chain(self, chain: str) -> Action:
        """The action for a run of simple CSIs and CR LFs, cached by its text."""
        actions, pen = self._run_actions(chain)
        if pen is not None:
            actions.append(self._set_pen(pen))
        action = actions[0] if len(actions) == 1 else self._sequence(actions)
        if len(chain) <= MAX_SEQUENCE:
            if len(self._chains) >= MAX_CACHED:
                self._chains.clear()
            self._chains[chain] = action
        return action

    def prefix(self, chain: str) -> tuple[Action | None, Cell | None, bool]:
        """The run of simple CSIs and CR LFs before a text, cached by its text: an action
        (or ``None``); when the run ends by setting a pen that does not depend on the pen
        before, that pen; and whether the action only changes the pen (relative SGRs)."""
        found = self._prefixes.get(chain)
        if found is None:
            actions, pen = self._run_actions(chain)
            action = (
                None
                if not actions
                else actions[0]
                if len(actions) == 1
                else self._sequence(actions)
            )
            pens_only = pen is None and chain.count("m") == chain.count("\x1b") > 0
            found = (action, pen, pens_only and "\r" not in chain)
            if len(chain) <= MAX_SEQUENCE:
                if len(self._prefixes) >= MAX_CACHED:
                    self._prefixes.clear()
                self._prefixes[chain] = found
        return found

    def _set_pen(self, pen: Cell) -> Action:
        screen = self.screen

        def absolute() -> None:
            screen.cursor.attrs = pen

        return absolute

    def _sequence(self, actions: list[Action]) -> Action:
        screen = self.screen

        def run() -> None:
            for action in actions:
                try:
                    action()
                except Exception:  # each sequence is guarded on its own
                    screen.recover()

        return run

    def _sgr(
        self, steps: list[tuple[tuple[int | None, ...], ...]], known: Cell | None = None
    ) -> tuple[Action, Cell | None]:
        """An action applying SGR sequences, and the pen it sets if that does not depend
        on the pen before. The resulting pen is computed once per starting pen, or once for
        all when a step resets the pen or the starting pen is ``known``."""
        screen = self.screen
        resets = [i for i, groups in enumerate(steps) if not groups or groups[0] in _RESET]
        intern = screen.intern_pen
        if resets or known is not None:
            pen: Cell = BLANK if resets or known is None else known
            for groups in steps[resets[-1] if resets else 0 :]:
                pen = apply_sgr(pen, groups)  # the old pen does not matter
            pen = intern(pen)
            return self._set_pen(pen), pen
        # Pens are interned, so the memo is keyed by identity (hashing a pen costs more);
        # the old pen is kept in the entry, so its id cannot be reused while it is there.
        memo: dict[int, tuple[Cell, Cell]] = {}

        def relative() -> None:
            cursor = screen.cursor
            old = cursor.attrs
            entry = memo.get(id(old))
            if entry is None or entry[0] is not old:
                if len(memo) > 64:
                    memo.clear()
                new = old
                for groups in steps:
                    new = apply_sgr(new, groups)
                entry = memo[id(old)] = (old, intern(new))
            cursor.attrs = entry[1]

        return relative, None
