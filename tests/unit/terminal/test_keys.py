"""Keys and pastes encode to the bytes xterm sends (XTerm Control Sequences, "PC-Style Function Keys").

The expected literals were checked against what tmux 3.3a's ``send-keys`` writes into a raw PTY
(identical for all keys below except Home/End, where tmux sends the VT220 ``CSI 1 ~``/``CSI 4 ~``
and xterm, our reference, sends ``CSI H``/``CSI F``).
"""

from __future__ import annotations

import pytest

from observer.terminal.keys import encode_key, encode_paste

ESC = b"\x1b"
CSI = b"\x1b["
SS3 = b"\x1bO"


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("a", b"a"),
        ("A", b"A"),
        ("shift+a", b"A"),
        ("z", b"z"),
        ("7", b"7"),
        ("é", "é".encode()),
        ("中", "中".encode()),
        ("space", b" "),
        ("exclamation_mark", b"!"),
        ("slash", b"/"),
        ("backslash", b"\\"),
        ("minus", b"-"),
        ("plus", b"+"),
        ("+", b"+"),
        ("underscore", b"_"),
        ("at", b"@"),
        ("left_square_bracket", b"["),
        ("full_stop", b"."),
        ("euro_sign", "€".encode()),
    ],
)
def test_printable_keys_send_their_characters_in_utf8(key: str, expected: bytes) -> None:
    assert encode_key(key) == expected


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("enter", b"\r"),
        ("tab", b"\t"),
        ("shift+tab", CSI + b"Z"),
        ("backspace", b"\x7f"),
        ("ctrl+backspace", b"\x08"),
        ("escape", ESC),
        ("insert", CSI + b"2~"),
        ("delete", CSI + b"3~"),
        ("pageup", CSI + b"5~"),
        ("pagedown", CSI + b"6~"),
        ("home", CSI + b"H"),
        ("end", CSI + b"F"),
    ],
)
def test_editing_keys_send_xterm_defaults(key: str, expected: bytes) -> None:
    assert encode_key(key) == expected


@pytest.mark.parametrize(
    ("key", "normal", "application"),
    [
        ("up", CSI + b"A", SS3 + b"A"),
        ("down", CSI + b"B", SS3 + b"B"),
        ("right", CSI + b"C", SS3 + b"C"),
        ("left", CSI + b"D", SS3 + b"D"),
        ("home", CSI + b"H", SS3 + b"H"),
        ("end", CSI + b"F", SS3 + b"F"),
    ],
)
def test_cursor_keys_use_ss3_only_in_application_cursor_mode(
    key: str, normal: bytes, application: bytes
) -> None:
    assert encode_key(key) == normal
    assert encode_key(key, application_cursor=False) == normal
    assert encode_key(key, application_cursor=True) == application


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("shift+up", CSI + b"1;2A"),
        ("alt+up", CSI + b"1;3A"),
        ("ctrl+up", CSI + b"1;5A"),
        ("ctrl+shift+up", CSI + b"1;6A"),
        ("shift+ctrl+up", CSI + b"1;6A"),
        ("alt+ctrl+left", CSI + b"1;7D"),
        ("ctrl+shift+alt+right", CSI + b"1;8C"),
        ("meta+down", CSI + b"1;9B"),
        ("ctrl+home", CSI + b"1;5H"),
        ("shift+end", CSI + b"1;2F"),
        ("ctrl+delete", CSI + b"3;5~"),
        ("shift+pageup", CSI + b"5;2~"),
        ("ctrl+shift+insert", CSI + b"2;6~"),
    ],
)
def test_modified_special_keys_carry_the_xterm_modifier_parameter(
    key: str, expected: bytes
) -> None:
    assert encode_key(key) == expected
    # The modified form is the same whatever the cursor mode (ctlseqs: modifiers force CSI).
    assert encode_key(key, application_cursor=True) == expected


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("f1", SS3 + b"P"),
        ("f2", SS3 + b"Q"),
        ("f3", SS3 + b"R"),
        ("f4", SS3 + b"S"),
        ("f5", CSI + b"15~"),
        ("f6", CSI + b"17~"),
        ("f7", CSI + b"18~"),
        ("f8", CSI + b"19~"),
        ("f9", CSI + b"20~"),
        ("f10", CSI + b"21~"),
        ("f11", CSI + b"23~"),
        ("f12", CSI + b"24~"),
        ("shift+f1", CSI + b"1;2P"),
        ("ctrl+f4", CSI + b"1;5S"),
        ("ctrl+f5", CSI + b"15;5~"),
        ("alt+f12", CSI + b"24;3~"),
        ("f13", CSI + b"1;2P"),
        ("f17", CSI + b"15;2~"),
        ("f24", CSI + b"24;2~"),
        ("ctrl+f13", CSI + b"1;6P"),
    ],
)
def test_function_keys_match_xterm(key: str, expected: bytes) -> None:
    assert encode_key(key) == expected


