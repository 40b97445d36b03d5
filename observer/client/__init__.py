"""The client session core: one sans-I/O object per watched session (docs/client-core.md).

:mod:`observer.client.watched` holds :class:`~observer.client.watched.WatchedSession`; the
recording policy, the reconnect policy, catching up and the derived status each have a module here.
Nothing in this package does I/O, reads a clock or imports a framework: the transport loop, the
app and the recorder drive it.
"""

DEFAULT_IDLE_RELEASE = 300.0
"""Seconds without typing after which control is handed back (the config file's ``idle_release``)."""

DEFAULT_SCROLLBACK = 10_000
"""Lines of scrollback a watched session's model keeps (a dashboard's tiles keep none)."""
