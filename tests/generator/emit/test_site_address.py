"""Which site URLs a published copy can use, and which are no site address at all."""

from __future__ import annotations

import pytest

from generator.emit.site_address import address_problem, checked_site_url, url_problem
from generator.errors import LayermapError


@pytest.mark.parametrize("url", ["", "http://127.0.0.1:8000/", "http://localhost:8000/map/", "http://0.0.0.0/",
                                 "http://[::1]:8000/", "http://docs.localhost/"])
def test_a_missing_or_local_address_is_a_problem(url: str) -> None:
    problem = address_problem(url)
    assert problem is not None
    assert ("no site URL" in problem) if not url else (url in problem and "local address" in problem)


@pytest.mark.parametrize("url", ["https://user.github.io/layermap/", "https://maps.example.org/", "http://10.0.0.5/"])
def test_a_public_address_is_fine(url: str) -> None:
    assert address_problem(url) is None


# --- a site address is a URL, nothing more (issue 33, F13) ------------------------------------------

@pytest.mark.parametrize(("url", "problem"), [
    ('https://example.org/"><script>alert(1)</script>', "it holds a quote (`\"`)"),
    ("https://example.org/'onload='x", "it holds a quote (`'`)"),
    ("https://example.org/<svg>", "it holds an angle bracket (`<`)"),
    ("https://example.org/a b/", "it holds a space"),
    ("https://example.org/\x1b]8;;x\x07", "it holds the control character or space `\\x1b`"),
    ("https://example.org/\tmap/", "it holds the control character or space `\\t`"),
    ("https://example.org\\evil.example/", "it holds a backslash (`\\`)"),
    ("https://user:secret@example.org/", "it holds a user name or password"),
    ("https://example.org/map/?utm=1", "it has a query (`?…`) or a fragment (`#…`)"),
    ("https://example.org/map/#top", "it has a query (`?…`) or a fragment (`#…`)"),
    ("javascript:alert(1)//", "it does not start with `https://` or `http://`"),
    ("ftp://example.org/", "it does not start with `https://` or `http://`"),
    ("example.org/map/", "it does not start with `https://` or `http://`"),
    ("https:///map/", "it names no host"),
    ("https://example.org:http/", "its port is not a number"),
    ("https://bücher.example/", "which is not ASCII"),
    ("https://example.org/{{x}}/", "it holds `{`"),
])
def test_what_is_no_site_address_is_said(url: str, problem: str) -> None:
    assert problem in (url_problem(url) or "")


@pytest.mark.parametrize("url", ["https://user.github.io/layermap/", "http://127.0.0.1:8000/", "http://[::1]:8000/",
                                 "https://maps.example.org/a-b_c.d~e/%C3%BC/", "HTTPS://EXAMPLE.ORG"])
def test_a_site_address_passes(url: str) -> None:
    assert url_problem(url) is None
    assert checked_site_url(url) == url


def test_a_bad_address_names_the_variable_that_gave_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAYERMAP_SITE_URL", "https://example.org/\"><script>")
    with pytest.raises(LayermapError) as caught:
        checked_site_url("https://example.org/\"><script>/")
    assert caught.value.message.startswith("LAYERMAP_SITE_URL is not a usable site address: it holds a quote")
    assert caught.value.hint.startswith("set it to the address the site is published at")


def test_a_bad_address_from_the_config_names_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAYERMAP_SITE_URL", "")
    with pytest.raises(LayermapError, match=r"^`site_url` in mkdocs.yml is not a usable site address: it holds a space"):
        checked_site_url("https://example.org/a b/")


def test_no_address_is_no_error() -> None:
    assert checked_site_url("") == ""
