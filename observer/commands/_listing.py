"""Asking an ``observer serve`` endpoint for its sessions (GET /sessions) and printing them: the
parts ``observer sessions`` and the commands that pick a session share."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from observer.credentials.store import Secret
    from observer.errors import TokenStoreError
    from observer.protocol.endpoints import Endpoint

TIMEOUT = 10.0


def fetch_listing(url: str, api_version: str | None = None) -> dict[str, Any]:
    """The sessions the endpoint at ``url`` serves, with the token from the keyring or
    OBSERVER_TOKEN (``observer watch URL`` without an identifier asks this too).

    Raises:
        ConnectionFailed: unreachable, refused (``status`` 404: it lists no sessions), or not
            a list; the message says what to do.
    """
    from observer.protocol.endpoints import parse_endpoint
    from observer.transport.settings import API_VERSION

    endpoint = parse_endpoint(url)
    token, keyring_error = checked_token(url, endpoint)
    status, body = fetch(endpoint, token, api_version or API_VERSION)
    if status != 200:
        if status in (401, 403) and token is None and keyring_error is not None:
            raise keyring_error
        raise refusal(endpoint, status, body, token is not None)
    return parse_listing(body, endpoint)


def checked_token(url: str, endpoint: Endpoint) -> tuple[Secret | None, TokenStoreError | None]:
    """The token for ``url`` (keyring or OBSERVER_TOKEN) once it may go there; or None and why
    the keyring could not give one (maybe the endpoint needs none: say why if it does)."""
    import datetime as dt

    from observer.credentials.store import TokenStore
    from observer.errors import TokenStoreError
    from observer.transport import ConnectionSettings, check_token

    try:
        token, keyring_error = TokenStore().get(url), None
    except TokenStoreError as error:
        token, keyring_error = None, error
    check_token(endpoint, token, ConnectionSettings(url), dt.datetime.now(dt.UTC))
    return token, keyring_error


def fetch(endpoint: Endpoint, token: Secret | None, api_version: str) -> tuple[int, str]:
    """``GET <base>/sessions?api-version=...`` with the bearer token; (status, body)."""
    from urllib.parse import quote

    path = endpoint.path.rstrip("/") + "/sessions?api-version=" + quote(api_version, safe="")
    headers = {"Authorization": f"Bearer {token.reveal()}"} if token is not None else {}
    return get(endpoint, path, headers)


def get(endpoint: Endpoint, path: str, headers: dict[str, str]) -> tuple[int, str]:
    """``GET path`` at the endpoint's host; (status, body).

    Redirects are not followed: a token must not go wherever a response points.
    """
    import http.client
    import ssl

    from observer.errors import ConnectionFailed

    connection: http.client.HTTPConnection
    if endpoint.secure:
        context = ssl.create_default_context()
        connection = http.client.HTTPSConnection(
            endpoint.host, endpoint.port, timeout=TIMEOUT, context=context
        )
    else:
        connection = http.client.HTTPConnection(endpoint.host, endpoint.port, timeout=TIMEOUT)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, response.read(1 << 20).decode("utf-8", "replace")
    except OSError as error:  # refused, DNS, TLS, timeout: in the connection's own words
        from observer.transport.failures import describe_failure

        raise describe_failure(error, endpoint, "", "Authorization" in headers) from None
    except http.client.HTTPException as error:
        reason = type(error).__name__
        raise ConnectionFailed(
            f"cannot reach {endpoint.origin}: {reason}",
            "check the URL and that the server runs",
            retryable=False,
        ) from None
    finally:
        connection.close()


def refusal(endpoint: Endpoint, status: int, body: str, has_token: bool) -> Exception:
    """The one-line error for a refused request."""
    from observer.credentials.store import token_advice
    from observer.errors import ConnectionFailed
    from observer.terminal.sanitize import sanitize

    origin = endpoint.origin
    text = sanitize(body.strip().splitlines()[0] if body.strip() else "")[:200]
    if text.startswith("<"):  # a web page (ttyd's, Jupyter's): markup says nothing here
        text = ""
    if status in (401, 403) and text in ("", "Unauthenticated"):
        what = "requires a token" if not has_token else "refused the token (HTTP 403)"
        return ConnectionFailed(f"{origin} {what}", token_advice(origin), retryable=False)
    if status == 404:
        return ConnectionFailed(
            f"{origin} does not list sessions (HTTP 404{': ' + text if text else ''})",
            "is it an `observer serve` endpoint, and is its URL the one you watch? A ttyd "
            "serves one program per connection (--protocol ttyd); a Jupyter Server lists its "
            "terminals (--protocol jupyter)",
            retryable=False,
            status=status,
        )
    return ConnectionFailed(
        f"the endpoint refused: {text} (HTTP {status})", retryable=False, status=status
    )


def parse_listing(body: str, endpoint: Endpoint) -> dict[str, Any]:
    """The endpoint's JSON, checked to be a list of sessions."""
    from observer.errors import ConnectionFailed

    try:
        listing = json.loads(body)
        sessions = listing["sessions"]
        if not isinstance(sessions, list) or not all(isinstance(s, dict) for s in sessions):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        raise ConnectionFailed(
            f"{endpoint.origin} answered with something that is not a list of sessions",
            "is it an `observer serve` endpoint?",
            retryable=False,
        ) from None
    return dict(listing)


def print_table(sessions: list[dict[str, Any]]) -> None:
    """One row per session; every value from the endpoint shown as safe text."""
    from observer.client import state_words
    from observer.terminal.sanitize import sanitize

    if not sessions:
        print("the endpoint holds no session", file=sys.stderr)
        return
    header = ("IDENTIFIER", "SIZE", "WATCHERS", "HOLDER", "EXITED", "WATCHING", "TITLE")
    rows: list[tuple[str, ...]] = [header]
    for entry in sessions:
        exited = state_words.exited_column(bool(entry.get("exited")), entry.get("status"))
        holder, watching = _people(entry)
        rows.append(
            tuple(
                sanitize(str(cell))[:60]
                for cell in (
                    entry.get("identifier", "?"),
                    f"{entry.get('cols', '?')}x{entry.get('rows', '?')}",
                    entry.get("watchers", "?"),
                    holder or state_words.holder(entry.get("holder")),
                    exited,
                    watching,
                    entry.get("title") or "-",
                )
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )


def _people(entry: dict[str, Any]) -> tuple[str, str]:
    """The holder's label (empty when unknown or nobody) and the others' labels, grouped; from
    a listing entry's ``people`` (servers before it list none: ``-``)."""
    from observer.client.people import listed
    from observer.protocol.people_frames import clean_label

    people = entry.get("people")
    if not isinstance(people, list):
        return "", "-"
    holder, watching = "", []
    for person in people:
        if not isinstance(person, dict) or not isinstance(person.get("label"), str):
            continue
        label = clean_label(person["label"])
        if person.get("holder") is True:
            holder = label
        else:
            watching.append(label)
    return holder, listed(watching)
