"""A token scoped to one agent guesses other identifiers: every guess is answered word for word
as a session that does not exist, whether it exists or not, and the listing shows only its own
session. Before scopes, a teammate invited to one agent could list and watch them all."""

from __future__ import annotations

import json

import pytest

from observer.auth.token_file import TokenEntry
from observer.auth.tokens import Authenticator, TokenDigests, digest
from observer.protocol.adapters.native import query
from tests.integration.server_support import observe, refusal, running_server
from tests.integration.test_server_sessions import http_get

CAROL = "carol-scoped-token"
BOSS = "unscoped-control-token"
GUESSES = ["agent-2", "agent-3", "default", "secret-project", "agent-1x", "AGENT-1"]


def scoped() -> Authenticator:
    return Authenticator(
        TokenDigests(
            [
                TokenEntry("watch", digest(CAROL), "carol", identifiers=frozenset({"agent-1"})),
                TokenEntry("control", digest(BOSS), "boss"),
            ]
        )
    )


@pytest.mark.parametrize("create_on_connect", [False, True])
async def test_a_scoped_token_learns_nothing_about_other_identifiers(
    create_on_connect: bool,
) -> None:
    existing = ["agent-1", "agent-2", "default", "secret-project"]
    async with running_server(
        ["cat"], auth=scoped(), identifiers=existing, create_on_connect=create_on_connect
    ) as server:
        carol = {"Authorization": f"Bearer {CAROL}"}
        answers = {guess: await refusal(server, query(guess), carol) for guess in GUESSES}
        assert set(answers.values()) == {(404, "Unknown identifier")}, answers
        async with observe(server, token=CAROL, identifier="agent-1") as watcher:
            assert watcher.model is not None
        assert set(server.sessions) == set(existing)  # no guess started a session


async def test_a_scoped_token_lists_only_its_sessions() -> None:
    async with running_server(
        ["cat"], auth=scoped(), identifiers=["agent-1", "agent-2", "default"]
    ) as server:
        path = "/sessions?api-version=2024-02-02-preview"
        status, body = await http_get(server.port, path, {"Authorization": f"Bearer {CAROL}"})
        assert status == 200
        assert [s["identifier"] for s in json.loads(body)["sessions"]] == ["agent-1"]
        status, body = await http_get(server.port, path, {"Authorization": f"Bearer {BOSS}"})
        assert len(json.loads(body)["sessions"]) == 3