@pytest.mark.parametrize(("letter", "code"), [(chr(ord("a") + i), i + 1) for i in range(26)])
def test_ctrl_letters_send_c0_controls(letter: str, code: int) -> None:
    assert encode_key(f"ctrl+{letter}") == bytes([code])
    # Legacy encoding cannot tell Shift apart: Ctrl+Shift+C is Ctrl+C.
    assert encode_key(f"ctrl+shift+{letter}") == bytes([code])
    assert encode_key(f"ctrl+{letter.upper()}") == bytes([code])


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("ctrl+@", b"\x00"),
        ("ctrl+at", b"\x00"),
        ("ctrl+space", b"\x00"),
        ("ctrl+2", b"\x00"),
        ("ctrl+[", b"\x1b"),
        ("ctrl+left_square_bracket", b"\x1b"),
        ("ctrl+backslash", b"\x1c"),
        ("ctrl+right_square_bracket", b"\x1d"),
        ("ctrl+circumflex_accent", b"\x1e"),
        ("ctrl+underscore", b"\x1f"),
        ("ctrl+slash", b"\x1f"),
        ("ctrl+question_mark", b"\x7f"),
        ("ctrl+1", b"1"),
        ("ctrl+comma", b","),
    ],
)
def test_ctrl_symbols_send_the_vt100_control_characters(key: str, expected: bytes) -> None:
    assert encode_key(key) == expected


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("alt+x", ESC + b"x"),
        ("alt+shift+x", ESC + b"X"),
        ("alt+X", ESC + b"X"),
        ("meta+x", ESC + b"x"),
        ("alt+ctrl+a", ESC + b"\x01"),
        ("alt+enter", ESC + b"\r"),
        ("alt+backspace", ESC + b"\x7f"),
        ("alt+space", ESC + b" "),
        ("alt+full_stop", ESC + b"."),
    ],
)
def test_alt_prefixes_escape_like_metasendsescape(key: str, expected: bytes | None) -> None:
    assert encode_key(key) == expected


@pytest.mark.parametrize(
    ("key", "numeric", "application"),
    [
        ("kp_0", b"0", SS3 + b"p"),
        ("kp_5", b"5", SS3 + b"u"),
        ("kp_9", b"9", SS3 + b"y"),
        ("kp_enter", b"\r", SS3 + b"M"),
        ("kp_add", b"+", SS3 + b"k"),
        ("kp_subtract", b"-", SS3 + b"m"),
        ("kp_multiply", b"*", SS3 + b"j"),
        ("kp_divide", b"/", SS3 + b"o"),
        ("kp_decimal", b".", SS3 + b"n"),
    ],
)
def test_keypad_keys_send_ss3_codes_only_in_application_keypad_mode(
    key: str, numeric: bytes, application: bytes
) -> None:
    assert encode_key(key) == numeric
    assert encode_key(key, application_keypad=True) == application


@pytest.mark.parametrize(
    "key",
    [
        "",
        "super+a",
        "hyper+x",
        "caps_lock",
        "num_lock",
        "menu",
        "left_shift",
        "media_play",
        "<ignore>",
        "f25",
        "ctrl+",
        "tab+",
        "not_a_key",
    ],
)
def test_keys_without_an_encoding_give_none(key: str) -> None:
    assert encode_key(key) is None


def test_a_plain_paste_sends_the_text_with_newlines_as_carriage_returns() -> None:
    assert encode_paste("ls\nexit\r\n", bracketed=False) == b"ls\rexit\r"
    assert encode_paste("naïve 中", bracketed=False) == "naïve 中".encode()


def test_a_bracketed_paste_is_wrapped_in_the_paste_markers() -> None:
    assert encode_paste("echo hi\n", bracketed=True) == b"\x1b[200~echo hi\r\x1b[201~"
    assert encode_paste("", bracketed=True) == b"\x1b[200~\x1b[201~"


