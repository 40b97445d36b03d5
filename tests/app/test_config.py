"""The config file: profiles and groups, never tokens."""

from __future__ import annotations

from pathlib import Path

import pytest

from observer.errors import UsageError
from observer.runtime.config import load_config, resolve_profiles

CONFIG = """
[app]
theme = "nord"
idle_release = 60

[profiles.build]
url = "wss://sandbox.example.com/"
identifier = "build-1"

[profiles.review]
url = "ws://127.0.0.1:8000/"
identifier = "review-1"
protocol = "ttyd"
api-version = "2025-01-01"

[groups]
team = ["build", "review"]
"""


def test_profiles_groups_and_settings_are_read(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    config = load_config(path)
    assert config.theme == "nord" and config.idle_release == 60
    build, review = resolve_profiles(["team"], config)
    assert (build.identifier, build.protocol, build.api_version) == (
        "build-1",
        None,
        "2024-02-02-preview",
    )
    assert (review.protocol, review.api_version) == ("ttyd", "2025-01-01")
    assert resolve_profiles(["review", "team"], config) == [review, build]


def test_a_missing_file_is_an_empty_config(tmp_path: Path) -> None:
    assert load_config(tmp_path / "nope.toml").profiles == {}


def test_a_token_in_the_config_is_refused_with_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG.replace('identifier = "build-1"', 'identifier = "b"\ntoken = "s3cret"'))
    with pytest.raises(UsageError, match="tokens never go in the config file") as caught:
        load_config(path)
    assert "s3cret" not in str(caught.value)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[profiles.x]\nidentifier = 'i'\n", "profiles.x needs a url"),
        (
            "[profiles.x]\nurl='ws://h/'\nidentifier='i'\nprotocol='smtp'\n",
            "protocol must be one of",
        ),
        ("[groups]\ng = ['nobody']\n", "not a profile"),
        ("[app]\nidle_release = -1\n", "positive number"),
        ("[app]\nrecord_format = 'v4'\n", "record_format must be one of v2, v3"),
        ("[app\n", "not valid TOML"),
    ],
)
def test_mistakes_name_the_file_and_the_problem(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(UsageError, match=problem) as caught:
        load_config(path)
    assert str(path) in str(caught.value)


def test_an_unknown_profile_lists_the_known_ones(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    with pytest.raises(UsageError, match="build, review, team"):
        resolve_profiles(["nope"], load_config(path))


def test_recorders_write_v2_unless_the_config_or_the_option_says_v3(tmp_path: Path) -> None:
    from observer.cli import build_parser
    from observer.commands._recording_options import record_format

    path = tmp_path / "config.toml"
    path.write_text("[app]\nrecord_format = 'v3'\n")
    chosen = load_config(path)
    parser = build_parser()
    for command in (["record", "ws://h/", "-o", "f"], ["watch", "ws://h/"], ["demo"]):
        assert record_format(parser.parse_args(command), load_config(tmp_path / "no")) == "v2"
        assert record_format(parser.parse_args(command), chosen) == "v3"
        given = parser.parse_args([*command, "--format", "v2"])
        assert record_format(given, chosen) == "v2", command


def test_a_profile_has_its_own_notify_command_or_the_configs(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        "[app]\nnotify_command = 'notify-send \"$OBSERVER_NOTIFY_TITLE\"'\n"
        "[profiles.a]\nurl = 'ws://h/'\nidentifier = 'a'\nnotify_command = 'curl -d @- ntfy.sh/a'\n"
        "[profiles.b]\nurl = 'ws://h/'\nidentifier = 'b'\n"
    )
    config = load_config(path)
    a, b = config.profiles["a"], config.profiles["b"]
    assert config.notify_command_for(a) == "curl -d @- ntfy.sh/a"
    assert config.notify_command_for(b) == 'notify-send "$OBSERVER_NOTIFY_TITLE"'
    path.write_text("[app]\nnotify_command = ['notify-send']\n")
    with pytest.raises(UsageError, match="notify_command must be a command line"):
        load_config(path)
