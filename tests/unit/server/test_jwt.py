"""JWT bearer tokens: verified with a public key, the algorithm pinned by the key's type."""

from __future__ import annotations

import datetime

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from observer.auth.tokens import JwtVerifier
from observer.errors import UsageError


def claims() -> dict[str, object]:
    """Valid claims, expiring 5 minutes from now (now: when the test runs, not when collected)."""
    exp = datetime.datetime.now(tz=datetime.UTC) + datetime.timedelta(minutes=5)
    return {"aud": "observer", "exp": exp, "role": "control"}


def pem(key: object) -> bytes:
    return key.public_key().public_bytes(  # type: ignore[attr-defined,no-any-return]
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


@pytest.mark.parametrize(
    ("key", "algorithm"),
    [
        (rsa.generate_private_key(public_exponent=65537, key_size=2048), "RS256"),
        (ec.generate_private_key(ec.SECP256R1()), "ES256"),
        (ec.generate_private_key(ec.SECP384R1()), "ES384"),
        (ed25519.Ed25519PrivateKey.generate(), "EdDSA"),
    ],
    ids=["rsa", "p256", "p384", "ed25519"],
)
def test_the_algorithm_is_pinned_from_the_key(key: object, algorithm: str) -> None:
    verifier = JwtVerifier(pem(key), "observer")
    assert verifier.algorithm == algorithm
    assert verifier.role_of(jwt.encode(claims(), key, algorithm=algorithm)) == "control"  # type: ignore[arg-type]


def test_tokens_from_another_key_or_without_a_signature_are_refused() -> None:
    key, other = ed25519.Ed25519PrivateKey.generate(), ed25519.Ed25519PrivateKey.generate()
    verifier = JwtVerifier(pem(key), "observer")
    assert verifier.role_of(jwt.encode(claims(), other, algorithm="EdDSA")) is None
    unsigned = jwt.encode(claims(), None, algorithm="none")  # type: ignore[arg-type]
    assert verifier.role_of(unsigned) is None
    assert verifier.role_of("not.a.jwt") is None


def test_exp_and_aud_are_required_and_the_role_defaults_to_watch() -> None:
    key = ed25519.Ed25519PrivateKey.generate()
    verifier = JwtVerifier(pem(key), "observer")
    no_exp = {k: v for k, v in claims().items() if k != "exp"}
    no_aud = {k: v for k, v in claims().items() if k != "aud"}
    assert verifier.role_of(jwt.encode(no_exp, key, algorithm="EdDSA")) is None
    assert verifier.role_of(jwt.encode(no_aud, key, algorithm="EdDSA")) is None
    watcher = {**claims(), "role": "admin"}
    assert verifier.role_of(jwt.encode(watcher, key, algorithm="EdDSA")) == "watch"


def test_a_key_that_is_not_a_pem_public_key_is_a_clear_error() -> None:
    with pytest.raises(UsageError, match="not a PEM public key"):
        JwtVerifier(b"-----BEGIN NONSENSE-----", "observer")


def test_a_jwt_names_its_holder_and_may_be_scoped_to_identifiers() -> None:
    key = ed25519.Ed25519PrivateKey.generate()
    verifier = JwtVerifier(pem(key), "observer")

    def check(**extra: object) -> object:
        return verifier.check(jwt.encode({**claims(), **extra}, key, algorithm="EdDSA"))

    named = check(sub="u-17", name="Alice Example", identifiers=["agent-1"])
    assert named is not None
    assert named.label == "Alice Example" and named.scope == frozenset({"agent-1"})  # type: ignore[attr-defined]
    subject = check(sub="u-17")
    assert subject.label == "u-17" and subject.scope is None  # type: ignore[attr-defined]
    for malformed in ([], "agent-1", ["../x"], [1]):
        assert check(identifiers=malformed) is None
