"""The link dialog names the host a browser would go to, parsed the WHATWG way.

A browser reads an http(s) address by the WHATWG URL Standard, not RFC 3986: a backslash is a
``/`` (so ``https://evil.example\\@github.com/login`` goes to ``evil.example``), everything
before the last ``@`` of the authority is a user name, and a host is mapped to ASCII by IDNA.
The dialog must name that host, say why the address reads otherwise, and refuse to open an
address a browser would not read as it is shown.
"""

from __future__ import annotations

import pytest

from observer.app.urls import FoundLink, describe

BACKSLASHED = "https://evil.example\\@github.com/login"


def host_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("host: "))


def test_a_backslash_before_an_at_sign_leads_to_the_host_before_it() -> None:
    link = FoundLink(BACKSLASHED, "https://github.com/login", hyperlink=True)
    text = describe(link)
    assert host_line(text) == "host: evil.example"
    assert "backslash" in text
    assert link.opens


def test_a_backslash_target_shown_as_its_own_text_still_names_its_host() -> None:
    text = describe(FoundLink(BACKSLASHED, BACKSLASHED, hyperlink=True))
    assert host_line(text) == "host: evil.example" and "backslash" in text


@pytest.mark.parametrize(
    ("address", "host"),
    [
        ("https://github.com@evil.example/login", "evil.example"),
        ("https://github.com:443@evil.example/", "evil.example"),
        ("https://a@b@evil.example/", "evil.example"),
    ],
)
def test_a_user_name_that_reads_like_a_host_is_flagged(address: str, host: str) -> None:
    text = describe(FoundLink(address, address))
    assert host_line(text) == f"host: {host}"
    assert "user name" in text


def test_a_host_is_shown_after_idna_mapping_as_the_browser_resolves_it() -> None:
    fullwidth = "https://ｇｉｔｈｕｂ.com/"  # fullwidth letters map to ASCII (UTS #46)
    assert host_line(describe(FoundLink(fullwidth, fullwidth))) == "host: github.com"


@pytest.mark.parametrize("address", ["https://[::1/", "https://exa%00mple.com/", "https:///"])
def test_an_address_a_browser_cannot_read_never_opens(address: str) -> None:
    assert not FoundLink(address, address, hyperlink=True).opens
