"""Labels are text every person in a session reads: a JWT whose ``name`` claim carries an OSC
title sequence, a BEL and a right-to-left override, from a token issuer that does not check
them, reaches the others only as inert, bounded text; and a server that sends such labels (the
sandbox is not trusted) has them cleaned again by the client."""

from __future__ import annotations

import asyncio
import datetime
import json

import jwt
from cryptography.hazmat.primitives.asymmetric import ed25519
from websockets.asyncio.client import connect

from observer.auth.tokens import Authenticator, JwtVerifier, TokenDigests
from observer.protocol import frames
from observer.protocol.adapters.native import NativeAdapter, query
from observer.protocol.events import PeopleListed
from observer.protocol.people_frames import MAX_LABEL
from tests.integration.server_support import CONTROL_TOKEN, observe, running_server, url
from tests.unit.server.test_jwt import pem

HOSTILE = "\x1b]0;owned\x07eve\u202elivec\u2066" + "x" * 200
UNSAFE = ("\x1b", "\x07", "\u202e", "\u2066")


def hostile_jwt(key: ed25519.Ed25519PrivateKey) -> str:
    exp = datetime.datetime.now(tz=datetime.UTC) + datetime.timedelta(minutes=5)
    claims = {"aud": "observer", "exp": exp, "role": "control", "sub": "eve", "name": HOSTILE}
    return jwt.encode(claims, key, algorithm="EdDSA")


async def test_a_hostile_jwt_name_reaches_the_others_inert_and_bounded() -> None:
    key = ed25519.Ed25519PrivateKey.generate()
    auth = Authenticator(
        TokenDigests.from_tokens([("control", CONTROL_TOKEN)]), JwtVerifier(pem(key), "observer")
    )
    async with (
        running_server(["cat"], auth=auth) as server,
        observe(server) as watcher,
        connect(
            url(server, query("default")),
            additional_headers={"Authorization": f"Bearer {hostile_jwt(key)}"},
            subprotocols=["observer.v1"],
        ),
    ):
        raw: list[str] = []
        async with asyncio.timeout(10):
            while not any("owned" in message for message in raw):
                message = await watcher.ws.recv()
                if isinstance(message, str) and '"type":"people"' in message:
                    raw.append(message)
        frame = json.loads(raw[-1])
        label = frame["people"][-1]["label"]
        assert not any(char in label for char in UNSAFE)
        assert label.startswith("\ufffd]0;owned\ufffdeve\ufffd") and len(label) == MAX_LABEL


def test_a_hostile_servers_labels_are_cleaned_by_the_client() -> None:
    adapter = NativeAdapter()
    adapter.receive(frames.encode(frames.Hello("a", "watch", 80, 24, 0, "none", 1, "")))
    person = {"id": 7, "label": HOSTILE, "role": "control", "since": 1.0, "asking": True}
    message = json.dumps({"type": "people", "you": 1, "holder": 7, "people": [person]})
    [event] = adapter.receive(message)
    assert isinstance(event, PeopleListed)
    label = event.people[0].label
    assert not any(char in label for char in UNSAFE) and len(label) <= MAX_LABEL
