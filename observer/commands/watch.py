"""``observer watch``: watch one session live, or several as a dashboard."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, cast

from observer.commands._options import IDENTIFIER_HELP, add_identifier_option, add_size_option
from observer.commands._recording_options import (
    add_format_option,
    add_record_options,
    add_redaction_option,
    own_secrets,
    record_format,
)
from observer.protocol.adapters import PROTOCOL_CHOICES

if TYPE_CHECKING:
    from collections.abc import Sequence

    from observer.app.notify_command import NotifyTarget
    from observer.asciicast import CastFormat
    from observer.credentials.store import Secret
    from observer.protocol.adapters import ProtocolName
    from observer.runtime.config import Config, Profile
    from observer.transport.connection import Connection

NAME = "watch"
HELP = "watch an agent's terminal live (several at once as a dashboard); take over with ctrl+t"
DESCRIPTION = """\
Watch a remote agent's terminal. You start in WATCH mode: nothing you type is sent. Press ctrl+t and
confirm with y to take control (every key then goes to the agent), ctrl+] to hand it back, ctrl+x to
send one Ctrl-C. Give a URL (with --identifier where the endpoint serves several sessions; one
session is used as it is, and ttyd or a raw bridge takes none), or the names of profiles/groups from the config file (several sessions open as a dashboard: enter opens
one, escape goes back). Tokens come from the OS keyring (`observer auth login URL`) or
OBSERVER_TOKEN, never from the command line.
"""
EPILOG = """\
examples:
  observer watch wss://sandbox.example.com/ --identifier build-1
  observer watch wss://sandbox.example.com/ --identifier build-1 --record build.cast --theme nord
  observer watch build-agent review-agent       two profiles as a dashboard
  observer watch team                           a profile group
"""


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arguments."""
    parser.add_argument("targets", nargs="+", metavar="URL_OR_PROFILE")
    add_identifier_option(parser, IDENTIFIER_HELP)
    parser.add_argument(
        "--protocol",
        choices=PROTOCOL_CHOICES,
        default="auto",
        help="peer protocol (default auto: detected from the negotiated subprotocol)",
    )
    parser.add_argument("--api-version", default=None, help="endpoint API version")
    parser.add_argument("--control", action="store_true", help="ask for control when connecting")
    add_record_options(parser)
    parser.add_argument(
        "--record-input",
        action="store_true",
        help="with --record: also record the keys you send in control (never while echo is off)",
    )
    add_format_option(parser)
    add_redaction_option(parser)
    add_size_option(
        parser,
        "in control, size the remote terminal COLSxROWS instead of following your window "
        "(where the protocol asks, ttyd, it is also the size announced)",
    )
    parser.add_argument(
        "--keep-remote-size",
        action="store_true",
        help="in control, leave the remote terminal's size alone (default: it follows your window)",
    )
    parser.add_argument("--theme", metavar="NAME", help="colour theme (see the command palette)")
    parser.add_argument(
        "--desktop-notifications",
        action="store_true",
        help="when an agent needs you, also notify the desktop through your terminal "
        "(config: [app] desktop_notifications = true)",
    )
    parser.add_argument(
        "--notify-command",
        metavar="CMD",
        help="run CMD (by sh -c) when an agent starts waiting, with a JSON object on stdin and "
        "OBSERVER_NOTIFY_* variables (config: notify_command; see docs/notify.md)",
    )


def _profiles(args: argparse.Namespace) -> list[Profile]:
    from observer.errors import UsageError
    from observer.runtime.config import DEFAULT_API_VERSION, Profile, load_config, resolve_profiles

    urls = [t for t in args.targets if "://" in t]
    if urls:
        if len(args.targets) != 1:
            raise UsageError("give one URL with --identifier, or profile names", "not both")
        profiles = [
            Profile(
                name="",  # not a profile: the command line's
                url=urls[0],
                identifier=args.identifier or "",
                protocol=None if args.protocol == "auto" else args.protocol,
                api_version=args.api_version or DEFAULT_API_VERSION,
            )
        ]
    elif args.identifier:
        raise UsageError("--identifier goes with a URL", "profiles carry their own identifier")
    else:
        profiles = resolve_profiles(args.targets, load_config())
    return [_identified(p) for p in profiles]


def _identified(profile: Profile) -> Profile:
    """``profile`` with the identifier the one rule gives (:mod:`._which_session`)."""
    import dataclasses

    from observer.commands._which_session import identifier_for

    protocol = cast("ProtocolName | None", profile.protocol)
    identifier = identifier_for(profile.url, profile.identifier, protocol, profile.api_version)
    return dataclasses.replace(profile, identifier=identifier)


def _check_recording(args: argparse.Namespace, sessions: int) -> None:
    """The recording options go together, with one session, and a file is never replaced
    unasked."""
    from observer.commands._options import refuse_existing
    from observer.errors import UsageError

    if args.record is None:
        for option, given in (("--record-input", args.record_input),
                              ("--format", args.format is not None),
                              ("--overwrite", args.overwrite)):  # fmt: skip
            if given:
                raise UsageError(f"{option} goes with --record FILE")
        return
    if sessions != 1:
        raise UsageError("--record records one session", "watch one at a time to record it")
    refuse_existing(args.record, args.overwrite, "--record")


