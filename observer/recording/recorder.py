"""Crash-safe asciicast recording of a live session (opening recordings: :mod:`observer.recording.castfiles`).

Every event is one line, handed to the operating system within ``FLUSH_INTERVAL`` (50 ms) of being
recorded, at once at every marker, resize and exit, and at close (see :mod:`observer.recording.spool`: lines
are written in batches, not one system call each). A killed observer (even ``kill -9``) therefore
leaves a playable file missing at most the events of its last 50 ms; at worst the last line is cut
mid-write, and the reader treats a cut last line as absent (see :mod:`observer.asciicast.reader`).
A closed recording ends with an output event after its last marker (an empty one when needed):
asciinema-player's timeline ends at the last event and shows only the markers before it. That
event is at the time the recording was closed, so a quiet end (``record --duration 25`` of an
agent silent after 14 s) plays for as long as it was recorded.

On top of that the file is ``fsync``-ed at every marker, at exit and at close, so markers survive
even a power loss. A recorder dropped without :meth:`Recorder.close`, or left open when the
interpreter exits, still writes what it holds.

The header carries the size, title, theme, session identifier and the endpoint's host only: never a
URL's path, query or user info (where tokens hide), and no environment dump. It also says whether
secrets were masked (``"redacted"``): they are unless the user turned it off (``--no-redact``),
and the session's own token is masked even then (the security model keeps tokens out of files).
"""

from __future__ import annotations

import asyncio
import codecs
import io
import os
import time
import weakref
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, Final

from observer.asciicast import (
    DEFAULT_FORMAT,
    EXIT,
    INPUT,
    MARKER,
    OUTPUT,
    RESIZE,
    CastFormat,
    CastWriter,
    Header,
)
from observer.asciicast.redact import Redactor
from observer.errors import InvalidState, ObserverError, UsageError
from observer.recording.header import clamp_size, endpoint_host
from observer.recording.spool import Spool
from observer.terminal.size import format_size

__all__ = ["HOLD_LIMIT", "Clock", "Recorder"]

Clock = Callable[[], float]

HOLD_LIMIT: Final = 0.1
"""Seconds text may be held back for redaction before :meth:`Recorder.tick` writes it anyway."""

END_AFTER: Final = 0.001
"""The closing output event comes at least this long after the last marker (later is a
different time in every reader: times are written in microseconds)."""


