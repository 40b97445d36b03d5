"""Secrets an agent prints are masked in every recording unless the user says otherwise.

The attack: an agent prints a GitHub token, an ``sk-`` API key, or the very token the recorder
connected with (``env``, a debug dump, a pasted config); the recording is later shared.
``observer record`` and ``watch --record`` (its link, as the app builds it) run against a real
server and a real PTY; the file must hold asterisks in their place and say in its header that
redaction was on. ``--no-redact`` keeps the key shapes (the user asked) but never the token.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
from pathlib import Path

import pytest

from observer.auth.tokens import Authenticator, TokenDigests
from observer.commands.watch import build_link
from observer.credentials.store import Secret
from observer.recording.castfiles import open_cast
from observer.runtime.config import Profile
from tests.integration.server_support import running_server, wait_for
from tests.integration.test_client_record import clean_env, observer

pytestmark = pytest.mark.timeout(60)
GITHUB = "ghp_" + "A1b2C3d4E5" * 4
OPENAI = "sk-" + "proj" + "x9Y8z7W6v5" * 3
TOKEN = "session-" + secrets.token_urlsafe(24)


def agent(token: str) -> list[str]:
    program = f"print('gh {GITHUB} key {OPENAI} mine {token} done', flush=True)\nimport time\ntime.sleep(60)"
    return [sys.executable, "-c", program]


def auth() -> Authenticator:
    return Authenticator(TokenDigests.from_tokens([("watch", TOKEN)]))


def recorded(path: Path) -> tuple[dict[str, object], str]:
    header = json.loads(path.read_text().splitlines()[0])
    with open_cast(path) as reader:
        output = "".join(e.data for e in reader if e.code == "o")
    return header, output


async def record(tmp_path: Path, *options: str) -> Path:
    cast = tmp_path / "agent.cast"
    async with running_server(agent(TOKEN), auth=auth(), identifiers=("agent",)) as server:
        env = {**clean_env(tmp_path), "OBSERVER_TOKEN": TOKEN}
        url = f"ws://127.0.0.1:{server.port}/"
        code, _, err = await observer(
            "record", url, "-i", "agent", "-o", str(cast), "--duration", "2", *options, env=env
        )
    assert code == 0, err
    return cast


async def test_observer_record_masks_key_shapes_and_its_own_token(tmp_path: Path) -> None:
    header, output = recorded(await record(tmp_path))
    assert "done" in output
    for secret in (GITHUB, OPENAI, TOKEN):
        assert secret not in output and "*" * len(secret) in output
    assert header["observer"]["redacted"] is True  # type: ignore[index]


async def test_no_redact_keeps_the_key_shapes_but_not_the_token(tmp_path: Path) -> None:
    header, output = recorded(await record(tmp_path, "--no-redact"))
    assert GITHUB in output and OPENAI in output
    assert TOKEN not in output and "*" * len(TOKEN) in output
    assert header["observer"]["redacted"] is False  # type: ignore[index]


async def test_watch_record_masks_secrets_by_default(tmp_path: Path) -> None:
    cast = tmp_path / "watch.cast"
    async with running_server(agent(TOKEN), auth=auth(), identifiers=("agent",)) as server:
        profile = Profile("agent", f"ws://127.0.0.1:{server.port}/", "agent")
        link = build_link(profile, record=cast, token=Secret(TOKEN))
        runner = asyncio.create_task(link.run())
        try:
            await wait_for(lambda: cast.exists() and "done" in cast.read_text())
        finally:
            await link.close()
            runner.cancel()
    header, output = recorded(cast)
    for secret in (GITHUB, OPENAI, TOKEN):
        assert secret not in output
    assert header["observer"]["redacted"] is True  # type: ignore[index]
