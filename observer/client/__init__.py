"""The client session core: one sans-I/O object per watched session, in parts
(docs/client-core.md).

:class:`~observer.client.watched.WatchedSession` is the façade every consumer drives; behind it
each part has its module: the connection's life (:mod:`.lifecycle`), control (:mod:`.control`),
the parse queue (:mod:`.parse_queue`), the tile view (:mod:`.tile_view`), attention, the recording
policy, the reconnect policy and catching up. It talks outwards one way, through the queues of
:mod:`.events`. Nothing in this package does I/O, reads a clock or imports a framework: the
transport loop, the app and the recorder drive it.
"""

DEFAULT_IDLE_RELEASE = 300.0
"""Seconds without typing after which control is handed back (the config file's ``idle_release``)."""

DEFAULT_SCROLLBACK = 10_000
"""Lines of scrollback a watched session's model keeps (a dashboard's tiles keep none)."""
