"""`observer config`: the file's path and contents, profiles added without losing a byte of the
user's own text, refusals that say what to do, and profiles that `watch NAME` then finds."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from observer.cli import main
from observer.errors import UsageError
from observer.runtime.config import Profile, add_profile, config_path, load_config, resolve_profiles

USERS_FILE = """\
# my observer settings
[app]
theme = "nord"   # dark, easy on the eyes

[profiles.review]
url = "wss://review.example"
identifier = "review-1"

[groups]
team = ["review"]
"""


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("OBSERVER_CONFIG_DIR", str(tmp_path / "chosen"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "platform"))
    return tmp_path / "chosen"


def test_show_without_a_file_gives_its_path_and_how_to_add_a_profile(
    config_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["config"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"# {config_dir / 'config.toml'}"
    assert "observer config add NAME URL --identifier ID" in out


def test_a_profile_added_is_what_watch_name_resolves(
    config_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["config", "add", "build-agent", "wss://sandbox.example/", "--identifier", "build-1"]
    assert main([*argv, "--protocol", "ttyd"]) == 0
    assert "`observer watch build-agent`" in capsys.readouterr().out
    (profile,) = resolve_profiles(["build-agent"], load_config())
    assert profile == Profile("build-agent", "wss://sandbox.example/", "build-1", "ttyd")
    assert main(["config"]) == 0
    shown = capsys.readouterr().out
    assert '[profiles.build-agent]\nurl = "wss://sandbox.example/"\n' in shown
    assert not (config_dir.parent / "platform").exists()


def test_adding_keeps_every_byte_of_the_users_file(
    config_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config_dir.mkdir()
    (config_dir / "config.toml").write_text(USERS_FILE)
    (config_dir / "config.toml").chmod(0o600)
    assert main(["config", "add", "lab", "http://127.0.0.1:8888", "-i", "1"]) == 0
    text = (config_dir / "config.toml").read_text()
    assert text.startswith(USERS_FILE)
    config = load_config()
    assert set(config.profiles) == {"review", "lab"} and config.theme == "nord"
    assert config.profiles["lab"].protocol is None, "auto is detected, not written"
    assert config.groups == {"team": ("review",)}
    assert (config_dir / "config.toml").stat().st_mode & 0o777 == 0o600
    assert [p.name for p in config_dir.iterdir()] == ["config.toml"], "no temporary file left"


@pytest.mark.parametrize(("name", "kind"), [("review", "profile"), ("team", "group")])
def test_a_name_already_used_is_refused_and_the_file_is_untouched(
    config_dir: Path, capsys: pytest.CaptureFixture[str], name: str, kind: str
) -> None:
    config_dir.mkdir()
    (config_dir / "config.toml").write_text(USERS_FILE)
    assert main(["config", "add", name, "wss://other.example", "-i", "x"]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"observer: {config_dir / 'config.toml'} already has a {kind} named {name!r} — "
        "choose another name, or edit the file to change it\n"
    )
    assert (config_dir / "config.toml").read_text() == USERS_FILE


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["my agent", "wss://a.example", "-i", "1"], "'my agent' cannot be a profile name — use"),
        (["a", "ftp://a.example", "-i", "1"], "unsupported URL scheme 'ftp' — give a URL like"),
    ],
)
def test_a_bad_name_or_url_is_one_line_and_nothing_is_written(
    config_dir: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    assert main(["config", "add", *argv]) == 1
    err = capsys.readouterr().err
    assert err.startswith("observer: ") and says in err and err.count("\n") == 1
    assert not config_dir.exists()


def test_profiles_written_inline_are_left_alone_with_what_to_do(
    config_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inline = 'profiles = { review = { url = "wss://r.example", identifier = "1" } }\n'
    config_dir.mkdir()
    (config_dir / "config.toml").write_text(inline)
    assert main(["config", "add", "lab", "ws://127.0.0.1:1", "-i", "1"]) == 1
    assert "add the profile there by hand" in capsys.readouterr().err
    assert (config_dir / "config.toml").read_text() == inline


def test_a_file_holding_a_token_is_reported_and_never_printed(
    config_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config_dir.mkdir()
    leaked = 'token = "hunter2-secret-value"\n' + USERS_FILE
    (config_dir / "config.toml").write_text(leaked)
    assert main(["config"]) == 1
    out = capsys.readouterr()
    assert "tokens never go in the config file" in out.err
    assert "hunter2" not in out.out + out.err


def test_a_profile_may_be_called_secret_agent_but_may_not_hold_a_token(config_dir: Path) -> None:
    path = add_profile(Profile("secret-agent", "wss://s.example", "s-1"))
    assert "secret-agent" in load_config(path).profiles
    with path.open("a") as file:
        file.write('password = "x"\n')  # lands in [profiles.secret-agent]
    with pytest.raises(UsageError, match=r"profiles\.secret-agent\.password: tokens never go"):
        load_config(path)


@settings(max_examples=60, deadline=None)
@given(url=st.text(min_size=1), identifier=st.text(min_size=1), version=st.text(min_size=1))
def test_any_text_round_trips_through_the_file(
    tmp_path_factory: pytest.TempPathFactory, url: str, identifier: str, version: str
) -> None:
    """Quotes, backslashes, control characters and non-ASCII are escaped as TOML wants."""
    path = tmp_path_factory.mktemp("config") / "config.toml"
    path.write_text(USERS_FILE)
    profile = Profile("p", url, identifier, "raw", version)
    add_profile(profile, path)
    assert load_config(path).profiles["p"] == profile
    assert path.read_text(encoding="utf-8").startswith(USERS_FILE)


def test_themes_lists_the_built_ins_and_the_users_own(
    config_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    builtin = Path(__file__).resolve().parents[2] / "observer" / "themes" / "nord.toml"
    (config_dir / "themes").mkdir(parents=True)
    text = builtin.read_text().replace('name = "nord"', 'name = "my-nord"')
    (config_dir / "themes" / "my-nord.toml").write_text(text)
    assert main(["config", "themes"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = {line.split()[0] for line in lines if not line.startswith("#")}
    assert {"observer-dark", "observer-light", "nord", "my-nord"} <= names
    assert f"my-nord  dark  {config_dir / 'themes' / 'my-nord.toml'}" in lines


def test_the_config_path_follows_observer_config_dir(config_dir: Path) -> None:
    assert config_path() == config_dir / "config.toml"
