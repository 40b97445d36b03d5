"""The user's own names a shell completes: profiles and groups, themes, session identifiers.

The completion scripts run ``observer completion --names KIND`` on TAB. Profiles, groups and
themes come from the config directory. Identifiers come from the profiles and from what their
endpoints list, asked with a short deadline and cached for :data:`CACHE_SECONDS` so TAB stays
quick. Completion never prompts: a keyring that would ask for a password (a locked encrypted
file) is not read, and a token goes only where observer would send it anyway. Any failure
completes nothing rather than printing an error into the command line.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

KINDS = ("profiles", "themes", "identifiers")
CACHE_SECONDS = 60.0
"""How long the identifiers an endpoint listed are reused."""
ASK_SECONDS = 2.0
"""How long TAB waits for the endpoints' listings, all together."""


def names(kind: str) -> list[str]:
    """The names of ``kind`` (one of :data:`KINDS`), sorted; empty when they cannot be read."""
    try:
        if kind == "profiles":
            return _profiles()
        if kind == "themes":
            return _themes()
        return _identifiers()
    except Exception:  # a broken config, no keyring, no network: complete nothing
        return []


def _profiles() -> list[str]:
    from observer.runtime.config import load_config

    config = load_config()
    return sorted({*config.profiles, *config.groups})


def _themes() -> list[str]:
    from observer.runtime.config import config_dir
    from observer.themes import load_themes

    themes, _ = load_themes(config_dir())
    return sorted(themes)


def _cache_file() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("observer", appauthor=False)) / "identifiers.json"


def _identifiers() -> list[str]:
    from observer.runtime.config import load_config

    profiles = load_config().profiles.values()
    known = {p.identifier for p in profiles if p.identifier}
    cache = _cache_file()
    try:
        saved = json.loads(cache.read_text(encoding="utf-8"))
        if time.time() - float(saved["at"]) < CACHE_SECONDS:
            return sorted(known | {str(i) for i in saved["identifiers"]})
    except (OSError, ValueError, KeyError, TypeError):
        pass  # no cache yet, or a damaged one: ask the endpoints again below
    listed = _listed({p.url: p.api_version for p in profiles if p.protocol in (None, "observer")})
    _save(cache, sorted(listed))
    return sorted(known | listed)


def _save(cache: Path, identifiers: list[str]) -> None:
    from observer.runtime.files import replace_file

    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        replace_file(cache, json.dumps({"at": time.time(), "identifiers": identifiers}))
    except OSError:
        pass  # completion works without its cache, only slower


def _listed(endpoints: dict[str, str]) -> set[str]:
    """The identifiers the endpoints list, each asked in a thread of its own; what has not
    answered within :data:`ASK_SECONDS` is left out."""
    # Imported here, before the clock starts: the deadline is for the endpoints, not for us.
    import observer.commands._listing
    import observer.credentials.store
    import observer.transport  # noqa: F401

    found: set[str] = set()
    lock = threading.Lock()

    def ask(url: str, api_version: str) -> None:
        listed = _listing(url, api_version)
        with lock:
            found.update(listed)

    threads = [threading.Thread(target=ask, args=item, daemon=True) for item in endpoints.items()]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + ASK_SECONDS
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    with lock:
        return set(found)


def _listing(url: str, api_version: str) -> set[str]:
    import datetime as dt

    from observer.commands._listing import fetch, parse_listing
    from observer.protocol.endpoints import parse_endpoint
    from observer.terminal.sanitize import sanitize
    from observer.transport import ConnectionSettings, check_token

    try:
        endpoint = parse_endpoint(url)
        token = _token_without_asking(url)
        check_token(endpoint, token, ConnectionSettings(url), dt.datetime.now(dt.UTC))
        status, body = fetch(endpoint, token, api_version)
        sessions: list[dict[str, Any]] = parse_listing(body, endpoint)["sessions"]
    except Exception:
        return set()
    if status != 200:
        return set()
    identifiers = {str(s.get("identifier", "")) for s in sessions}
    return {i for i in identifiers if i and sanitize(i) == i}  # never a control character


def _token_without_asking(url: str) -> Any:
    from observer.credentials.keyring_backend import asks_first
    from observer.credentials.store import TokenStore

    store = TokenStore()
    token = store.environment_token()
    if token is not None or asks_first(store.backend()):
        return token
    return store.get(url)
