"""Every way a connection fails gives one clear message, and refusals are never retried.

Real servers on 127.0.0.1: a websockets server answering the upgrade with an HTTP refusal, a TLS
server whose certificate is not trusted, a TCP listener that never answers, a closed port.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import ssl
from pathlib import Path

import jwt
import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from observer.credentials.store import Secret
from observer.errors import ConnectionFailed
from observer.transport.safety import RedactingLogger
from observer.transport.settings import ConnectionSettings
from tests.client_support import Client, Reconnecting, Seen

pytestmark = pytest.mark.timeout(60)
CANARY = "canary-failure-token-93af"


class Refuser:
    def __init__(self, status: int, body: str) -> None:
        self.status, self.body, self.requests = status, body, 0

    def __call__(self, connection: ServerConnection, request: Request) -> Response:
        self.requests += 1
        return connection.respond(self.status, self.body)


async def first_failure(connection: Client, events: list[Seen] | None = None) -> ConnectionFailed:
    with pytest.raises(ConnectionFailed) as failure:
        async for event in connection.events():
            if events is not None:
                events.append(event)
    return failure.value


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (
            403,
            "Unauthenticated",
            "the endpoint rejected the token for ws://127.0.0.1:{port} — run `observer auth login ws://127.0.0.1:{port}`",
        ),
        (
            403,
            "this token may only watch",
            "the endpoint refused: this token may only watch (HTTP 403)",
        ),
        (
            400,
            "unsupported api-version; supported: 2024-02-02-preview",
            "the endpoint refused the request: unsupported api-version; supported: 2024-02-02-preview (HTTP 400)",
        ),
        (404, "no such session", "has no session 'agent/1' (HTTP 404) — check --identifier"),
    ],
)
async def test_refusals_are_clear_and_never_retried(status: int, body: str, expected: str) -> None:
    refuser = Refuser(status, body)
    async with serve(lambda c: c.wait_closed(), "127.0.0.1", 0, process_request=refuser) as server:
        port = server.sockets[0].getsockname()[1]
        settings = ConnectionSettings(
            f"ws://127.0.0.1:{port}", identifier="agent/1", retry_first=True, initial_delay=0.01
        )
        events: list[Seen] = []
        failure = await first_failure(Client(settings, Secret(CANARY)), events)
    assert expected.format(port=port) in str(failure)
    assert failure.status == status and failure.retryable is False
    assert refuser.requests == 1 and not any(isinstance(e, Reconnecting) for e in events)
    assert CANARY not in str(failure) and CANARY not in repr(failure)


async def test_without_a_token_a_403_says_to_log_in() -> None:
    async with serve(
        lambda c: c.wait_closed(), "127.0.0.1", 0, process_request=Refuser(403, "Unauthenticated")
    ) as server:
        port = server.sockets[0].getsockname()[1]
        failure = await first_failure(Client(ConnectionSettings(f"ws://127.0.0.1:{port}")))
    assert (
        str(failure)
        == f"ws://127.0.0.1:{port} requires a token — run `observer auth login ws://127.0.0.1:{port}`"
    )


async def test_a_server_error_is_retried_with_growing_delays_when_asked() -> None:
    refuser = Refuser(503, "starting")
    async with serve(lambda c: c.wait_closed(), "127.0.0.1", 0, process_request=refuser) as server:
        port = server.sockets[0].getsockname()[1]
        settings = ConnectionSettings(
            f"ws://127.0.0.1:{port}", retry_first=True, initial_delay=0.02, max_delay=0.08
        )
        connection = Client(settings, rand=lambda: 1.0)
        delays: list[float] = []
        stream = connection.events()
        async for event in stream:
            if isinstance(event, Reconnecting):
                delays.append(event.delay)
                assert "is unavailable (HTTP 503: starting)" in event.reason
            if len(delays) == 4:
                break
        await stream.aclose()
    assert delays == [0.02, 0.04, 0.08, 0.08]  # doubling, capped; rand=1.0 gives the full delay
    assert refuser.requests >= 4


async def test_a_refused_port_fails_fast_on_first_connect() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    failure = await first_failure(Client(ConnectionSettings(f"ws://127.0.0.1:{port}")))
    assert (
        str(failure)
        == f"ws://127.0.0.1:{port} refused the connection — is the server running on port {port}?"
    )


async def test_wss_to_a_plain_websocket_server_is_a_tls_failure_that_suggests_ws() -> None:
    async def greet(connection: ServerConnection) -> None:
        await connection.send("hello")

    async with serve(greet, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        failure = await first_failure(Client(ConnectionSettings(f"wss://127.0.0.1:{port}/x")))
    assert str(failure) == (
        f"the TLS handshake with wss://127.0.0.1:{port} failed: the server does not speak TLS "
        f"on this port — use ws://127.0.0.1:{port}/x if it serves plain WebSocket"
    )
    assert failure.retryable is False


async def test_wss_to_a_plain_http_server_is_a_tls_failure_that_suggests_ws() -> None:
    async def http(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1)
        writer.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(http, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        failure = await first_failure(Client(ConnectionSettings(f"wss://127.0.0.1:{port}")))
    finally:
        server.close()
    assert str(failure).startswith(f"the TLS handshake with wss://127.0.0.1:{port} failed: ")
    assert str(failure).endswith(f" — use ws://127.0.0.1:{port}/ if it serves plain WebSocket")


async def test_a_silent_server_times_out() -> None:
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        failure = await first_failure(
            Client(ConnectionSettings(f"ws://127.0.0.1:{port}", open_timeout=0.3))
        )
    finally:
        server.close()
    assert "did not answer in time" in str(failure)


async def test_an_unresolvable_host_is_a_dns_failure() -> None:
    settings = ConnectionSettings("wss://no-such-host.invalid", open_timeout=5)
    failure = await first_failure(Client(settings, Secret(CANARY)))
    assert (
        str(failure)
        == "cannot resolve no-such-host.invalid (DNS) — check the host name and your network"
    )


def self_signed(tmp_path: Path) -> ssl.SSLContext:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .sign(key, hashes.SHA256())
    )
    (tmp_path / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "key.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    return context


async def test_an_untrusted_certificate_is_refused_and_the_token_never_sent(tmp_path: Path) -> None:
    refuser = Refuser(403, "Unauthenticated")
    async with serve(
        lambda c: c.wait_closed(),
        "127.0.0.1",
        0,
        ssl=self_signed(tmp_path),
        process_request=refuser,
    ) as server:
        port = server.sockets[0].getsockname()[1]
        settings = ConnectionSettings(f"wss://localhost:{port}", retry_first=True)
        failure = await first_failure(Client(settings, Secret(CANARY)))
    assert str(failure).startswith(
        f"the TLS certificate of wss://localhost:{port} did not verify (self-signed certificate)"
    )
    assert failure.retryable is False and refuser.requests == 0


async def test_a_trusted_certificate_carries_the_token(tmp_path: Path) -> None:
    refuser = Refuser(403, "Unauthenticated")
    async with serve(
        lambda c: c.wait_closed(),
        "127.0.0.1",
        0,
        ssl=self_signed(tmp_path),
        process_request=refuser,
    ) as server:
        port = server.sockets[0].getsockname()[1]
        trusting = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
        settings = ConnectionSettings(f"wss://localhost:{port}", ssl_context=trusting)
        failure = await first_failure(Client(settings, Secret(CANARY)))
    assert failure.status == 403 and refuser.requests == 1


@pytest.mark.parametrize(
    ("url", "context", "message"),
    [
        (
            "ws://sandbox.example:8765",
            None,
            "refusing to send the token for ws://sandbox.example:8765 over unencrypted ws://",
        ),
        (
            "http://10.0.0.5:8888",
            None,
            "refusing to send the token for ws://10.0.0.5:8888 over unencrypted ws://",
        ),
        (
            "wss://sandbox.example",
            "unverified",
            "over TLS without certificate and host name verification",
        ),
    ],
)
async def test_a_token_is_never_sent_where_it_could_be_read(
    url: str, context: str | None, message: str
) -> None:
    ssl_context = ssl._create_unverified_context() if context else None
    settings = ConnectionSettings(url, ssl_context=ssl_context)
    failure = await first_failure(Client(settings, Secret(CANARY)))
    assert message in str(failure) and failure.retryable is False


async def test_expired_or_foreign_jwts_are_refused_before_connecting() -> None:
    refuser = Refuser(403, "Unauthenticated")
    past = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)
    future = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
    expired = jwt.encode({"aud": "pool", "exp": past}, "k" * 32, algorithm="HS256")
    foreign = jwt.encode({"aud": "other-pool", "exp": future}, "k" * 32, algorithm="HS256")
    async with serve(lambda c: c.wait_closed(), "127.0.0.1", 0, process_request=refuser) as server:
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        settings = ConnectionSettings(url, audience="pool")
        old = await first_failure(Client(settings, Secret(expired)))
        wrong = await first_failure(Client(settings, Secret(foreign)))
    assert "expired" in str(old) and f"run `observer auth login {url}` with a fresh token" in str(
        old
    )
    assert (
        str(wrong)
        == f"the token for {url} is for other-pool, not pool — run `observer auth login {url}` with a token for pool"
    )
    assert refuser.requests == 0


def test_backoff_is_jittered_exponential_and_capped() -> None:
    from observer.client.reconnect import Backoff

    values = iter([0.0, 1.0, 0.5, 0.0, 1.0, 1.0])
    backoff = Backoff(0.5, 10.0, rand=lambda: next(values))
    delays = [backoff.next_delay() for _ in range(6)]
    # ceilings 0.5, 1, 2, 4, 8, 10 (capped); each delay lies in [ceiling/2, ceiling]
    assert delays == [0.25, 1.0, 1.5, 2.0, 8.0, 10.0]
    backoff.reset()
    backoff._rand = lambda: 1.0
    assert backoff.next_delay() == 0.5


def test_the_redacting_logger_blanks_tokens_headers_and_ttyd_inits(
    caplog: pytest.LogCaptureFixture,
) -> None:
    import logging

    caplog.set_level(logging.DEBUG, logger="observer.test")
    logger = RedactingLogger(logging.getLogger("observer.test"), [CANARY])
    logger.debug("> %s: %s", "Authorization", "Basic ZZZ")
    logger.debug('> TEXT \'{"AuthToken":"dXNlcjpw...\' [40 bytes]')
    logger.debug("token is %s here", CANARY)
    assert [r.getMessage() for r in caplog.records] == [
        "> Authorization: <redacted>",
        "> TEXT '{\"AuthToken <redacted>",
        "token is <redacted> here",
    ]


async def test_a_policy_close_after_the_upgrade_is_final_and_says_why() -> None:
    accepted = 0

    async def reject(connection: ServerConnection) -> None:
        nonlocal accepted
        accepted += 1
        await connection.close(1008, "authentication failed\x1b[31m")

    async with serve(reject, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        settings = ConnectionSettings(f"ws://127.0.0.1:{port}", initial_delay=0.01)
        failure = await first_failure(Client(settings, Secret(CANARY)))
    assert str(failure) == (
        f"ws://127.0.0.1:{port} closed the connection (code 1008: authentication failed\ufffd[31m) — "
        f"check the token: run `observer auth login ws://127.0.0.1:{port}`"
    )
    assert failure.retryable is False and accepted == 1


def test_each_protocol_gets_its_own_request_url_and_authorization() -> None:
    from observer.protocol.endpoints import parse_endpoint
    from observer.transport.request import auth_headers, request_url

    token = Secret("user:pw")
    jupyter = parse_endpoint("https://lab.example/base/")
    settings = ConnectionSettings("https://lab.example/base/", identifier="1 2")
    assert request_url(jupyter, settings, "jupyter", control=False, since=None) == (
        "wss://lab.example:443/base/terminals/websocket/1%202"
    )
    native = parse_endpoint("wss://s.example")
    settings = ConnectionSettings("wss://s.example", identifier="agent/7", api_version="2030-01-01")
    assert request_url(native, settings, "observer", control=True, since=4096) == (
        "wss://s.example:443/?identifier=agent%2F7&api-version=2030-01-01&mode=control&since=4096"
        "&features=echo%2Cpeople"
    )
    assert auth_headers("observer", token) == {"Authorization": "Bearer user:pw"}
    assert auth_headers(None, token) == {"Authorization": "Bearer user:pw"}
    assert auth_headers("jupyter", token) == {"Authorization": "token user:pw"}
    assert auth_headers("ttyd", token) == {"Authorization": "Basic dXNlcjpwdw=="}
    assert auth_headers("raw", None) == {}
