"""The watch screen's own commands in the palette (``ctrl+p``): copy and the full-window view.

The app's provider lists app-wide commands; this one asks the screen the palette was opened
from for its commands (:meth:`~observer.app.screens.watch.WatchScreen.view_commands`), so a
command lives beside the action it runs.
"""

from __future__ import annotations

from textual.app import SystemCommand
from textual.command import DiscoveryHit, Hit, Hits, Provider


class ViewCommands(Provider):
    """Commands of the screen the palette was opened from."""

    def _commands(self) -> list[SystemCommand]:
        commands = getattr(self.screen, "view_commands", None)
        return list(commands()) if commands is not None else []

    async def discover(self) -> Hits:
        """Every command, for the palette's empty query."""
        for name, help_text, callback, _ in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        """The commands whose name matches ``query``."""
        matcher = self.matcher(query)
        for name, help_text, callback, _ in self._commands():
            if (score := matcher.match(name)) > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