def test_a_pasted_end_marker_cannot_end_the_bracket_early() -> None:
    hostile = "harmless\x1b[201~rm -rf ~\n"
    sent = encode_paste(hostile, bracketed=True)
    assert sent == b"\x1b[200~harmlessrm -rf ~\r\x1b[201~"
    assert sent.count(b"\x1b[201~") == 1


def test_nested_markers_cannot_reassemble_into_an_end_marker() -> None:
    sent = encode_paste("a\x1b[20\x1b[201~1~b\x1b[200~c\x9b201~d", bracketed=True)
    assert sent == b"\x1b[200~abcd\x1b[201~"


def test_unencodable_text_is_replaced_rather_than_raising() -> None:
    assert encode_paste("a\ud800b", bracketed=False) == b"a?b"


# --------------------------------------------------------------------------- round trip through Textual

ROUND_TRIP_KEYS = [
    "a", "A", "7", "space", "exclamation_mark", "slash", "enter", "tab", "shift+tab", "backspace",
    "escape", "up", "down", "left", "right", "home", "end", "pageup", "pagedown", "insert", "delete",
    *(f"f{n}" for n in range(1, 13)),
    "ctrl+a", "ctrl+c", "ctrl+z", "ctrl+@", "ctrl+j", "ctrl+backslash", "ctrl+right_square_bracket",
    "ctrl+circumflex_accent", "ctrl+underscore", "alt+a", "alt+x", "alt+shift+a",
    "ctrl+up", "shift+up", "alt+up", "ctrl+shift+up", "alt+ctrl+left", "shift+home", "ctrl+end",
    "ctrl+home", "ctrl+delete", "shift+delete", "ctrl+pageup", "shift+f5", "ctrl+f1", "alt+f4",
    "kp_begin",
]  # fmt: skip

# Keys a legacy (non-kitty) encoding cannot tell apart: the program reads them as another key
# (Textual reads both BS and DEL as backspace).
LEGACY_ALIASES = {
    "ctrl+space": "ctrl+@",
    "ctrl+h": "backspace",
    "ctrl+backspace": "backspace",
    "ctrl+i": "tab",
    "ctrl+m": "enter",
    "ctrl+shift+c": "ctrl+c",
    "f13": "shift+f1",
    "f24": "shift+f12",
}


def decoded_by_textual(data: bytes) -> list[str]:
    """The key names Textual's own xterm input parser reads from ``data``.

    Textual is the program on the other side of these bytes whenever the agent runs a Textual app;
    its parser is private API, pinned by the project's ``textual<9`` requirement.
    """
    from textual._xterm_parser import XTermParser

    parser = XTermParser()
    events = [*parser.feed(data.decode()), *parser.feed("")]  # "" ends input: flushes a lone ESC
    return [event.key for event in events if hasattr(event, "key")]


@pytest.mark.parametrize("key", ROUND_TRIP_KEYS)
def test_textual_reads_an_encoded_key_back_as_the_same_key(key: str) -> None:
    encoded = encode_key(key)
    assert encoded is not None
    assert decoded_by_textual(encoded) == [key]


@pytest.mark.parametrize(("key", "arrives_as"), LEGACY_ALIASES.items())
def test_keys_legacy_encoding_cannot_distinguish_arrive_as_their_alias(
    key: str, arrives_as: str
) -> None:
    encoded = encode_key(key)
    assert encoded is not None
    assert decoded_by_textual(encoded) == [arrives_as]


def test_application_cursor_keys_are_read_back_as_the_same_keys() -> None:
    for key in ("up", "down", "left", "right", "home", "end"):
        encoded = encode_key(key, application_cursor=True)
        assert encoded is not None
        assert encoded.startswith(b"\x1bO")
        assert decoded_by_textual(encoded) == [key]


def test_a_bracketed_paste_is_read_back_by_textual_as_one_paste() -> None:
    from textual import events
    from textual._xterm_parser import XTermParser

    parser = XTermParser()
    text = "line one\nline two\x1b[201~ injected\n"
    messages = [*parser.feed(encode_paste(text, bracketed=True).decode()), *parser.feed("")]
    pastes = [m for m in messages if isinstance(m, events.Paste)]
    assert len(pastes) == 1
    assert [m for m in messages if isinstance(m, events.Key)] == []
    assert pastes[0].text.replace("\r", "\n") == "line one\nline two injected\n"