def _refuse_unreachable(profiles: list[Profile]) -> None:
    """Fail with the first one-line reason when no profile's endpoint can be reached, before
    the full-screen app takes the terminal (:mod:`observer.transport.probe`). A dashboard with
    some endpoints up opens: its tiles say which are down."""
    import asyncio
    import concurrent.futures

    from observer.protocol.endpoints import parse_endpoint
    from observer.transport.probe import unreachable

    async def probe_all() -> list[Exception | None]:
        probes = (unreachable(parse_endpoint(p.url), identifier=p.identifier) for p in profiles)
        return list(await asyncio.gather(*probes))

    # In a thread of its own: the caller may be inside an event loop already (tests, embedders).
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        failures = worker.submit(asyncio.run, probe_all()).result()
    if failures and all(failures):
        raise failures[0]  # type: ignore[misc]


def build_link(
    profile: Profile,
    *,
    control: bool = False,
    record: Path | None = None,
    record_input: bool = False,
    format: CastFormat | None = None,
    redact: bool = True,
    follow_size: bool = True,
    remote_size: tuple[int, int] | None = None,
    overwrite: bool = False,
    idle_release: float | None = None,
    token: Secret | None = None,
    scrollback: int | None = None,
) -> Connection:
    """A live link for a profile, with the token given or from the keyring or OBSERVER_TOKEN."""
    from observer.asciicast import DEFAULT_FORMAT
    from observer.client import DEFAULT_IDLE_RELEASE, DEFAULT_SCROLLBACK
    from observer.client.watched import WatchedSession
    from observer.credentials.store import TokenStore
    from observer.errors import TokenStoreError
    from observer.recording.file_policy import recording_policy
    from observer.transport.settings import ConnectionSettings

    settings = ConnectionSettings(
        url=profile.url,
        identifier=profile.identifier,
        protocol=cast("ProtocolName | None", profile.protocol),
        mode="control" if control else "watch",
        api_version=profile.api_version,
        profile=profile.name or None,
    )
    token_error: TokenStoreError | None = None
    if token is None:
        try:
            token = TokenStore().get(profile.url)
        except TokenStoreError as error:
            # No usable keyring: try without a token (loopback endpoints may not need one); if
            # the endpoint answers 403, the failure is this error, which names the fixes.
            token, token_error = None, error
    connection_label = profile.name or profile.identifier
    policy = None
    if record is not None:
        policy = recording_policy(
            record,
            identifier=profile.identifier,
            endpoint=profile.url,
            record_input=record_input,
            format=format or DEFAULT_FORMAT,
            overwrite=overwrite,
            redact=redact,
            secrets=own_secrets(token),
        )
    session = WatchedSession(
        identifier=profile.identifier,
        want_control=control,
        recording=policy,
        reconnect=settings.reconnect_policy(),
        follow_size=follow_size,
        remote_size=remote_size,
        idle_release=DEFAULT_IDLE_RELEASE if idle_release is None else idle_release,
        scrollback=DEFAULT_SCROLLBACK if scrollback is None else scrollback,
    )
    from observer.protocol.endpoints import parse_endpoint
    from observer.transport.connection import Connection

    label = f"{connection_label} · {parse_endpoint(profile.url).origin}"
    return Connection(settings, session, token, token_error=token_error, label=label)


def notify_targets(
    links: Sequence[object], profiles: list[Profile], command: str | None, config: Config
) -> dict[int, NotifyTarget]:
    """Each session's notify command (``--notify-command``, else its profile's, else the
    config's) with the names it is told, by the ``id`` of its link."""
    from observer.app.notify_command import NotifyTarget

    targets: dict[int, NotifyTarget] = {}
    for link, profile in zip(links, profiles, strict=True):
        chosen = command or config.notify_command_for(profile)
        if chosen:
            targets[id(link)] = NotifyTarget(chosen, profile.name, profile.identifier, profile.url)
    return targets


def run(args: argparse.Namespace) -> int:
    """Open the app on the sessions; return its exit status."""
    from observer.app import textual_patches
    from observer.app.app import ObserverApp
    from observer.errors import UsageError
    from observer.runtime.config import config_dir, load_config
    from observer.runtime.memory import limit_malloc_arenas
    from observer.terminal.size import parse_size
    from observer.themes import load_theme

    remote_size = None if args.size is None else parse_size(args.size, "--size")
    if remote_size is not None and args.keep_remote_size:
        raise UsageError("--size and --keep-remote-size disagree", "give one of them")
    profiles = _profiles(args)
    _check_recording(args, len(profiles))
    config = load_config()
    theme = args.theme or config.theme
    if theme is not None:
        load_theme(theme, config_dir())  # a wrong name fails here, before any keyring prompt
    _refuse_unreachable(profiles)
    links = [
        build_link(
            p,
            control=args.control,
            record=args.record,
            record_input=args.record_input,
            format=record_format(args, config),
            overwrite=args.overwrite,
            redact=args.redact,
            follow_size=not args.keep_remote_size,
            remote_size=remote_size,
            idle_release=config.idle_release,
            scrollback=0 if len(profiles) > 1 else None,  # a tile keeps no scrollback
        )
        for p in profiles
    ]
    limit_malloc_arenas()  # before the app's threads start (observer.runtime.memory says why)
    notify = notify_targets(links, profiles, args.notify_command, config)
    app = ObserverApp(
        links,
        theme=theme,
        config_dir=config_dir(),
        desktop_notifications=args.desktop_notifications or config.desktop_notifications,
        notify=notify,
    )
    textual_patches.install()
    app.run()
    if app.fatal is not None:
        raise app.fatal
    return app.return_code or 0
