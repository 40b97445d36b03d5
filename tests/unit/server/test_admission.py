"""Which upgrade requests are admitted, and what the refused ones are told."""

from __future__ import annotations

from http import HTTPStatus

from observer.auth.tokens import Authenticator, TokenDigests, digest
from observer.server.admission import Admission, Listing, Refusal, admit

AUTH = Authenticator(TokenDigests.from_tokens([("control", "ctl"), ("watch", "wat")]))
OK = "/?identifier=agent-1&api-version=2024-02-02-preview"


def request(
    path: str = OK, token: str | None = "ctl", origin: str | None = None, sub: str = "observer.v1"
) -> Admission | Refusal:
    headers = {
        "authorization": [f"Bearer {token}"] if token else [],
        "origin": [origin] if origin else [],
        "sec-websocket-protocol": [sub],
    }
    return admit(path, headers, auth=AUTH, allowed_origins=frozenset({"https://ok.example"}))


def admitted(path: str = OK, token: str = "ctl") -> Admission:
    decision = request(path, token=token)
    assert isinstance(decision, Admission)
    return decision


def test_a_good_request_is_admitted_as_a_watcher_by_default() -> None:
    assert admitted().role == "control" and not admitted().want_control
    assert (admitted().identifier, admitted().since) == ("agent-1", None)
    resumed = admitted(OK + "&mode=control&since=42")
    assert (resumed.role, resumed.want_control, resumed.since) == ("control", True, 42)
    assert admitted(token="wat").role == "watch"


def test_the_admission_carries_what_the_token_proved() -> None:
    credential = admitted(token="wat").credential
    assert credential is not None and credential.role == "watch"
    assert credential.key == digest("wat") and credential.name == digest("wat")[:19]


def test_duplicate_authorization_or_origin_headers_are_400_before_anything_else() -> None:
    for name in ("authorization", "origin"):
        headers = {name: ["Bearer ctl", "Bearer wat"], "sec-websocket-protocol": ["observer.v1"]}
        refusal = admit("/nowhere", headers, auth=AUTH, allowed_origins=frozenset())
        assert refusal == Refusal(
            HTTPStatus.BAD_REQUEST, f"Duplicate {name.title()} header — send it once"
        )


def test_unauthenticated_requests_learn_nothing_else() -> None:
    for path in (OK, "/nowhere", "/?identifier=../x"):
        assert request(path, token=None) == Refusal(HTTPStatus.FORBIDDEN, "Unauthenticated")
        assert request(path, token="bad") == Refusal(HTTPStatus.FORBIDDEN, "Unauthenticated")


def test_a_watch_token_asking_for_control_is_forbidden() -> None:
    refusal = request(OK + "&mode=control", token="wat")
    assert isinstance(refusal, Refusal) and refusal.status == HTTPStatus.FORBIDDEN
    assert "watching only" in refusal.body


def test_origins_are_checked_only_when_a_browser_sends_one() -> None:
    assert isinstance(request(origin="https://ok.example"), Admission)
    refusal = request(origin="https://evil.example")
    assert isinstance(refusal, Refusal) and refusal.status == HTTPStatus.FORBIDDEN


def test_bad_identifiers_are_400() -> None:
    for identifier in ("", "-x", "a" * 65, "a/b", "a b", "%00"):
        path = f"/?identifier={identifier}&api-version=2024-02-02-preview"
        refusal = request(path)
        assert isinstance(refusal, Refusal) and refusal.status == HTTPStatus.BAD_REQUEST


def test_a_huge_since_and_an_unknown_subprotocol_are_400() -> None:
    assert isinstance(request(OK + "&since=" + "9" * 30), Refusal)
    refusal = request(sub="chat")
    assert isinstance(refusal, Refusal) and refusal.status == HTTPStatus.BAD_REQUEST
    assert "observer.v1, v1.alis, v3.asciicast, v2.asciicast, raw" in refusal.body


def test_no_subprotocol_is_the_raw_stream_with_every_other_rule_unchanged() -> None:
    raw = request(OK + "&mode=control", sub="")
    assert isinstance(raw, Admission) and raw.subprotocol is None and raw.stream == "raw"
    assert (raw.role, raw.want_control) == ("control", True)
    assert request(OK, token=None, sub="") == Refusal(HTTPStatus.FORBIDDEN, "Unauthenticated")
    refusal = request(OK + "&mode=control", token="wat", sub="")
    assert isinstance(refusal, Refusal) and refusal.status == HTTPStatus.FORBIDDEN
    refusal = request(origin="https://evil.example", sub="")
    assert isinstance(refusal, Refusal) and refusal.status == HTTPStatus.FORBIDDEN


def test_the_server_prefers_observer_v1_then_alis_then_asciicast_then_raw() -> None:
    player = "v1.alis, v2.asciicast, v3.asciicast, raw"  # what asciinema-player offers
    assert admitted_with(player).subprotocol == "v1.alis"
    assert admitted_with("raw, observer.v1").subprotocol == "observer.v1"
    assert admitted_with("v2.asciicast, v3.asciicast").subprotocol == "v3.asciicast"
    assert admitted_with("chat, v2.asciicast").subprotocol == "v2.asciicast"
    assert admitted_with("raw").stream == "raw"


def test_asciinema_streams_are_watch_only_and_only_observer_v1_resumes() -> None:
    for sub in ("v1.alis", "v2.asciicast", "v3.asciicast"):
        refusal = request(OK + "&mode=control", sub=sub)
        assert isinstance(refusal, Refusal) and refusal.status == HTTPStatus.BAD_REQUEST
        assert "mode=watch" in refusal.body
    for sub in ("", "raw", "v1.alis"):
        refusal = request(OK + "&since=0", sub=sub)
        assert isinstance(refusal, Refusal) and "since=" in refusal.body
    assert admitted_with("raw", OK + "&features=echo").features == frozenset()
    assert admitted_with("observer.v1", OK + "&since=0").since == 0


def admitted_with(sub: str, path: str = OK) -> Admission:
    decision = request(path, sub=sub)
    assert isinstance(decision, Admission), decision
    return decision


def test_without_an_authenticator_everybody_gets_control() -> None:
    decision = admit(
        OK, {"sec-websocket-protocol": ["observer.v1"]}, auth=None, allowed_origins=frozenset()
    )
    assert decision == Admission("agent-1", "control", False, None, credential=None)


def test_the_list_of_sessions_is_asked_with_a_token_and_an_api_version() -> None:
    listing = "/sessions?api-version=2024-02-02-preview"
    listed = request(listing, token="wat", sub="")
    assert isinstance(listed, Listing) and listed.credential is not None
    assert listed.credential.role == "watch"
    assert request(listing, token=None) == Refusal(HTTPStatus.FORBIDDEN, "Unauthenticated")
    assert request("/sessions?api-version=x", token="bad") == Refusal(
        HTTPStatus.FORBIDDEN, "Unauthenticated"
    )
    refusal = request("/sessions", token="ctl")
    assert isinstance(refusal, Refusal) and refusal.status == HTTPStatus.BAD_REQUEST
    refusal = request(listing + "&api-version=2024-02-02-preview")
    assert isinstance(refusal, Refusal) and "twice" in refusal.body
