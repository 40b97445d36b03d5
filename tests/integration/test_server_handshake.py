"""Upgrade or refusal: what a client gets for each request, from a real server on loopback."""

from __future__ import annotations

import datetime

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519
from websockets.typing import Subprotocol

from observer.auth.tokens import Authenticator, JwtVerifier, TokenDigests
from observer.protocol.events import SessionStarted, SnapshotReceived
from tests.integration.server_support import (
    CONTROL_TOKEN,
    WATCH_TOKEN,
    observe,
    refusal,
    running_server,
)

Q = "/?identifier=default&api-version=2024-02-02-preview"
SLEEP = ["sleep", "30"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_a_valid_token_gets_101_with_the_subprotocol_then_hello_then_a_snapshot() -> None:
    async with running_server(SLEEP) as server, observe(server) as client:
        assert client.ws.subprotocol == "observer.v1"
        await client.until(lambda c: len(c.events) >= 2)
        hello, snapshot = client.events[:2]
        assert isinstance(hello, SessionStarted)
        assert (hello.identifier, hello.mode, hello.cols, hello.rows) == (
            "default",
            "watch",
            120,
            40,
        )
        assert (hello.holder, hello.watchers) == ("none", 1)
        assert isinstance(snapshot, SnapshotReceived) and not snapshot.gap


async def test_no_token_and_a_wrong_token_get_403_unauthenticated() -> None:
    async with running_server(SLEEP) as server:
        assert await refusal(server, Q) == (403, "Unauthenticated")
        assert await refusal(server, Q, bearer("wrong")) == (403, "Unauthenticated")
        assert await refusal(server, Q, {"Authorization": CONTROL_TOKEN}) == (
            403,
            "Unauthenticated",
        )
        # Nothing else is revealed before the token is good, not even a bad api-version.
        assert await refusal(server, "/?identifier=x") == (403, "Unauthenticated")


async def test_a_watch_only_token_asking_for_control_gets_403_saying_so() -> None:
    async with running_server(SLEEP) as server:
        status, body = await refusal(server, Q + "&mode=control", bearer(WATCH_TOKEN))
        assert status == 403
        assert "watching only" in body
        async with observe(server, token=WATCH_TOKEN) as client:
            assert client.mode == "watch"


@pytest.mark.parametrize(
    ("query", "body_part"),
    [
        ("/?identifier=default", "supported: 2024-02-02-preview"),
        ("/?identifier=default&api-version=2023-01-01", "supported: 2024-02-02-preview"),
        ("/?api-version=2024-02-02-preview", "identifier"),
        ("/?identifier=../etc&api-version=2024-02-02-preview", "identifier"),
        (Q + "&mode=admin", "supported: watch, control"),
        (Q + "&since=-5", "since"),
        (Q + "&identifier=again", "twice"),
    ],
)
async def test_bad_requests_get_400_naming_what_is_supported(query: str, body_part: str) -> None:
    async with running_server(SLEEP) as server:
        status, body = await refusal(server, query, bearer(CONTROL_TOKEN))
        assert status == 400
        assert body_part in body


async def test_an_unknown_identifier_gets_404_unless_sessions_are_created_on_connect() -> None:
    unknown = "/?identifier=other&api-version=2024-02-02-preview"
    async with running_server(SLEEP) as server:
        assert await refusal(server, unknown, bearer(CONTROL_TOKEN)) == (404, "Unknown identifier")
    async with running_server(SLEEP, create_on_connect=True) as server:
        async with observe(server, identifier="other") as client:
            assert client.events[0].identifier == "other"  # type: ignore[union-attr]
        assert sorted(server.sessions) == ["default", "other"]


async def test_a_browser_origin_is_refused_unless_allowed() -> None:
    allowed = "https://ops.example"
    async with running_server(SLEEP, allowed_origins=[allowed]) as server:
        status, body = await refusal(
            server, Q, {**bearer(CONTROL_TOKEN), "Origin": "https://evil.example"}
        )
        assert status == 403 and "Origin" in body
        async with observe(server, origin=allowed) as client:  # type: ignore[arg-type]
            assert client.session.offset is not None


async def test_a_client_that_offers_an_unknown_subprotocol_gets_400_naming_those_served() -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    async with running_server(SLEEP) as server:
        with pytest.raises(InvalidStatus) as info:
            async with connect(
                f"ws://127.0.0.1:{server.port}{Q}",
                additional_headers=bearer(CONTROL_TOKEN),
                subprotocols=[Subprotocol("chat")],
            ):
                pass
        assert info.value.response.status_code == 400
        assert b"observer.v1" in info.value.response.body
        assert b"none for the raw terminal stream" in info.value.response.body


def _jwt_setup() -> tuple[ed25519.Ed25519PrivateKey, bytes]:
    key = ed25519.Ed25519PrivateKey.generate()
    pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return key, pem


async def test_jwt_tokens_are_checked_for_signature_algorithm_expiry_and_audience() -> None:
    key, pem = _jwt_setup()
    auth = Authenticator(TokenDigests(), JwtVerifier(pem, "observer", issuer="sandbox-ca"))
    now = datetime.datetime.now(tz=datetime.UTC)
    claims = {"aud": "observer", "iss": "sandbox-ca", "exp": now + datetime.timedelta(minutes=5)}

    def token(**changes: object) -> str:
        return jwt.encode({**claims, **changes}, key, algorithm="EdDSA")

    async with running_server(SLEEP, auth=auth) as server:
        async with observe(server, token=token(role="control"), control=True) as client:
            assert client.mode == "control"
        status, body = await refusal(server, Q + "&mode=control", bearer(token()))
        assert status == 403 and "watching only" in body
        expired = token(exp=now - datetime.timedelta(minutes=1))
        for bad in (expired, token(aud="someone-else"), token(iss="elsewhere")):
            assert await refusal(server, Q, bearer(bad)) == (403, "Unauthenticated")
        # Algorithm confusion: an HMAC token "signed" with the public key must not pass.
        forged = jwt.encode({**claims, "role": "control"}, "s" * 32, algorithm="HS256")
        assert await refusal(server, Q, bearer(forged)) == (403, "Unauthenticated")
