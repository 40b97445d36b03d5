"""Which session a URL means: the one rule of ``watch``, ``record``, ``config add`` and ``sessions``.

An identifier given is used. A peer that ignores identifiers (ttyd, a raw bridge) needs none.
Otherwise the endpoint is asked what it serves (``observer serve``: ``GET /sessions``; Jupyter
Server: ``GET /api/terminals``): the only one is used; several are listed, and the error says
to choose one with ``--identifier``. Auto-detection asks as ``observer serve`` is asked; an
endpoint that answers without a listing (HTTP 404 from a ttyd, 426 from a bare WebSocket
bridge) needs no identifier either: the connection then finds out what it is.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from observer.errors import ConnectionFailed, UsageError
from observer.protocol.adapters import JUPYTER_PATH, guess_protocol

if TYPE_CHECKING:
    from observer.protocol.adapters import ProtocolName

ONE_PER_CONNECTION = {
    "ttyd": "ttyd serves one program per connection: there is no session to list",
    "raw": "a raw bridge serves one stream per connection: there is no session to list",
}


def peer_of(url: str, protocol: ProtocolName | None) -> ProtocolName | None:
    """The protocol given, else the one the URL shows (Jupyter's terminal path), else None."""
    from observer.protocol.endpoints import parse_endpoint

    return protocol or guess_protocol(parse_endpoint(url).path)


def identifier_for(
    url: str, identifier: str, protocol: ProtocolName | None, api_version: str | None
) -> str:
    """The identifier to connect with (see the module docstring).

    Raises:
        UsageError: the endpoint serves several sessions (they are printed first) or none.
        ConnectionFailed: it could not be asked (unreachable, a refused token).
    """
    if identifier:
        return identifier
    peer = peer_of(url, protocol)
    if peer in ONE_PER_CONNECTION:
        return ""
    if peer == "jupyter":
        if JUPYTER_PATH in url:  # the URL names the terminal
            return ""
        names = [str(t.get("name", "")) for t in jupyter_terminals(url)]
        return _the_only(url, names, "terminal", lambda: print_terminals(jupyter_terminals(url)))
    from observer.commands._listing import fetch_listing, print_table

    try:
        sessions = fetch_listing(url, api_version)["sessions"]
    except ConnectionFailed as error:
        if peer is None and error.status not in (None, 401, 403):
            return ""  # answers, but lists nothing: not an `observer serve` (a ttyd, a bridge)
        if error.status == 404:
            raise UsageError(f"which session at {url}?", "add --identifier ID") from None
        raise
    names = [str(s.get("identifier", "")) for s in sessions]
    return _the_only(url, names, "session", lambda: print_table(sessions))


def _the_only(url: str, names: list[str], kind: str, show: Any) -> str:
    from observer.terminal.sanitize import sanitize

    if len(names) == 1 and names[0] and sanitize(names[0]) == names[0]:
        return names[0]  # a name with control characters is never taken unasked
    if not names:
        advice = "start one with `observer serve -- CMD`" if kind == "session" else (
            "open a terminal in Jupyter first"
        )  # fmt: skip
        raise UsageError(f"{url} serves no {kind} now", advice)
    show()
    listed = ", ".join(sanitize(n)[:60] for n in names)
    count = f"{len(names)} {kind}s" if len(names) > 1 else f"a {kind}"
    raise UsageError(f"{count} at {url} ({listed})", "add --identifier ID")


def jupyter_terminals(url: str) -> list[dict[str, Any]]:
    """The terminals a Jupyter Server at ``url`` has open (``GET /api/terminals``).

    Raises:
        ConnectionFailed: unreachable, refused, or not a list of terminals.
    """
    from observer.commands._listing import checked_token, get, refusal
    from observer.protocol.endpoints import parse_endpoint

    endpoint = parse_endpoint(url)
    token, keyring_error = checked_token(url, endpoint)
    base = endpoint.path.split(JUPYTER_PATH)[0].rstrip("/")
    headers = {"Authorization": f"token {token.reveal()}"} if token is not None else {}
    status, body = get(endpoint, base + "/api/terminals", headers)
    if status != 200:
        if status in (401, 403) and token is None and keyring_error is not None:
            raise keyring_error
        raise refusal(endpoint, status, body, token is not None)
    try:
        terminals = json.loads(body)
        if not isinstance(terminals, list) or not all(isinstance(t, dict) for t in terminals):
            raise TypeError
    except (ValueError, TypeError):
        raise ConnectionFailed(
            f"{endpoint.origin} answered with something that is not a list of terminals",
            "is it a Jupyter Server?",
            retryable=False,
        ) from None
    return terminals


def print_terminals(terminals: list[dict[str, Any]]) -> None:
    """One row per Jupyter terminal: its name and when it was last active, as safe text."""
    from observer.terminal.sanitize import sanitize

    rows = [("NAME", "LAST ACTIVITY")]
    rows += [(sanitize(str(t.get("name", "?")))[:60], sanitize(str(t.get("last_activity", "-")))[:40])
             for t in terminals]  # fmt: skip
    width = max(len(row[0]) for row in rows)
    for name, active in rows:
        print(f"{name.ljust(width)}  {active}".rstrip())


def show_served(url: str, protocol: ProtocolName | None, api_version: str | None, *,
                as_json: bool) -> int:  # fmt: skip
    """``observer sessions``: what the endpoint serves, by the same rule; the exit status."""
    from observer.commands._listing import fetch_listing, print_table
    from observer.errors import joined

    peer = peer_of(url, protocol)
    if peer in ONE_PER_CONNECTION:
        watch = f"observer watch {url} --protocol {peer}"
        print(joined(ONE_PER_CONNECTION[peer], f"watch it with `{watch}`"))
        return 0
    if peer == "jupyter":
        terminals = jupyter_terminals(url)
        if as_json:
            print(json.dumps(terminals, indent=2))
        elif terminals:
            print_terminals(terminals)
        else:
            print("the Jupyter Server has no terminal open", file=sys.stderr)
        return 0
    listing = fetch_listing(url, api_version)
    if as_json:
        print(json.dumps(listing, indent=2))
    else:
        print_table(listing["sessions"])
    return 0
