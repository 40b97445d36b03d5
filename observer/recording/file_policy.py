"""The recording policy of every recorder that writes a file (``watch --record``, ``record``)."""

from __future__ import annotations

import os
from collections.abc import Iterable

from observer.asciicast import DEFAULT_FORMAT, CastFormat
from observer.client.recording_policy import RecordingPolicy
from observer.recording.recorder import Recorder


def recording_policy(
    path: str | os.PathLike[str],
    *,
    identifier: str | None = None,
    endpoint: str | None = None,
    format: CastFormat = DEFAULT_FORMAT,
    overwrite: bool = False,
    record_input: bool = False,
    redact: bool = True,
    secrets: Iterable[str] = (),
) -> RecordingPolicy:
    """The recording policy of every recorder, writing to a :class:`Recorder` at ``path``.

    The file is created at the session's first screen, with its size and title. Secrets are
    masked unless ``redact`` is false; ``secrets`` (the session's own token) always are.
    """
    secrets = tuple(secrets)

    def open_sink(cols: int, rows: int, title: str) -> Recorder:
        return Recorder(
            path,
            cols=cols,
            rows=rows,
            title=title or None,
            identifier=identifier,
            endpoint=endpoint,
            format=format,
            overwrite=overwrite,
            redact=redact,
            secrets=secrets,
            input_recorded=record_input,
        )

    return RecordingPolicy(open_sink, record_input=record_input)
