"""The token store: keyring per origin, OBSERVER_TOKEN override, fail closed, never show a token."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import jwt
import keyring
import pytest
from keyring.backends import chainer, fail

from observer.credentials.keyring_backend import resolve_backend
from observer.credentials.store import SERVICE, Secret, TokenStore, inspect_token, token_advice
from observer.errors import TokenStoreError
from tests.shells.keyrings import BrokenKeyring, MemoryKeyring

CANARY = "canary-7f3a9c-token-value"


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def store_in(tmp_path: Path, backend: object = None, **environ: str) -> TokenStore:
    return TokenStore(backend, index_path=tmp_path / "origins", environ=environ)


def test_a_token_is_stored_under_service_observer_and_the_normalized_origin(
    tmp_path: Path, memory: MemoryKeyring
) -> None:
    store = store_in(tmp_path)
    origin = store.set("https://Sandbox.Example/some/path?x=1", CANARY)
    assert origin == "wss://sandbox.example:443"
    assert memory.entries == {(SERVICE, "wss://sandbox.example:443"): CANARY}
    token = store.get("wss://sandbox.example")
    assert token is not None and token.reveal() == CANARY


def test_the_index_lists_origins_and_never_tokens(tmp_path: Path, memory: MemoryKeyring) -> None:
    store = store_in(tmp_path)
    store.set("ws://127.0.0.1:8765", CANARY)
    store.set("https://b.example", CANARY + "2")
    assert store.origins() == ["ws://127.0.0.1:8765", "wss://b.example:443"]
    assert CANARY not in (tmp_path / "origins").read_text()
    assert store.delete("ws://127.0.0.1:8765") is True
    assert store.origins() == ["wss://b.example:443"]
    assert store.get("ws://127.0.0.1:8765") is None


def test_deleting_a_missing_token_says_so(tmp_path: Path, memory: MemoryKeyring) -> None:
    assert store_in(tmp_path).delete("wss://nothing.example") is False


def test_observer_token_overrides_the_keyring_for_every_endpoint(
    tmp_path: Path, memory: MemoryKeyring
) -> None:
    store = store_in(tmp_path, OBSERVER_TOKEN="from-env")
    store.set("wss://a.example", CANARY)
    token = store.get("wss://a.example")
    assert token is not None and token.reveal() == "from-env"
    info = store.info("wss://elsewhere.example")
    assert info is not None and info.source == "environment"


def test_observer_token_works_without_any_keyring(tmp_path: Path) -> None:
    store = store_in(tmp_path, fail.Keyring(), OBSERVER_TOKEN="ci-token")
    token = store.get("wss://a.example")
    assert token is not None and token.reveal() == "ci-token"


@pytest.mark.parametrize("members", [None, [], ["plaintext"]])
def test_no_usable_backend_fails_closed_and_names_the_fixes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, members: list[str] | None
) -> None:
    """``None``: keyring's fail backend; else a chainer holding nothing, or only a plaintext file
    (what keyring finds on this headless machine)."""
    from keyrings.alt.file import PlaintextKeyring

    backend: object = fail.Keyring()
    if members is not None:
        found = [PlaintextKeyring() for _ in members]
        monkeypatch.setattr(chainer.ChainerBackend, "backends", property(lambda self: found))
        backend = chainer.ChainerBackend()
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)  # type: ignore[arg-type]
    try:
        store = store_in(tmp_path)
        with pytest.raises(TokenStoreError) as error:
            store.set("wss://a.example", CANARY)
    finally:
        keyring.set_keyring(previous)
    message = str(error.value)
    assert "Secret Service" in message and "OBSERVER_TOKEN" in message
    assert "keyrings.alt" in message
    assert not (tmp_path / "origins").exists(), "nothing may be written when the store fails"


def test_an_implicitly_detected_plaintext_backend_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from keyrings.alt.file import PlaintextKeyring

    previous = keyring.get_keyring()
    keyring.set_keyring(PlaintextKeyring())
    monkeypatch.delenv("PYTHON_KEYRING_BACKEND", raising=False)
    monkeypatch.setattr("keyring.core.load_config", lambda: None)
    try:
        with pytest.raises(TokenStoreError, match="does not fall back to it silently"):
            resolve_backend()
    finally:
        keyring.set_keyring(previous)


def test_an_explicitly_chosen_file_backend_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    store = store_in(tmp_path, resolve_backend())
    store.set("wss://a.example", CANARY)
    token = store.get("wss://a.example")
    assert token is not None and token.reveal() == CANARY


@pytest.mark.parametrize(
    ("chosen", "fix"),
    [
        ("keyrings.alt.file.EncryptedKeyrng", "check the class name"),
        ("keyrings.nothing.Keyring", "check the class name"),
        ("keyrings.alt.file.EncryptedKeyring", "pip install 'observer-tty[file-keyring]'"),
    ],
)
def test_a_chosen_backend_that_cannot_load_is_one_line_naming_the_fix(
    monkeypatch: pytest.MonkeyPatch, chosen: str, fix: str
) -> None:
    """The last case is keyrings.alt's encrypted file on a machine without pycryptodome: its
    crypto import fails as it does there."""
    from keyrings.alt.file import EncryptedKeyring

    def no_crypto() -> None:
        raise ImportError("No module named 'Crypto'")

    monkeypatch.setattr(EncryptedKeyring, "_get_crypto_impl", staticmethod(no_crypto))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", chosen)
    with pytest.raises(TokenStoreError) as error:
        resolve_backend()
    message = str(error.value)
    assert message.startswith(f"the keyring backend PYTHON_KEYRING_BACKEND={chosen} could not")
    _, do = message.split(" — ")
    assert fix in do and do.endswith("or unset PYTHON_KEYRING_BACKEND")
    assert "\n" not in message and error.value.__cause__ is None


def test_the_advice_for_a_refused_token_fixes_it_where_it_came_from() -> None:
    origin = "wss://a.example:443"
    assert token_advice(origin, environ={}) == f"run `observer auth login {origin}`"
    assert token_advice(origin, "a fresh token", environ={}) == (
        f"run `observer auth login {origin}` with a fresh token"
    )
    from_env = {"OBSERVER_TOKEN": CANARY}
    assert token_advice(origin, environ=from_env) == (
        "fix or unset OBSERVER_TOKEN (it overrides the keyring for every endpoint)"
    )
    assert token_advice(origin, "a fresh token", environ=from_env) == (
        "set OBSERVER_TOKEN to a fresh token, or unset it to use the keyring"
    )


def test_a_backend_error_becomes_a_token_store_error_without_the_token(tmp_path: Path) -> None:
    store = store_in(tmp_path, BrokenKeyring())
    with pytest.raises(TokenStoreError) as error:
        store.set("wss://a.example", CANARY)
    assert CANARY not in str(error.value) and CANARY not in repr(error.value)
    assert error.value.__cause__ is None and error.value.__context__ is not None
    assert "RuntimeError" in str(error.value)


def test_a_secret_never_shows_its_value() -> None:
    secret = Secret(CANARY)
    shown = [repr(secret), str(secret), f"{secret}", f"{secret!r}", repr([secret])]
    assert all(CANARY not in text for text in shown)


def test_a_jwt_shows_audience_and_expiry_but_not_itself() -> None:
    exp = dt.datetime(2030, 1, 2, 3, 4, tzinfo=dt.UTC)
    token = jwt.encode({"aud": "sandboxes", "exp": exp, "sub": "ci"}, "k" * 32, algorithm="HS256")
    info = inspect_token(Secret(token), "wss://a.example:443", "keyring")
    assert (info.kind, info.audience, info.expires_at) == ("jwt", ("sandboxes",), exp)
    text = info.describe(dt.datetime(2030, 1, 2, 1, 4, tzinfo=dt.UTC))
    assert text == "JWT, audience sandboxes, expires 2030-01-02 03:04 UTC (in 2 h)"
    assert token not in text
    assert info.expired(exp) and not info.expired(exp - dt.timedelta(seconds=1))


def test_a_non_jwt_token_is_opaque() -> None:
    info = inspect_token(Secret(CANARY), "wss://a.example:443", "keyring")
    assert info.kind == "opaque" and info.describe(dt.datetime.now(dt.UTC)) == "opaque token"


async def test_the_async_wrappers_run_the_keyring_in_a_thread(
    tmp_path: Path, memory: MemoryKeyring
) -> None:
    import threading

    seen: list[str] = []
    original = memory.get_password

    def spy(service: str, username: str) -> str | None:
        seen.append(threading.current_thread().name)
        return original(service, username)

    memory.get_password = spy  # type: ignore[method-assign]
    store = store_in(tmp_path)
    await store.set_async("wss://a.example", CANARY)
    token = await store.get_async("wss://a.example")
    assert token is not None and token.reveal() == CANARY
    assert seen and threading.main_thread().name not in seen
    assert await store.delete_async("wss://a.example") is True
