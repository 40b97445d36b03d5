"""One rule for which session a URL means, in ``watch``, ``record``, ``config add`` and ``sessions``.

An identifier is optional wherever the peer does not use one: ttyd and raw bridges ignore it;
an ``observer serve`` endpoint or a Jupyter Server with one session or terminal means that one;
several are listed, and the error says to pick one. Against a real ``observer serve``, the real
ttyd 1.7.7 and a real Jupyter Server.
"""

from __future__ import annotations

import asyncio
import sys
import urllib.request
from pathlib import Path

import pytest

from observer.app.app import ObserverApp
from observer.cli import main
from observer.recording.castfiles import open_cast
from tests.hostile.serve_process import serve_process
from tests.integration.test_client_jupyter import TOKEN, create_terminal, jupyter
from tests.integration.test_server_sessions import tokens
from tests.integration.test_watch_without_identifier import opened
from tests.integration.ttyd_peer import running_ttyd

__all__ = ["jupyter", "opened"]  # fixtures: a real Jupyter Server for this module; the app built

pytestmark = pytest.mark.timeout(120)

HELLO = "echo hello-$((6*7)); sleep 30"


def recorded_output(cast: Path) -> str:
    with open_cast(cast) as reader:
        return "".join(e.data for e in reader if e.code == "o")


async def test_record_without_an_identifier_records_the_only_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opened: list[ObserverApp]
) -> None:
    path, watch, _ = tokens(tmp_path)
    monkeypatch.setenv("OBSERVER_TOKEN", watch)
    cast = tmp_path / "solo.cast"
    async with serve_process(["--tokens", str(path), "-i", "solo"], HELLO) as running:
        url = f"ws://127.0.0.1:{running.port}/"
        command = ["record", url, "-o", str(cast), "--duration", "2"]
        status = await asyncio.to_thread(main, command)
    assert status == 0
    assert "hello-42" in recorded_output(cast)


async def test_record_lists_several_sessions_and_says_to_pick_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, watch, _ = tokens(tmp_path)
    monkeypatch.setenv("OBSERVER_TOKEN", watch)
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    cast = tmp_path / "which.cast"
    async with serve_process(["--tokens", str(path), "-i", "a", "-i", "b"], HELLO) as running:
        url = f"ws://127.0.0.1:{running.port}/"
        status = await asyncio.to_thread(main, ["record", url, "-o", str(cast)])
    out, err = capsys.readouterr()
    assert status == 1 and not cast.exists()
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["a", "b"]
    assert err == f"observer: 2 sessions at {url} (a, b) — add --identifier ID\n"


@pytest.mark.parametrize("protocol", [[], ["--protocol", "ttyd"]])
def test_watch_and_record_a_ttyd_need_no_identifier(
    protocol: list[str], tmp_path: Path, opened: list[ObserverApp]
) -> None:
    cast = tmp_path / "ttyd.cast"
    with running_ttyd(
        [sys.executable, "-c", "print('from-ttyd'); import time; time.sleep(3)"]
    ) as url:
        assert main(["watch", url, *protocol]) == 0
        assert main(["record", url, "--protocol", "ttyd", "-o", str(cast)]) == 0
    (link,) = opened[0].links
    assert link.session.identifier == ""
    assert "from-ttyd" in recorded_output(cast)


def test_config_add_takes_a_ttyd_without_an_identifier_and_watch_opens_it(
    opened: list[ObserverApp], capsys: pytest.CaptureFixture[str]
) -> None:
    with running_ttyd([sys.executable, "-c", "import time; time.sleep(3)"]) as url:
        assert main(["config", "add", "shell", url, "--protocol", "ttyd"]) == 0
        assert main(["watch", "shell"]) == 0
    (link,) = opened[0].links
    assert link.settings.protocol == "ttyd" and link.session.identifier == ""


def test_sessions_against_ttyd_says_it_serves_one_program_per_connection(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    with running_ttyd([sys.executable, "-c", "import time; time.sleep(3)"]) as url:
        told = main(["sessions", url, "--protocol", "ttyd"]), capsys.readouterr()
        guessed = main(["sessions", url]), capsys.readouterr()
    assert told[0] == 0 and told[1].out == (
        "ttyd serves one program per connection: there is no session to list "
        f"— watch it with `observer watch {url} --protocol ttyd`\n"
    )
    status, (out, err) = guessed
    assert status == 1 and out == "" and err.count("\n") == 1 and "<" not in err
    assert "does not list sessions (HTTP 404)" in err and "--protocol ttyd" in err


async def test_a_jupyter_server_with_one_terminal_means_it_and_several_are_listed(
    jupyter: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    opened: list[ObserverApp],
) -> None:
    monkeypatch.setenv("OBSERVER_TOKEN", TOKEN)
    first = await asyncio.to_thread(create_terminal, jupyter)
    assert await asyncio.to_thread(main, ["watch", jupyter, "--protocol", "jupyter"]) == 0
    assert opened[0].links[0].session.identifier == first
    status = await asyncio.to_thread(main, ["sessions", jupyter, "--protocol", "jupyter"])
    out = capsys.readouterr().out.splitlines()
    assert status == 0 and out[0].split() == ["NAME", "LAST", "ACTIVITY"]
    assert [line.split()[0] for line in out[1:]] == [first]
    second = await asyncio.to_thread(create_terminal, jupyter)
    cast = tmp_path / "jupyter.cast"
    command = ["record", jupyter, "--protocol", "jupyter", "-o", str(cast)]
    assert await asyncio.to_thread(main, command) == 1
    out, err = capsys.readouterr()
    assert sorted(line.split()[0] for line in out.splitlines()[1:]) == sorted([first, second])
    assert err.startswith(f"observer: 2 terminals at {jupyter} (") and err.endswith(
        " — add --identifier ID\n"
    )
    await asyncio.to_thread(delete_terminal, jupyter, second)


def delete_terminal(base: str, name: str) -> None:
    request = urllib.request.Request(
        f"{base}/api/terminals/{name}",
        method="DELETE",
        headers={"Authorization": f"token {TOKEN}"},
    )
    urllib.request.urlopen(request, timeout=10).read()
