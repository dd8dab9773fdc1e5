"""The head script that applies the wanted depth before first paint, and its place in the page."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from generator.emit.csp import page_policy, source_hash, with_security_meta
from generator.emit.depth_first_paint import HEAD_SCRIPT, HEAD_SCRIPTS, HEAD_TAG, LAZY_SEARCH_SCRIPT, with_head_script
from generator.emit.engine import trusted_scripts

PAGE = '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>T</title>\n</head>\n<body><p>x</p></body></html>'


def test_the_script_comes_first_in_head_after_the_charset() -> None:
    html = with_head_script(PAGE)
    assert html.index('<meta charset="utf-8">') < html.index(HEAD_TAG) < html.index("<title>")
    assert html.count(HEAD_TAG) == 1
    assert with_head_script(html) == html  # once, however often the finishing step runs


def test_the_page_policy_allows_the_script_by_its_hash_and_comes_before_it() -> None:
    finished = with_security_meta(with_head_script(PAGE), trusted_scripts())
    policy = page_policy(finished, trusted_scripts())
    assert len(HEAD_SCRIPTS) == 3 and all(source_hash(script) in policy for script in HEAD_SCRIPTS)
    assert "'unsafe-inline'" not in policy
    assert finished.index("Content-Security-Policy") < finished.index(HEAD_TAG)


def test_a_page_without_head_is_left_as_it_is() -> None:
    assert with_head_script("<p>fragment</p>") == "<p>fragment</p>"


def test_the_script_reads_the_same_storage_key_as_the_switcher() -> None:
    switcher = (re.search(r'STORAGE_KEY = "([^"]+)"', open("generator/assets/depth.js", encoding="utf-8").read()))
    assert switcher and f'localStorage.getItem("{switcher.group(1)}")' in HEAD_SCRIPT
    assert all("</script" not in script.lower() for script in HEAD_SCRIPTS)


# The search script run in Node with a stand-in XMLHttpRequest and document: which requests go out when.
LAZY_SEARCH_HARNESS = """
const sent = [], listeners = {}, steps = {};
class Request { open(method, url) { this.url = url; } send() { sent.push(this.url); } }
globalThis.location = new URL(process.argv[1]);
globalThis.window = { XMLHttpRequest: Request };
globalThis.document = { activeElement: null, addEventListener: (type, listener) => { listeners[type] = listener; } };
const field = { id: "", matches: (selector) => selector === "[data-md-component=search-query]" };
const toggle = { id: "__search", checked: false, matches: () => false };
eval(process.env.LAZY_SEARCH_SCRIPT);
const ask = (url) => { const request = new Request(); request.open("GET", url); request.send(); };
ask(new URL("../../search/search_index.json", location.href).href); ask("../../assets/page.js");
steps.atLoad = [...sent];
if (listeners.change) listeners.change({ target: toggle });
steps.uncheckedToggle = [...sent];
if (listeners.focusin) listeners.focusin({ target: field });
steps.searchOpened = [...sent];
ask("../../search/search_index.json");
steps.askedAgain = [...sent];
console.log(JSON.stringify(steps));
"""


def run_lazy_search(page_url: str) -> dict[str, list[str]]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is missing: install it (scripts/setup.sh needs it too)", pytrace=False)
    done = subprocess.run([node, "-e", LAZY_SEARCH_HARNESS, page_url], capture_output=True, text=True, timeout=60,
                          env={"LAZY_SEARCH_SCRIPT": LAZY_SEARCH_SCRIPT}, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_search_index_request_waits_until_the_search_field_has_focus() -> None:
    steps = run_lazy_search("http://site.test/sub/layer-1/power/")
    index = "http://site.test/sub/search/search_index.json"
    assert steps["atLoad"] == ["../../assets/page.js"]  # every other request goes through at once
    assert steps["uncheckedToggle"] == ["../../assets/page.js"]
    assert steps["searchOpened"] == ["../../assets/page.js", index]
    assert steps["askedAgain"][-1] == "../../search/search_index.json"  # once opened, nothing waits


def test_from_file_urls_nothing_is_held_back() -> None:
    steps = run_lazy_search("file:///home/reader/layermap/layer-1/power/index.html")
    assert steps["atLoad"] == ["file:///home/reader/layermap/search/search_index.json", "../../assets/page.js"]
