"""`observer completion`: the scripts generated from the parser complete in the real shells.

bash runs its completion function as it does on TAB (``COMP_WORDS``/``COMP_CWORD``, then
``COMPREPLY``); fish answers ``complete -C``; zsh, whose completion only runs in its line editor,
is driven in tmux as a person would, with TAB.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from observer.cli import build_parser
from tests.integration.test_watch_without_identifier import listing
from tests.waiting import until_blocking

pytestmark = pytest.mark.timeout(60)
BIN = Path(sys.executable).parent  # where the installed `observer` command is
ROOT = Path(__file__).resolve().parents[2]
COMMANDS = sorted(
    next(a for a in build_parser()._actions if a.dest == "command").choices  # type: ignore[arg-type]
)

# Emulate one TAB in bash: what readline gives the completion function, then its answer.
BASH_TAB = r"""
source "$1"; shift
spec=$(complete -p observer) || exit 3
function=$(sed -E 's/.* -F ([^ ]+) .*/\1/' <<< "$spec")
COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
"$function" observer "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "$spec" "${COMPREPLY[@]}"
"""


def script(tmp_path: Path, shell: str) -> Path:
    done = subprocess.run(
        [sys.executable, "-m", "observer", "completion", shell],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    path = tmp_path / f"observer.{shell}"
    path.write_text(done.stdout)
    return path


def bash_tab(completion: Path, *words: str) -> list[str]:
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", BASH_TAB, "bash", str(completion), *words],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    spec, *replies = done.stdout.splitlines()
    assert spec.startswith("complete ") and spec.endswith(" observer")
    return [reply.strip() for reply in replies]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash installed")
def test_bash_completes_commands_actions_options_and_choices(tmp_path: Path) -> None:
    completion = script(tmp_path, "bash")
    assert bash_tab(completion, "observer", "") == COMMANDS
    assert "config" in COMMANDS and "completion" in COMMANDS and "watch" in COMMANDS
    assert bash_tab(completion, "observer", "con") == ["config"]
    assert bash_tab(completion, "observer", "auth", "") == ["login", "logout", "status", "list"]
    options = bash_tab(completion, "observer", "config", "add", "--")
    assert {"--identifier", "--protocol", "--api-version"} <= set(options)
    choices = bash_tab(completion, "observer", "config", "add", "a", "b", "--protocol", "")
    assert choices == ["auto", "observer", "raw", "ttyd", "jupyter"]
    assert bash_tab(completion, "observer", "completion", "") == ["bash", "zsh", "fish"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash installed")
def test_bash_completes_file_names_where_a_command_takes_a_file(tmp_path: Path) -> None:
    (tmp_path / "session.cast").write_text("")
    completion = script(tmp_path, "bash")
    assert bash_tab(completion, "observer", "replay", f"{tmp_path}/sess") == [
        f"{tmp_path}/session.cast"
    ]


@pytest.mark.skipif(shutil.which("fish") is None, reason="needs fish installed")
def test_fish_completes_commands_with_their_one_line_help(tmp_path: Path) -> None:
    completion = script(tmp_path, "fish")

    def complete(line: str) -> list[str]:
        done = subprocess.run(
            ["fish", "--no-config", "-c", f"source {completion}; complete -C '{line}'"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()

    listed = dict(line.split("\t", 1) for line in complete("observer "))
    assert sorted(listed) == COMMANDS
    assert (
        listed["config"]
        == "show the config file (profiles, groups, settings) and add profiles to it"
    )
    actions = [line.split("\t")[0] for line in complete("observer auth ")]
    assert sorted(actions) == ["list", "login", "logout", "status"]
    protocols = [line.split("\t")[0] for line in complete("observer config add a b --protocol ")]
    assert protocols == ["auto", "observer", "raw", "ttyd", "jupyter"]


def tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", *args], check=True, capture_output=True, text=True, timeout=10
    ).stdout


def typed(session: str, keys: str, expect: str) -> str:
    """Type ``keys`` then TAB (nothing when ``keys`` is empty); wait for ``expect`` on screen."""
    if keys:
        tmux("send-keys", "-t", session, keys, "Tab")
    screens = [""]

    def shown() -> str:
        screens.append(tmux("capture-pane", "-t", session, "-p"))
        return screens[-1] if expect in screens[-1] else ""

    return until_blocking(
        shown, lambda: f"{expect!r} after TAB; the screen was:\n{screens[-1]}", 15, poll=0.1
    )


@contextlib.contextmanager
def zsh_in_tmux(tmp_path: Path, passed: str = "") -> Iterator[str]:
    """zsh in a tmux session with the generated completion and ``passed`` (``NAME=value``
    words) in its environment, at its prompt; the session's name."""
    completion = script(tmp_path, "zsh")
    functions = tmp_path / "functions"
    functions.mkdir()
    completion.rename(functions / "_observer")
    (tmp_path / ".zshrc").write_text(
        f"PS1='%% '\nfpath=({functions} $fpath)\nautoload -U compinit && compinit -u -D\n"
    )
    session = f"observer-zsh-{uuid.uuid4().hex[:8]}"
    environment = f"HOME={tmp_path} ZDOTDIR={tmp_path} PATH={BIN}:/usr/bin:/bin TERM=xterm"
    command = f"env -i {environment} {passed} zsh"
    tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "20", command)
    try:
        typed(session, "", "%")  # the prompt: zsh has read its start-up file
        yield session
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, timeout=10)


