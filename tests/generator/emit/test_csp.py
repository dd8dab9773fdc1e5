"""The Content-Security-Policy written into each built page: hashes from the page itself."""

from __future__ import annotations

import pytest

from generator.emit.csp import REFERRER_POLICY, page_policy, source_hash, with_security_meta
from generator.errors import LayermapError

# The hash MDN's CSP documentation gives for this script.
KNOWN = ("alert('Hello, world.');", "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='")


def directives(policy: str) -> dict[str, list[str]]:
    return {name: values for name, *values in (part.split() for part in policy.split("; "))}


def test_a_hash_matches_the_published_one() -> None:
    assert source_hash(KNOWN[0]) == KNOWN[1]


def test_inline_scripts_that_run_are_hashed_and_nothing_else() -> None:
    page = (f"<head><script>{KNOWN[0]}</script><script type=module>go()</script>"
            '<script id="__config" type="application/json">{"a": 1}</script>'
            '<script src="x.js"></script><script>' + KNOWN[0] + "</script></head>")
    scripts = directives(page_policy(page))["script-src"]
    assert scripts == ["'self'", KNOWN[1], source_hash("go()")]  # once each, in page order


def test_style_elements_are_hashed_for_style_src() -> None:
    page = "<body><svg><style>.a{fill:red}</style></svg></body>"
    assert directives(page_policy(page))["style-src"] == ["'self'", source_hash(".a{fill:red}")]


def test_the_policy_is_strict() -> None:
    policy = directives(page_policy("<head></head>"))
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"] and policy["form-action"] == ["'self'"]
    assert policy["worker-src"] == ["'self'"] and policy["connect-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    everything = " ".join(value for values in policy.values() for value in values)
    assert "unsafe" not in everything and "*" not in everything and "http" not in everything


def test_the_meta_goes_first_in_head_after_the_charset() -> None:
    page = f'<!doctype html><html><head>\n<meta charset="utf-8">\n<title>t</title><script>{KNOWN[0]}</script></head></html>'
    out = with_security_meta(page)
    head = out[out.index("<head>") + len("<head>"):]
    assert head.startswith('\n<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src')
    assert f'<meta name="referrer" content="{REFERRER_POLICY}">\n<title>' in out
    assert KNOWN[1] in out


def test_without_a_charset_the_meta_opens_head() -> None:
    out = with_security_meta("<html><head><title>t</title></head></html>")
    assert out.startswith('<html><head><meta http-equiv="Content-Security-Policy"')


def test_a_page_without_head_is_a_clear_error() -> None:
    with pytest.raises(LayermapError, match="broken.html: the built page has no <head>"):
        with_security_meta("<p>no head</p>", "broken.html")
