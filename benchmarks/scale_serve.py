"""``layermap serve``: how long until a topic page is served, and how long a saved edit takes to show.

Start: from launching ``python -m generator.cli --project P serve --address 127.0.0.1:PORT`` until a
topic page answers HTTP 200 with its full content (its title and a phrase from the end of its last
depth). Edit: while serving, one topic file is rewritten with a unique marker word (in a depth's
prose, or at the end of the title or the summary) and the topic's page is fetched every
``POLL_SECONDS`` until the marker is in it; the time from the save to that answer is the edit's
latency. After a title or summary edit, serve goes on writing the pages that show it (every page's
navigation, the lists): the time from the save until its log says so is the edit's ``everything``,
and the next edit waits for it.
"""

from __future__ import annotations

import html
import http.client
import random
import re
import socket
import string
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml
from scale_procs import Failure, start, stop, tail

POLL_SECONDS = 0.05
SETTLE_SECONDS = 2.0  # after an edit shows, let the rebuild behind it finish before the next save
REST_DONE = "more pages brought up to date"  # serve's line once the pages that show an edit are written
PLAIN_WORD = re.compile(r"(?<=\s)[a-z]{5,}(?=[\s.,;])")


@dataclass(frozen=True)
class TopicFile:
    topic_id: str
    path: Path      # the YAML file
    url_path: str   # "layer-3/gpu-clusters/"


@dataclass(frozen=True)
class Edit:
    topic_id: str
    where: str      # "depths.D2.body", "title" or "summary"
    seconds: float | None  # None: the marker never showed before the timeout
    everything: float | None = None  # save → serve says every page is written (title and summary edits)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def marker_word(rng: random.Random) -> str:
    return "zq" + "".join(rng.choice(string.ascii_lowercase) for _ in range(10))


def _scalar_node(text: str, keys: list[str]) -> yaml.ScalarNode:
    node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    for key in keys:
        node = next(value for name, value in node.value if name.value == key)
    if not isinstance(node, yaml.ScalarNode):
        raise ValueError(f"{'.'.join(keys)} is not text")
    return node


def edit_prose(text: str, keys: list[str], marker: str) -> str:
    """``text`` with one plain lower-case word of the prose at ``keys`` replaced by ``marker``."""
    node = _scalar_node(text, keys)
    span = text[node.start_mark.index:node.end_mark.index]
    word = next((w for w in PLAIN_WORD.finditer(span) if span.rfind("{{", 0, w.start()) <= span.rfind("}}", 0, w.start())),
                None)  # not inside a `{{ calculator.output(...) }}` number
    if word is None:
        raise ValueError(f"no plain word to replace in {'.'.join(keys)}")
    at = node.start_mark.index + word.start()
    return text[:at] + marker + text[at + len(word.group()):]


def edit_title(text: str, marker: str, key: str = "title") -> str:
    """``text`` with `` marker`` appended to the topic's title (or another text field: the summary),
    plain or quoted on one line, or a block (``>-``) whose last line it ends."""
    node = _scalar_node(text, [key])
    if node.style in (">", "|"):
        end = node.start_mark.index + len(text[node.start_mark.index:node.end_mark.index].rstrip())
    else:
        end = node.end_mark.index - (1 if node.style in ("'", '"') else 0)
    return text[:end] + " " + marker + text[end:]


def prose_keys(text: str, turn: int = -1) -> list[str]:
    """The body of one of the depths that have one, in turn (every depth's words are on the topic page);
    the deepest by default."""
    data = yaml.safe_load(text)
    depths = [key for key, value in sorted(data["depths"].items()) if isinstance(value, dict) and value.get("body")]
    return ["depths", depths[turn % len(depths)], "body"]


def full_content(text: str) -> list[str]:
    """What a topic page must hold to be complete: its title and a phrase near the end of its last body."""
    data = yaml.safe_load(text)
    body = data["depths"][prose_keys(text)[1]]["body"]
    words = body.split()
    for at in range(len(words) - 3, -1, -1):
        if all(w.isalpha() for w in words[at:at + 3]):
            return [html.escape(data["title"], quote=False), " ".join(words[at:at + 3])]
    return [html.escape(data["title"], quote=False)]


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return " ".join(answer.read().decode("utf-8", "replace").split()) if answer.status == 200 else None
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError):  # a page cut short while written, too
        return None


def wait_for(url: str, needles: list[str], timeout: float, process=None) -> float | None:  # noqa: ANN001
    """Seconds until ``url`` answers 200 with every needle in it; None at the timeout or if ``process`` ends."""
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        page = fetch(url)
        if page is not None and all(n in page for n in needles):
            return time.perf_counter() - started
        if process is not None and process.poll() is not None:
            return None
        time.sleep(POLL_SECONDS)
    return None


class Serving:
    """A running ``layermap serve`` of ``project`` (stopped, with its whole process group, by ``close``)."""

    def __init__(self, python: str, project: Path, cwd: Path, env: Mapping[str, str], log: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}/"
        self.log = log
        self.started = time.perf_counter()
        self.process = start([python, "-m", "generator.cli", "--project", str(project), "serve",
                              "--address", f"127.0.0.1:{self.port}"], cwd, env, log)

    def wait_ready(self, topic: TopicFile, timeout: float) -> float | Failure:
        needles = full_content(topic.path.read_text(encoding="utf-8"))
        if wait_for(self.base + topic.url_path, needles, timeout, self.process) is None:
            reason = "serve ended" if self.process.poll() is not None else f"no full page after {timeout:.0f} s"
            return Failure("serve start", f"{reason}:\n{tail(self.log)}")
        return time.perf_counter() - self.started

    def edit(self, topic: TopicFile, where: str, marker: str, timeout: float) -> Edit:
        text = topic.path.read_text(encoding="utf-8")
        changed = edit_title(text, marker, where) if where in ("title", "summary") else edit_prose(text, where.split("."), marker)
        rests = self.rests_done()
        saved = time.perf_counter()
        topic.path.write_text(changed, encoding="utf-8")  # as an editor saves: the file rewritten in place
        seconds = wait_for(self.base + topic.url_path, [marker], timeout, self.process)
        everything = None
        if where in ("title", "summary") and seconds is not None:
            while time.perf_counter() - saved < timeout and self.process.poll() is None:
                if self.rests_done() > rests:
                    everything = time.perf_counter() - saved
                    break
                time.sleep(POLL_SECONDS)
        time.sleep(SETTLE_SECONDS)
        return Edit(topic.topic_id, where, seconds, everything)

    def rests_done(self) -> int:
        """How many times serve has said it wrote the pages that show an edit."""
        try:
            return self.log.read_text(encoding="utf-8", errors="replace").count(REST_DONE)
        except OSError:
            return 0

    def close(self) -> None:
        stop(self.process)