@pytest.mark.skipif(
    shutil.which("zsh") is None or shutil.which("tmux") is None, reason="needs zsh and tmux"
)
def test_zsh_completes_on_tab_in_a_real_terminal(tmp_path: Path) -> None:
    with zsh_in_tmux(tmp_path) as session:
        typed(session, "observer con", "% observer config")  # capture-pane drops the blank
        screen = typed(session, "add a b --protocol ", "jupyter")
        assert all(choice in screen for choice in ("auto", "observer", "raw", "ttyd"))


@pytest.fixture
def user_things(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """A config with two profiles and a group on a listing endpoint serving two sessions, a
    theme of the user's own, and the environment the shell's completion runs with."""
    config = tmp_path / "observer"
    (config / "themes").mkdir(parents=True)
    nord = (ROOT / "observer" / "themes" / "nord.toml").read_text()
    (config / "themes" / "my-night.toml").write_text(nord.replace('"nord"', '"my-night"'))
    with listing([{"identifier": "build-7"}, {"identifier": "review-2"}]) as port:
        (config / "config.toml").write_text(
            f'[profiles.agent-one]\nurl = "ws://127.0.0.1:{port}/"\nidentifier = "build-7"\n'
            f'[profiles.agent-two]\nurl = "ws://127.0.0.1:{port}/"\n'
            '[groups]\nagents = ["agent-one", "agent-two"]\n'
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OBSERVER_", "XDG_"))}
        env.update(
            OBSERVER_CONFIG_DIR=str(config),
            XDG_CACHE_HOME=str(tmp_path / "cache"),
            OBSERVER_TOKEN="t0ken",
            PATH=f"{BIN}:{env.get('PATH', '/usr/bin:/bin')}",
        )
        yield env


def bash_tab_in(env: dict[str, str], completion: Path, *words: str) -> list[str]:
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", BASH_TAB, "bash", str(completion), *words],
        capture_output=True,
        text=True,
        timeout=30,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return [reply.strip() for reply in done.stdout.splitlines()[1:]]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash installed")
def test_bash_completes_the_users_profiles_themes_and_identifiers(
    tmp_path: Path, user_things: dict[str, str]
) -> None:
    completion = script(tmp_path, "bash")
    assert bash_tab_in(user_things, completion, "observer", "watch", "ag") == [
        "agent-one",
        "agent-two",
        "agents",
    ]
    assert "my-night" in bash_tab_in(user_things, completion, "observer", "watch", "--theme", "")
    assert bash_tab_in(user_things, completion, "observer", "replay", "x", "--theme", "my") == [
        "my-night"
    ]
    assert bash_tab_in(user_things, completion, "observer", "watch", "ws://h/", "-i", "") == [
        "build-7",
        "review-2",
    ]
    cached = list((tmp_path / "cache").rglob("*.json"))
    assert cached, "the identifiers are cached"


@pytest.mark.skipif(shutil.which("fish") is None, reason="needs fish installed")
def test_fish_completes_the_users_profiles(tmp_path: Path, user_things: dict[str, str]) -> None:
    completion = script(tmp_path, "fish")
    done = subprocess.run(
        ["fish", "--no-config", "-c", f"source {completion}; complete -C 'observer watch ag'"],
        capture_output=True,
        text=True,
        timeout=30,
        env=user_things,
    )
    assert done.returncode == 0, done.stderr
    assert [line.split("\t")[0] for line in done.stdout.splitlines()] == [
        "agent-one",
        "agent-two",
        "agents",
    ]


@pytest.mark.skipif(
    shutil.which("zsh") is None or shutil.which("tmux") is None, reason="needs zsh and tmux"
)
def test_zsh_completes_the_users_profiles_on_tab(
    tmp_path: Path, user_things: dict[str, str]
) -> None:
    names = ("OBSERVER_CONFIG_DIR", "XDG_CACHE_HOME", "OBSERVER_TOKEN")
    passed = " ".join(f"{name}={user_things[name]}" for name in names)
    with zsh_in_tmux(tmp_path, passed) as session:
        screen = typed(session, "observer watch agent", "agents")
        assert "agent-one" in screen and "agent-two" in screen
