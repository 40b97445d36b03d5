"""The agent's environment holds none of the server's secrets (a real ``observer serve``).

The operator's shell may export ``OBSERVER_TOKEN`` (the client's CI override) and keyring
settings (``KEYRING_PROPERTY_*``: a file keyring's password). The agent prints its whole
environment; a watcher reads it.
"""

from __future__ import annotations

import pytest

from tests.hostile.serve_process import read_stream_until, serve_process

pytestmark = pytest.mark.timeout(60)
CANARY = "canary-7f3e9a1c-do-not-leak"
AGENT = "env; echo ENV-END; sleep 30"


async def test_the_agent_never_sees_observer_token_or_keyring_properties() -> None:
    env = {
        "OBSERVER_TOKEN": CANARY,
        "KEYRING_PROPERTY_KEYRING_KEY": CANARY + "-keyring",
        "HARMLESS_SETTING": "kept",
    }
    async with serve_process(["--insecure-no-auth"], AGENT, env) as running:
        seen = await read_stream_until(running.port, b"ENV-END\r\n")
    assert CANARY.encode() not in seen
    assert b"OBSERVER_TOKEN" not in seen and b"KEYRING_PROPERTY_" not in seen
    assert b"HARMLESS_SETTING=kept" in seen  # the rest of the environment is there


async def test_a_variable_is_passed_on_purpose_with_pass_env() -> None:
    env = {"OBSERVER_TOKEN": CANARY, "KEYRING_PROPERTY_WANTED": "on-purpose"}
    options = ["--insecure-no-auth", "--pass-env", "KEYRING_PROPERTY_WANTED"]
    async with serve_process(options, AGENT, env) as running:
        seen = await read_stream_until(running.port, b"ENV-END\r\n")
    assert b"KEYRING_PROPERTY_WANTED=on-purpose" in seen
    assert CANARY.encode() not in seen
