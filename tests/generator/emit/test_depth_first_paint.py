"""The head script that applies the wanted depth before first paint, and its place in the page."""

from __future__ import annotations

import re

from generator.emit.csp import page_policy, source_hash, with_security_meta
from generator.emit.depth_first_paint import HEAD_SCRIPT, HEAD_TAG, on_post_page, with_head_script

PAGE = '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>T</title>\n</head>\n<body><p>x</p></body></html>'


def test_the_script_comes_first_in_head_after_the_charset() -> None:
    html = with_head_script(PAGE)
    assert html.index('<meta charset="utf-8">') < html.index(HEAD_TAG) < html.index("<title>")
    assert html.count(HEAD_TAG) == 1
    assert with_head_script(html) == html  # once, however often the hook runs
    assert on_post_page(PAGE) == html


def test_the_page_policy_allows_the_script_by_its_hash_and_comes_before_it() -> None:
    finished = with_security_meta(with_head_script(PAGE))
    assert source_hash(HEAD_SCRIPT) in page_policy(finished)
    assert "'unsafe-inline'" not in page_policy(finished)
    assert finished.index("Content-Security-Policy") < finished.index(HEAD_TAG)


def test_a_page_without_head_is_left_as_it_is() -> None:
    assert with_head_script("<p>fragment</p>") == "<p>fragment</p>"


def test_the_script_reads_the_same_storage_key_as_the_switcher() -> None:
    switcher = (re.search(r'STORAGE_KEY = "([^"]+)"', open("generator/assets/depth.js", encoding="utf-8").read()))
    assert switcher and f'localStorage.getItem("{switcher.group(1)}")' in HEAD_SCRIPT
    assert "</script" not in HEAD_SCRIPT.lower()