class Recorder:
    """Record a live session as asciicast (v2 by default), safe against being killed.

    Args:
        path: The file to create.
        cols: Initial terminal width.
        rows: Initial terminal height.
        title: Recording title (e.g. the window title).
        theme: Terminal theme as in the asciicast spec (``fg``, ``bg``, ``palette``).
        identifier: The watched session's identifier.
        endpoint: The endpoint URL or host; only its host and port are written.
        format: ``"v2"`` (default: every player reads it) or ``"v3"``.
        clock: Monotonic seconds; event times are measured from its value at construction.
        timestamp: Unix time of the start for the header (default: now).
        overwrite: Replace an existing file instead of refusing.
        redact: Mask secrets (bearer tokens, JWTs, API-key shapes) seen in output and input (on
            by default); the trailing run of token-like characters of a chunk is held back until
            the next chunk, marker, resize, exit or close, or :data:`HOLD_LIMIT` seconds, so a
            secret split across chunks is masked too.
        secrets: Exact strings to mask whatever ``redact`` says (e.g. the session's own token).
        input_recorded: The keys typed in control are recorded (said in the header, so a reader
            tells "typed nothing" from "keys not recorded").
        fsync: Called with the file descriptor at markers, exit and close (injectable for tests).

    Raises:
        UsageError: The file exists (without ``overwrite``) or cannot be created.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        cols: int,
        rows: int,
        title: str | None = None,
        theme: Mapping[str, str] | None = None,
        identifier: str | None = None,
        endpoint: str | None = None,
        format: CastFormat = DEFAULT_FORMAT,
        clock: Clock = time.monotonic,
        timestamp: int | None = None,
        overwrite: bool = False,
        redact: bool = True,
        secrets: Iterable[str] = (),
        input_recorded: bool = False,
        fsync: Callable[[int], None] = os.fsync,
    ) -> None:
        cols, rows = clamp_size(cols, rows)
        self.path = Path(path)
        self._clock = clock
        self._fsync = fsync
        self._start = clock()
        self._decoders = {
            code: codecs.getincrementaldecoder("utf-8")(errors="replace")
            for code in (OUTPUT, INPUT)
        }
        self._output_decoder = self._decoders[OUTPUT]
        self.events = 0
        self._last_code = OUTPUT
        secrets = [secret for secret in secrets if secret]
        self._held_since: float | None = None
        self._release_timer: asyncio.TimerHandle | None = None
        self._redactors = (
            {code: Redactor(secrets, shapes=redact) for code in (OUTPUT, INPUT)}
            if redact or secrets
            else {}
        )
        self._file = Spool(self._open(overwrite), fsync=fsync)
        self._closed = False
        meta = {"identifier": identifier, "endpoint": endpoint_host(endpoint) if endpoint else None}
        extra: dict[str, Any] = {"observer": {k: v for k, v in meta.items() if v}}
        extra["observer"]["redacted"] = redact
        extra["observer"]["input"] = input_recorded
        header = Header(
            version=3 if format == "v3" else 2,
            cols=cols,
            rows=rows,
            timestamp=int(time.time()) if timestamp is None else timestamp,
            title=title,
            theme=dict(theme) if theme is not None else None,
            term_type="xterm-256color",
            extra=extra,
        )
        try:
            self._writer = CastWriter(self._file, header, format=format)
            self._file.flush()  # a recorder killed at once still leaves a valid header
        except OSError as error:
            self._file.close()
            raise self._write_failed(error) from None
        # Writes what waits if the recorder is dropped unclosed or the interpreter exits first.
        self._finalizer = weakref.finalize(
            self, _finish, self._redactors, self._writer, self._file, clock, self._start
        )

    def _open(self, overwrite: bool) -> io.FileIO:
        flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if overwrite else os.O_EXCL)
        try:
            # 0600: a recording holds whatever the agent showed; nobody else on the laptop reads it.
            # Unbuffered: the spool gathers lines itself and writes them in one call.
            return io.FileIO(os.open(self.path, flags, 0o600), "w")
        except FileExistsError:
            raise UsageError(
                f"{self.path} already exists", "choose another file name or allow overwriting"
            ) from None
        except OSError as error:
            raise UsageError(
                f"cannot create the recording {self.path}: {error.strerror}",
                "check that the folder exists and is writable",
            ) from None

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return self._closed

    def elapsed(self) -> float:
        """Seconds since the recording started, by the injected clock."""
        return self._clock() - self._start

    def output(self, data: bytes | str) -> None:
        """Record program output (bytes are decoded as UTF-8 across chunk boundaries)."""
        if self._redactors or not isinstance(data, bytes) or self._closed or self._file.error:
            self._record(OUTPUT, self._text(OUTPUT, data))
            return
        # The path of every chunk of a live session, kept short: a chunk that holds whole UTF-8
        # characters (no partial one before or at its end) decodes in one C call.
        decoder = self._output_decoder
        text = None
        if not decoder.buffer:
            try:  # noqa: SIM105 (suppress() costs a context manager per chunk)
                text = data.decode()
            except UnicodeDecodeError:
                pass  # a character cut at the end, or invalid bytes: the decoder handles both
        if text is None:
            text = decoder.decode(data)
        if not text:
            return  # nothing, or half a UTF-8 character: it goes with the chunk completing it
        try:
            self._writer.write_event(self._clock() - self._start, OUTPUT, text, decoded=True)
        except OSError as error:
            raise self._write_failed(error) from None
        self.events += 1
        self._last_code = OUTPUT

    def input(self, data: bytes | str) -> None:
        """Record keyboard input sent while in control."""
        self._record(INPUT, self._text(INPUT, data))

    @property
    def redacted(self) -> int:
        """Secrets masked so far (0 without redaction)."""
        return sum(r.count for r in self._redactors.values())

    def resize(self, cols: int, rows: int) -> None:
        """Record a terminal resize (clamped to 1..10000, as the terminal model clamps it)."""
        self._release_held()
        self._record(RESIZE, format_size(*clamp_size(cols, rows)))
        self.flush()

    def marker(self, label: str = "") -> None:
        """Record a marker and hand the file to the OS up to it; an fsync follows in the background."""
        self._release_held()
        self._record(MARKER, label)
        self._check_open()
        try:
            self._file.sync_soon()
        except OSError as error:
            raise self._write_failed(error) from None

    def exit(self, status: int) -> None:
        """Record the program's exit status and make the file durable."""
        self._release_held()
        self._record(EXIT, str(status))
        self.sync()

    def flush(self) -> None:
        """Hand every recorded event to the operating system now (it survives a kill)."""
        self._check_open()
        try:
            self._file.flush()
        except OSError as error:
            raise self._write_failed(error) from None

    def sync(self) -> None:
        """Flush and fsync the file now (it survives a power loss)."""
        self.flush()
        try:
            self._fsync(self._file.file.fileno())
        except OSError as error:
            raise self._write_failed(error) from None

    def close(self) -> None:
        """Flush, fsync and close the file; further calls do nothing."""
        if self._closed:
            return
        try:
            self._release_held()
            self._end_on_output()
            self.sync()
        finally:
            self._closed = True
            try:
                self._finalizer()  # closes the spool, once
            except OSError as error:
                raise self._write_failed(error) from None

    def __enter__(self) -> Recorder:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def tick(self) -> None:
        """Write text held back for redaction for more than ``HOLD_LIMIT`` seconds.

        With redaction on, call this from the event loop about every 100 ms, so a quiet program
        does not keep its last word out of the file. Without redaction it does nothing.
        """
        if self._held_since is not None and self.elapsed() - self._held_since >= HOLD_LIMIT:
            self._release_held()

    def _text(self, code: str, data: bytes | str) -> str:
        text = data if isinstance(data, str) else self._decoders[code].decode(data)
        redactor = self._redactors.get(code)
        if redactor is None:
            return text
        text = redactor.feed(text)
        if not redactor.holding:
            self._held_since = None
        elif self._held_since is None:
            self._held_since = self.elapsed()
            self._release_later()
        return text

    def _release_later(self) -> None:
        """Write held text after :data:`HOLD_LIMIT` when an event loop runs (a quiet program's
        last word keeps its time); without one, the next event or :meth:`tick` writes it."""
        if self._release_timer is not None and not self._release_timer.cancelled():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._release_timer = loop.call_later(HOLD_LIMIT, self._release_due)

    def _release_due(self) -> None:
        self._release_timer = None
        if not self._closed and self._file.error is None:
            self.tick()
            if self._held_since is not None:
                self._release_later()

    def _release_held(self) -> None:
        """Write text a redactor held back, so it lands before the event that follows."""
        self._held_since = None
        if self._release_timer is not None:
            self._release_timer.cancel()
            self._release_timer = None
        for code, redactor in self._redactors.items():
            if redactor.holding:
                self._record(code, redactor.flush())

    def _end_on_output(self) -> None:
        """End with an output event at the close, later than the last marker, resize or exit, so
        players show every marker and the quiet end (an empty output changes no screen)."""
        if self._file.error is not None:
            return
        now = self.elapsed()
        if self._last_code == OUTPUT and now < self._writer.time + END_AFTER:
            return
        later = max(now, self._writer.time + END_AFTER)
        try:
            self._writer.write_event(later, OUTPUT, "")
        except OSError as error:
            raise self._write_failed(error) from None
        self.events += 1
        self._last_code = OUTPUT

    def _record(self, code: str, data: str) -> None:
        self._check_open()
        if not data and code in (OUTPUT, INPUT):
            return  # half a UTF-8 character: it is written with the chunk that completes it
        try:
            self._writer.write_event(self._clock() - self._start, code, data)
        except OSError as error:
            raise self._write_failed(error) from None
        self.events += 1
        self._last_code = code

    def _check_open(self) -> None:
        if self._closed:
            raise InvalidState(f"the recording {self.path} is already closed")
        if self._file.error is not None:
            raise self._write_failed(self._file.error)

    def _write_failed(self, error: OSError) -> ObserverError:
        return ObserverError(
            f"writing the recording {self.path} failed: {error.strerror}",
            "free some disk space or record to another file",
        )


def _finish(
    redactors: Mapping[str, Redactor], writer: CastWriter, spool: Spool, clock: Clock, start: float
) -> None:
    """Write the text redactors hold, then close the spool (a recorder dropped unclosed)."""
    try:
        for code, redactor in redactors.items():
            if redactor.holding:
                writer.write_event(clock() - start, code, redactor.flush())
    finally:
        spool.close()
