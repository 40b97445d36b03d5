"""Presence and hand-over on a real server: labels, asking, handing over, one holder at a time."""

from __future__ import annotations

import asyncio

from websockets.asyncio.client import connect

from observer.auth.token_file import TokenEntry
from observer.auth.tokens import Authenticator, TokenDigests, digest
from observer.protocol import frames
from observer.protocol.events import PeopleListed
from tests.integration.server_support import Observer, observe, running_server, url

ALICE, BOB, CAROL, OLD = "alice-token", "bob-token", "carol-token", "old-token"


def labelled() -> Authenticator:
    return Authenticator(
        TokenDigests(
            [
                TokenEntry("control", digest(ALICE), "alice"),
                TokenEntry("control", digest(BOB), "bob"),
                TokenEntry("control", digest(CAROL), "carol"),
                TokenEntry("control", digest(OLD), "old"),
            ]
        )
    )


def people(client: Observer) -> PeopleListed | None:
    listed = [e for e in client.events if isinstance(e, PeopleListed)]
    return listed[-1] if listed else None


def labels(client: Observer) -> list[str]:
    last = people(client)
    return [p.label for p in last.people] if last is not None else []


def asking(client: Observer) -> list[str]:
    last = people(client)
    return [p.label for p in last.people if p.asking] if last is not None else []


async def test_every_client_learns_who_is_here_and_who_holds_the_keyboard() -> None:
    async with (
        running_server(["cat"], auth=labelled()) as server,
        observe(server, token=ALICE, control=True) as alice,
        observe(server, token=BOB) as bob,
        observe(server, token=BOB) as bob_again,
    ):
        await alice.until(lambda c: labels(c) == ["alice", "bob", "bob"])
        await bob_again.until(lambda c: labels(c) == ["alice", "bob", "bob"])
        await bob.until(lambda c: len(labels(c)) == 3)
        seen = people(bob)
        assert seen is not None and seen.holder == seen.people[0].id
        assert seen.you == seen.people[1].id
        assert all(p.since > 1e9 for p in seen.people)


async def test_a_client_that_did_not_ask_for_people_gets_none() -> None:
    older = "/?identifier=default&api-version=2024-02-02-preview&mode=watch&features=echo"
    async with (
        running_server(["cat"], auth=labelled()) as server,
        observe(server, token=ALICE, control=True) as alice,
        connect(
            url(server, older),
            additional_headers={"Authorization": f"Bearer {OLD}"},
            subprotocols=["observer.v1"],
        ) as old,
    ):
        received: list[str] = []

        async def until_three_watch() -> None:
            while '"watchers":3' not in "".join(received):
                message = await old.recv()
                if isinstance(message, str):
                    received.append(message)

        async with observe(server, token=BOB):
            async with asyncio.timeout(10):
                await until_three_watch()
            await alice.until(lambda c: labels(c) == ["alice", "old", "bob"])
        assert not any('"type":"people"' in message for message in received)


async def bob_asks(alice: Observer, bob: Observer) -> int:
    """Bob asks; once alice's client lists his request, his connection's number."""
    await bob.send(bob.session.encode_ask())
    await alice.until(lambda c: asking(c) == ["bob"])
    return next(p.id for p in people(alice).people if p.label == "bob")  # type: ignore[union-attr]


async def test_asked_holder_hands_over_and_the_asker_types() -> None:
    async with (
        running_server(["cat"], auth=labelled()) as server,
        observe(server, token=ALICE, control=True) as alice,
        observe(server, token=BOB) as bob,
    ):
        bob_id = await bob_asks(alice, bob)
        await alice.send(alice.session.encode_hand(bob_id))
        await bob.until(lambda c: c.mode == "control")
        await alice.until(lambda c: c.mode == "watch")
        await bob.send(bob.session.encode_input(b"typed-by-bob\r"))
        await alice.until(lambda c: b"typed-by-bob" in c.stream)
        await alice.send(alice.session.encode_input(b"alice-too-late\r"))
        await alice.until(lambda c: frames.NOT_HOLDER in c.errors())


async def test_a_declined_ask_tells_the_asker() -> None:
    async with (
        running_server(["cat"], auth=labelled()) as server,
        observe(server, token=ALICE, control=True) as alice,
        observe(server, token=BOB) as bob,
    ):
        bob_id = await bob_asks(alice, bob)
        await alice.send(alice.session.encode_decline(bob_id))
        await bob.until(lambda c: frames.DECLINED in c.errors())
        await alice.until(lambda c: asking(c) == [])
        assert alice.mode == "control" and bob.mode == "watch"


async def test_two_askers_and_a_release_at_once_leave_exactly_one_holder() -> None:
    async with (
        running_server(["cat"], auth=labelled()) as server,
        observe(server, token=ALICE, control=True) as alice,
        observe(server, token=BOB) as bob,
        observe(server, token=CAROL) as carol,
    ):
        await asyncio.gather(
            bob.send(bob.session.encode_ask()),
            carol.send(carol.session.encode_ask()),
            alice.send(alice.session.encode_release()),
        )
        await alice.until(lambda c: c.mode == "watch" and len(asking(c)) <= 1)
        arbiter = server.sessions["default"].arbiter
        await alice.until(lambda c: (last := people(c)) is not None and last.holder is not None)
        holders = [seat.id for seat in arbiter.seats.values() if seat.holder == "you"]
        assert len(holders) == 1
        holder = bob if arbiter.label_of(holders[0]) == "bob" else carol
        await holder.until(lambda c: c.mode == "control")


async def test_with_grant_after_idle_an_idle_holders_keyboard_goes_to_the_asker() -> None:
    async with (
        running_server(["cat"], auth=labelled(), grant_idle=0.3) as server,
        observe(server, token=ALICE, control=True) as alice,
        observe(server, token=BOB) as bob,
    ):
        await bob.send(bob.session.encode_ask())
        await bob.until(lambda c: c.mode == "control")
        await alice.until(lambda c: c.mode == "watch")
        assert (
            server.sessions["default"].arbiter.label_of(server.sessions["default"].arbiter.holder)
            == "bob"
        )
