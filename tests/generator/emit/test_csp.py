"""The Content-Security-Policy written into each built page: only layermap's and the theme's own
inline scripts enter it; anything else inline fails the build."""

from __future__ import annotations

import re

import pytest

from generator.emit.csp import (
    REFERRER_POLICY,
    TrustedScripts,
    UntrustedInline,
    page_policy,
    refuse_other_hosts,
    source_hash,
    with_security_meta,
)
from generator.emit.depth_first_paint import HEAD_SCRIPTS
from generator.emit.engine import theme_inline_scripts, trusted_scripts
from generator.errors import LayermapError

# The hash MDN's CSP documentation gives for this script.
KNOWN = ("alert('Hello, world.');", "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='")


TRUSTED = TrustedScripts.of((KNOWN[0], "go()"), ('x=new URL("{{ base_url }}",location)',))


def directives(policy: str) -> dict[str, list[str]]:
    return {name: values for name, *values in (part.split() for part in policy.split("; "))}


def test_a_hash_matches_the_published_one() -> None:
    assert source_hash(KNOWN[0]) == KNOWN[1]


def test_inline_scripts_that_run_are_hashed_and_nothing_else() -> None:
    page = (f"<head><script>{KNOWN[0]}</script><script type=module>go()</script>"
            '<script id="__config" type="application/json">{"a": 1}</script>'
            '<script src="x.js"></script><script>' + KNOWN[0] + "</script></head>")
    scripts = directives(page_policy(page, TRUSTED))["script-src"]
    assert scripts == ["'self'", KNOWN[1], source_hash("go()")]  # once each, in page order


def test_a_theme_script_is_trusted_with_a_path_in_its_slot_only() -> None:
    good = '<head><script>x=new URL("../..",location)</script></head>'
    assert source_hash('x=new URL("../..",location)') in page_policy(good, TRUSTED)
    for value in ('"+alert(1)+"', "..\\u0022", "</script><script>alert(1)//", "a b"):
        with pytest.raises(UntrustedInline, match="an inline script"):
            page_policy(f'<head><script>x=new URL("{value}",location)</script></head>', TRUSTED)


@pytest.mark.parametrize("inline", [
    "<script>alert(document.domain)</script>",  # e.g. from a page cache someone altered
    "<svg><script>alert(1)</script></svg>",
    '<script type="text/javascript">alert(1)</script>',
    "<script>alert(1)",  # never closed: runs to the end of the page
    "<svg><style>.a{fill:red}</style></svg>",
    '<img src="x.png" onerror="alert(1)">',
    '<img src="x.png"/ONLOAD=alert(1)>',
    '<a title="a > b" onclick="alert(1)">x</a>',
])
def test_anything_inline_layermap_did_not_write_fails_the_build_naming_the_page(inline: str) -> None:
    page = f"<html><head><script>{KNOWN[0]}</script></head><body>{inline}</body></html>"
    with pytest.raises(UntrustedInline, match=r"^layer-1/power/index\.html: ") as refused:
        with_security_meta(page, TRUSTED, "layer-1/power/index.html")
    assert "layermap build --clean" in refused.value.hint


def test_prose_that_mentions_a_handler_is_not_a_handler() -> None:
    page = "<head></head><body><p>an <code>&lt;img onerror=alert(1)&gt;</code> shown as text; one = two</p></body>"
    assert "script-src 'self';" in page_policy(page, TRUSTED)


def test_the_theme_scripts_come_from_its_templates_with_the_head_scripts_beside_them() -> None:
    scope = next(body for body in theme_inline_scripts() if body.startswith("__md_scope=new URL("))
    trusted = trusted_scripts()
    for base in ("../..", ".", "/repo/"):
        assert trusted.trusts(re.sub(r"\{\{.*?\}\}", base, scope))
    assert not trusted.trusts(re.sub(r"\{\{.*?\}\}", '",alert(1),"', scope))
    assert all(trusted.trusts(script) for script in HEAD_SCRIPTS)


def test_the_policy_is_strict() -> None:
    policy = directives(page_policy("<head></head>", TRUSTED))
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"] and policy["form-action"] == ["'self'"]
    assert policy["worker-src"] == ["'self'"] and policy["connect-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    everything = " ".join(value for values in policy.values() for value in values)
    assert "unsafe" not in everything and "*" not in everything and "http" not in everything


def test_the_meta_goes_first_in_head_after_the_charset() -> None:
    page = f'<!doctype html><html><head>\n<meta charset="utf-8">\n<title>t</title><script>{KNOWN[0]}</script></head></html>'
    out = with_security_meta(page, TRUSTED)
    head = out[out.index("<head>") + len("<head>"):]
    assert head.startswith('\n<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src')
    assert f'<meta name="referrer" content="{REFERRER_POLICY}">\n<title>' in out
    assert KNOWN[1] in out


def test_without_a_charset_the_meta_opens_head() -> None:
    out = with_security_meta("<html><head><title>t</title></head></html>", TRUSTED)
    assert out.startswith('<html><head><meta http-equiv="Content-Security-Policy"')


def test_a_page_without_head_is_a_clear_error() -> None:
    with pytest.raises(LayermapError, match="broken.html: the built page has no <head>"):
        with_security_meta("<p>no head</p>", TRUSTED, "broken.html")


# --- the downloadable copy: embedded files beside the page only (from disk, 'self' admits file://host/) ---


@pytest.mark.parametrize("embed", ['<img src="/\\evil.example/x.png">', "<img src='//evil.example/x.png'>",
                                   '<img src=file://evil.example/x.png>', '<script src="/assets/x.js"></script>',
                                   '<link rel="stylesheet" href="&#92;&#92;evil.example/x.css">',
                                   '<video poster="https://evil.example/p.png"></video>'])
def test_a_copy_page_that_embeds_a_file_elsewhere_is_refused(embed: str) -> None:
    with pytest.raises(LayermapError, match=r"^layer-1/index\.html: the downloadable copy's page embeds"):
        refuse_other_hosts(f"<html><head></head><body>{embed}</body></html>", "layer-1/index.html")


def test_a_copy_page_with_files_beside_it_passes() -> None:
    refuse_other_hosts('<head><link rel="stylesheet" href="../assets/a.css"><script src="../assets/b.js"></script></head>'
                       '<body><img src="../images/c.png"><a href="https://example.org/">out</a><p data-x="/y">z</p></body>')


def test_a_copy_page_may_name_its_published_address() -> None:
    refuse_other_hosts('<head><link rel="canonical" href="https://user.github.io/repo/"></head>')
