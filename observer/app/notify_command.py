"""Runs the user's notify command when an agent starts waiting (:mod:`observer.client.notify`).

The command is the user's own text from the config or ``--notify-command``, run by ``sh -c`` as
they wrote it (so pipes and ``"$OBSERVER_NOTIFY_MESSAGE"`` work); what the agent said reaches it
only as data: the JSON object on standard input and ``OBSERVER_NOTIFY_*`` variables. A shell
expands a quoted variable to its value and never parses that value again (POSIX.1-2017, XCU 2.6),
so no agent text is ever read as shell syntax.

It runs as an asyncio subprocess in a session of its own, with nothing on the terminal the app
draws (standard output is discarded, standard error kept for the complaint); one that fails, or
takes longer than :data:`TIMEOUT` (then its process group is killed), is said once per kind of
failure, in the app and in the log, and never holds up anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from observer.app.links import Link
from observer.client import state_words
from observer.client.notify import NotifyDebounce, NotifyRequest
from observer.client.status import SessionStatus
from observer.terminal.sanitize import sanitize

TIMEOUT = 10.0
"""Seconds a notify command may run before it is killed."""
log = logging.getLogger("observer.notify")

Spawn = Callable[[Coroutine[Any, Any, object]], object]


@dataclass(frozen=True, slots=True)
class NotifyTarget:
    """Whose waits run which command: a session's profile, identifier and endpoint."""

    command: str
    profile: str
    identifier: str
    endpoint: str


class NotifyRunner:
    """Runs each session's notify command once per new wait (longest wait first).

    Args:
        targets: each notified link's command and names, by the link's ``id`` (links not in it
            run nothing).
        spawn: runs a coroutine in the app's loop without waiting for it.
        complain: tells the user, once per kind of failure, that the command failed.
        timeout: seconds before a running command is killed.
        environ: the environment the command inherits, to which the request's is added.
    """

    def __init__(
        self,
        targets: Mapping[int, NotifyTarget],
        *,
        spawn: Spawn,
        complain: Callable[[str], object],
        timeout: float = TIMEOUT,
        environ: Mapping[str, str] = os.environ,
    ) -> None:
        self.targets = dict(targets)
        self.spawn, self.complain = spawn, complain
        self.timeout, self.environ = timeout, environ
        self.debounce = NotifyDebounce()
        self._complained: set[str] = set()
        self.started = 0
        """Commands started so far."""

    def check(self, seen: Iterable[tuple[Link, SessionStatus]], now: float) -> None:
        """Run the command for each session ``seen`` (with its status at ``now``) that started
        waiting, longest wait first."""
        requests = []
        for link, status in seen:
            target = self.targets.get(id(link))
            if target is None:
                continue
            request = self._request(link, target, status, now)
            if request is not None:
                requests.append((request, target))
        for request, target in sorted(requests, key=lambda pair: -pair[0].waited):
            self.started += 1
            self.spawn(self.run(target.command, request))

    def _request(
        self, link: Link, target: NotifyTarget, status: SessionStatus, now: float
    ) -> NotifyRequest | None:
        """The request to run for ``link`` now, if it started waiting and is due."""
        names = (target.profile, target.identifier or status.identifier, target.endpoint)
        if status.exited:
            if not self.debounce.due(link, "exit", now):
                return None
            words = state_words.exited(status.exit_status)
            return NotifyRequest(*names, "exit", "exited", words, exit_status=status.exit_status)
        attention = status.attention
        if attention is None or status.connection != "connected":
            return None
        if not self.debounce.due(link, (attention.reason, attention.since), now):
            return None
        return NotifyRequest(
            *names,
            attention.kind,
            attention.reason,
            attention.text,
            link.session.question(),
            waited=state_words.waited_for(status),
        )

    async def run(self, command: str, request: NotifyRequest) -> None:
        """Run ``command`` with ``request`` on its standard input and in its environment."""
        try:
            process = await asyncio.create_subprocess_exec(
                "/bin/sh",
                "-c",
                command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
                env={**self.environ, **request.environment()},
                start_new_session=True,  # its own process group, killed whole on a timeout
            )
        except OSError as error:
            self._failed("start", f"could not start ({error.strerror})")
            return
        try:
            _, errors = await asyncio.wait_for(process.communicate(request.payload()), self.timeout)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            await process.wait()
            self._failed("timeout", f"took longer than {self.timeout:g} s and was stopped")
            return
        if process.returncode:
            said = errors.decode("utf-8", "replace").strip().splitlines()
            last = f": {sanitize(said[-1][:200])}" if said else ""
            self._failed("status", f"exited with status {process.returncode}{last}")

    def _failed(self, kind: str, what: str) -> None:
        """Say a failure of ``kind`` once (later ones go to the log only)."""
        text = f"notify command {what}"
        log.warning("%s", text)
        if kind not in self._complained:
            self._complained.add(kind)
            self.complain(f"{text} — check notify_command (this is said once)")
