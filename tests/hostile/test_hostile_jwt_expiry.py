"""A JWT's expiry binds whatever number form admitted it.

RFC 7519 §2 makes ``exp`` a NumericDate, a JSON number that may have a fraction: JavaScript
issuers write ``Date.now() / 1000 + 3600``. PyJWT admits such a token; the server must then close
its connection when it expires, as it does for an integer ``exp``. A JSON string is no
NumericDate, so a token whose ``exp`` is one is refused at connect. Real server on loopback,
tokens signed with a real Ed25519 key.
"""

from __future__ import annotations

import time

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519

from observer.auth.tokens import Authenticator, JwtVerifier
from tests.hostile.test_hostile_revocation import closed_with
from tests.integration.server_support import observe, refusal, running_server

pytestmark = pytest.mark.timeout(30)
Q = "/?identifier=default&api-version=2024-02-02-preview"
KEY = ed25519.Ed25519PrivateKey.generate()
PEM = KEY.public_key().public_bytes(
    serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
)


def token(exp: object) -> str:
    return jwt.encode({"aud": "observer", "exp": exp, "sub": "contractor"}, KEY, algorithm="EdDSA")


async def test_a_fractional_exp_closes_the_connection_when_it_passes() -> None:
    auth = Authenticator(jwt=JwtVerifier(PEM, "observer"))
    async with (
        running_server(["sleep", "30"], auth=auth) as server,
        observe(server, token=token(time.time() + 1.5)) as client,
    ):
        assert await closed_with(client.ws, timeout=6) == (1008, "token expired")


@pytest.mark.parametrize("exp", ["{:.0f}", "{:.3f}"], ids=["integer-string", "fraction-string"])
async def test_an_exp_written_as_a_string_is_refused_at_connect(exp: str) -> None:
    auth = Authenticator(jwt=JwtVerifier(PEM, "observer"))
    async with running_server(["sleep", "30"], auth=auth) as server:
        later = exp.format(time.time() + 3600)
        status, body = await refusal(server, Q, {"Authorization": f"Bearer {token(later)}"})
        assert (status, body) == (403, "Unauthenticated")
