"""Compiling control sequences into cached actions.

Each distinct sequence text is decoded once into a callable (a bound screen method with its
arguments fixed, or a pen change) and cached by its text; runs of simple sequences around
text are folded into one action, so redrawing streams cost a dictionary lookup per run.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from observer.terminal import csi
from observer.terminal.cells import BLANK, Cell
from observer.terminal.screen import VTScreen
from observer.terminal.sgr import apply_sgr, assignments, decode

#: Longest control sequence kept while waiting for its end; longer ones are ignored.
MAX_SEQUENCE = 1024
#: Entries kept in each cache of decoded control sequences.
MAX_CACHED = 4096
_DIGITS = "0123456789;"

Action = Callable[[], object]
#: What :meth:`ActionCompiler.prefix` finds out about a run of sequences before a text.
Prefix = tuple[Action | None, Cell | None, bool, bool]
_CHAIN_PART = re.compile(r"\x1b\[([0-9;]*)([@-~])|\r\n")
#: The same, with a run of "erase the row, go up one" (EL 2, CUU 1: how Ink, the UI library
#: of several agents, erases its previous frame) as one part.
_COMPILED_PART = re.compile(r"((?:\x1b\[2K\x1b\[1A){2,})|\x1b\[([0-9;]*)([@-~])|\r\n")


def apply(pen: Cell, params: str) -> Cell:
    """``pen`` after the SGR with these parameters: the fast decoder, or the full one."""
    if ":" not in params:
        found = decode(pen, params)
        if found is not None:
            return found
    return apply_sgr(pen, csi.parse_params(params) or ())


def sets_fg(chain: str) -> bool:
    """Whether a run of SGRs of simple codes sets the foreground: its result is then the
    same from two pens that differ only in their foreground."""
    steps = [assignments(params) for params in chain[2:-1].split("m\x1b[")]
    return None not in steps and any(i == 1 for step in steps for i, _ in step or ())


def resets(params: str) -> bool:
    """Whether an SGR starts by resetting the pen (``0`` or an empty first parameter)."""
    head = params.split(";", 1)[0]
    return not head.strip("0")


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
    _prefixes: dict[str, Prefix]
    _once: set[str]
    _max_cached: int
    """Entries each cache keeps (:data:`MAX_CACHED` unless the model was made smaller)."""

    def _seen_before(self, token: str) -> bool:
        """Whether ``token`` was seen before; remembers it if not. Tokens are compiled and
        cached only the second time they are seen: most text after a colour change, or a
        jump to a random position, is seen once, and caching it would only churn the
        caches (and the garbage collector)."""
        once = self._once
        if token in once:
            return True
        if len(token) > MAX_SEQUENCE:
            return False  # never compiled: seen once, every time (bounds memory)
        if len(once) >= self._max_cached:
            once.clear()
        once.add(token)
        return False

    def _compile(self, key: str, params: str, inter: str, final: str) -> Action:
        action = self._decode(params, inter, final)
        if len(self._cache) >= self._max_cached:
            self._cache.clear()
        self._cache[key] = action
        return action

    def _decode(self, params: str, inter: str, final: str) -> Action:
        if final == "m" and not inter and not params.strip(_DIGITS) and len(params) <= MAX_SEQUENCE:
            return self._sgr([params])[0]  # digits and ``;`` only: nothing to check first
        prefix = params[:1] if params[:1] in ("<", "=", ">", "?") else ""
        groups = csi.parse_params(params[len(prefix) :])
        if groups is None or inter or len(params) > MAX_SEQUENCE:
            return noop
        if final == "m" and not prefix:
            return self._sgr([params])[0]
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
        pens: list[str] = []  # the parameters of consecutive SGRs
        known: Cell | None = None  # the pen, when an earlier SGR here fixed it
        last_sgr = ""  # the text of the last SGR, when it is the only one in ``pens``
        for part in _COMPILED_PART.finditer(chain):
            erase, params, final = part.groups()
            if erase:  # Ink's eraseLines: one step for all its rows
                if pens:
                    action, known = self._pen_change(pens, known, last_sgr)
                    actions.append(action)
                    pens = []
                actions.append(partial(self.screen.erase_lines_up, len(erase) // 8))
                continue
            if final == "m":
                pens.append(params)
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
        self, pens: list[str], known: Cell | None, text: str
    ) -> tuple[Action, Cell | None]:
        """:meth:`_sgr` for a run's SGRs; one SGR that depends on the pen before reuses
        the action cached for its text (one memo of pens per SGR, not one per run)."""
        if len(pens) == 1 and known is None and not resets(pens[0]):
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
                if (
                    action is None
                    and final == "m"
                    and len(key) <= MAX_SEQUENCE
                    and not self._seen_before(key)
                ):
                    # An SGR seen once (a truecolour run): decoded, compiled if it comes
                    # again; the pen is interned, as compiled SGRs' are, for the caches.
                    screen.cursor.attrs = screen.intern_pen(apply(screen.cursor.attrs, params))
                    continue
                if action is None and final == "H" and params.count(";") == 1:
                    # A jump seen once (a cursor parked at a random place): not compiled.
                    line, column = params.split(";")
                    screen.cursor_position(
                        int(line) if 0 < len(line) < 5 else csi.number(line),
                        int(column) if 0 < len(column) < 5 else csi.number(column),
                    )
                    continue
                (action or self._compile(key, params, "", final))()
            except Exception:  # each sequence is guarded on its own
                screen.recover()

    def _run_once(self, chain: str) -> None:
        """Run a run of simple CSIs and CR LFs seen once. The usual one is a run seen
        before that ends by parking the cursor somewhere new (the end of a full-screen
        program's frame): the run's compiled action, then the jump; any other, part by part
        (:meth:`_run_parts`)."""
        cut = chain.rfind("\x1b[")
        if cut > 0 and chain[-1] == "H":
            head = chain[:cut]
            action = self._chains.get(head) or self._cache.get(head)
            line, semicolon, column = chain[cut + 2 : -1].partition(";")
            if (
                action is not None
                and semicolon
                and 0 < len(line) < 5
                and 0 < len(column) < 5
                and ";" not in column
            ):
                screen = self.screen
                try:
                    action()
                except Exception:  # each sequence is guarded on its own
                    screen.recover()
                screen.cursor_position(int(line), int(column))
                return
        self._run_parts(chain)

    def _chain(self, chain: str) -> Action:
        """The action for a run of simple CSIs and CR LFs, cached by its text."""
        actions, pen = self._run_actions(chain)
        if pen is not None:
            actions.append(self._set_pen(pen))
        action = actions[0] if len(actions) == 1 else self._sequence(actions)
        if len(chain) <= MAX_SEQUENCE:
            if len(self._chains) >= self._max_cached:
                self._chains.clear()
            self._chains[chain] = action
        return action

    def prefix(self, chain: str) -> Prefix:
        """The run of simple CSIs and CR LFs before a text, cached by its text: an action
        (or ``None``); when the run ends by setting a pen that does not depend on the pen
        before, that pen; whether the action only changes the pen (relative SGRs); and
        whether it also sets the foreground whatever it was (see :func:`sets_fg`)."""
        found = self._prefixes.get(chain)
        if found is None:
            params = chain[2:-1]
            if chain[0] == "\x1b" and chain[-1] == "m" and chain.count("\x1b") == 1:
                found = self._one_sgr(chain, params)
            else:
                actions, pen = self._run_actions(chain)
                action = (
                    None
                    if not actions
                    else actions[0]
                    if len(actions) == 1
                    else self._sequence(actions)
                )
                pens_only = pen is None and chain.count("m") == chain.count("\x1b") > 0
                pens_only = pens_only and "\r" not in chain
                found = (action, pen, pens_only, pens_only and sets_fg(chain))
            if len(chain) <= MAX_SEQUENCE:
                if len(self._prefixes) >= self._max_cached:
                    self._prefixes.clear()
                self._prefixes[chain] = found
        return found

    def _one_sgr(self, sgr: str, params: str) -> Prefix:
        """:meth:`prefix` of a single SGR (a colour before words, the usual prefix), as the
        general path makes it, without splitting the run into parts."""
        if resets(params):
            pen = self._pen_change([params], None, sgr)[1]
            return None, pen, False, False
        action = self._cache.get(sgr) or self._compile(sgr, params, "", "m")
        return action, None, True, sets_fg(sgr)

    def _set_pen(self, pen: Cell) -> Action:
        screen = self.screen

        def absolute() -> None:
            screen.cursor.attrs = pen

        return absolute

    def _sequence(self, actions: list[Action]) -> Action:
        screen = self.screen
        if 2 <= len(actions) <= 3:
            # The usual runs (a reset, an erase, a move), without a loop to set up each time.
            first = actions[0] if len(actions) == 2 else self._sequence(actions[:2])
            last = actions[-1]

            def pair() -> None:
                try:
                    first()
                except Exception:  # each sequence is guarded on its own
                    screen.recover()
                try:
                    last()
                except Exception:
                    screen.recover()

            return pair

        def run() -> None:
            for action in actions:
                try:
                    action()
                except Exception:  # each sequence is guarded on its own
                    screen.recover()

        return run

    def _sgr(self, steps: list[str], known: Cell | None = None) -> tuple[Action, Cell | None]:
        """An action applying SGR sequences (their parameters), and the pen it sets if that
        does not depend on the pen before. The resulting pen is computed once per starting
        pen, or once for all when a step resets the pen or the starting pen is ``known``."""
        screen = self.screen
        reset = [i for i, params in enumerate(steps) if resets(params)]
        intern = screen.intern_pen
        if reset or known is not None:
            pen: Cell = BLANK if reset or known is None else known
            for params in steps[reset[-1] if reset else 0 :]:
                pen = apply(pen, params)  # the old pen does not matter
            pen = intern(pen)
            return self._set_pen(pen), pen
        # Pens are interned, so the memo is keyed by identity (hashing a pen costs more);
        # the old pen is kept in the entry, so its id cannot be reused while it is there.
        # A pen met once (a truecolour word's) misses it: SGRs of simple codes then set
        # their fields directly.
        memo: dict[int, tuple[Cell, Cell]] = {}
        sets = [assignments(params) for params in steps]
        fields = None if None in sets else tuple(pair for step in sets for pair in step or ())
        resets_fg = any(index == 1 for index, _ in fields or ())
        make = tuple.__new__

        def relative() -> None:
            cursor = screen.cursor
            old = cursor.attrs
            entry = memo.get(id(old))
            if entry is None or entry[0] is not old:
                if screen.derived_pen is old and resets_fg:
                    # A pen met once differs from the pen it was decoded from only in its
                    # foreground, which this SGR sets anew: the result is the same from
                    # either, and the one from the pen decoded from is remembered.
                    old = screen.derived_from
                    entry = memo.get(id(old))
                    if entry is not None and entry[0] is old:
                        cursor.attrs = entry[1]
                        return
                if len(memo) > 64:
                    memo.clear()
                if fields is not None:
                    values = list(old)
                    for index, value in fields:
                        values[index] = value
                    new = make(Cell, values)
                else:
                    new = old
                    for params in steps:
                        new = apply(new, params)
                entry = memo[id(old)] = (old, intern(new))
            cursor.attrs = entry[1]

        return relative, None
