"""A project whose every text field carries an attack: the hostile content corpus.

Each payload, if it ever ran, would set ``window.pwned`` to its case name. Plain-text fields
must show their whole value as text; Markdown fields must keep their harmless words
(``seen <case>``) while the sanitiser drops the markup. Built with the real pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

# {case} is replaced by the case name; every payload names its case when it runs.
PAYLOADS: dict[str, str] = {
    "script": '<script>window.pwned="{case}"</script>',
    "img-onerror": '<img src=x onerror=window.pwned="{case}">',
    "attr-breakout": '"><svg onload=window.pwned="{case}">',
    "title-breakout": '</title><img src=x onerror=window.pwned="{case}">',
    "md-link": '[go {case}](javascript:window.pwned="{case}")',
    "quotes": "'}}]\" --- \\ `\n#: {case} <iframe srcdoc=\"<script>parent.pwned='{case}'</script>\">",
    "attr-list": '{{: onclick=window.pwned="{case}" }} <details open ontoggle=window.pwned="{case}">x</details>',
    "svg-link": '<svg><a xlink:href="javascript:window.pwned=\'{case}\'"><text y="9">x</text></a></svg>',
}
MARKDOWN_PAYLOADS: dict[str, str] = {
    **PAYLOADS,
    "data-url": '<a href="data:text/html,<script>window.pwned=1</script>">d</a>',
    "style": "<style>body{{display:none}}</style>",
    "backslash-img": '<img src="/\\evil.example/{case}.png" alt="a"> <img src="/&#92;evil.example/b.png" alt="b">',
    "clobber": '<div id="__config">c</div> <span id="depth-d1">d</span> <a name="__search" href="#x">e</a>\n{{: #__drawer }}',
    "mxss": '<math><mtext><table><mglyph><style><img src=x onerror=window.pwned="{case}">',
    "ref-link": '[x][r] <a href="javascript:window.pwned=\'{case}\'">y</a>\n\n[r]: javascript:window.pwned="{case}"',
}
FORMULA_PAYLOAD = '```\n</code></pre><img src=x onerror=window.pwned="{case}">\n````\n~~~\n<script>window.pwned="{case}"</script>'

TOPIC_PLAIN = ("title", "summary", "hook", "flow.title", "step.label", "example.name", "example.kind",
               "edge.verb", "source.title", "source.author", "source.note")
TOPIC_MARKDOWN = ("body", "analogy", "breaks", "tradeoff", "step.detail", "exercise.prompt", "exercise.answer")


@dataclass(frozen=True)
class Case:
    """One hostile value: where it goes, what it holds, where and what a reader must see."""

    name: str  # "title/script": field/payload
    value: str
    page: str  # built page URL path, e.g. "layer-1/hostile-0/"
    visible: str  # text that must be visible on the page, as typed


def _plain(field: str, payload: str, suffix: str = "") -> str:
    name = f"{field}/{payload}{suffix}"
    return f"{name} " + PAYLOADS[payload].format(case=name)


def _markdown(field: str, payload: str) -> str:
    name = f"{field}/{payload}"
    return f"seen {name} " + MARKDOWN_PAYLOADS[payload].format(case=name)


def _topic(index: int, payload: str, markdown_payload: str, count: int) -> tuple[dict, dict, list[Case]]:
    again = f"-{index}" if index >= len(PAYLOADS) else ""  # a payload's second topic
    plain = {field: _plain(field, payload, again) for field in TOPIC_PLAIN}
    rich = {field: _markdown(field, markdown_payload) for field in TOPIC_MARKDOWN}
    # the author's family name is what the in-text label shows: keep the payload before the comma
    plain["source.author"] = plain["source.author"].replace(",", " ")
    topic_id = f"hostile-{index}"
    key = f"src-{index}"
    formula = FORMULA_PAYLOAD.format(case=f"formulas/{topic_id}")
    topic = {
        "id": topic_id, "title": plain["title"], "layer": 1 + index % 2, "summary": plain["summary"],
        "depths": {"D1": {
            "hook": plain["hook"] + f" [@{key}]",
            "body": rich["body"] + f" [@{key}]",
            "flow": {"title": plain["flow.title"], "steps": [
                {"label": plain["step.label"], "detail": rich["step.detail"]}, {"label": "Second"}]},
            "analogy": rich["analogy"], "breaks": rich["breaks"], "tradeoffs": [rich["tradeoff"]],
            "formulas": formula,
            "exercises": [{"prompt": rich["exercise.prompt"], "answer": rich["exercise.answer"]}],
        }},
        "examples": {"as_of": "2026-11-01", "items": [{"name": plain["example.name"], "kind": plain["example.kind"]}]},
        "edges": [{"subject": topic_id, "verb": plain["edge.verb"], "object": f"hostile-{(index + 1) % count}"}],
    }
    page = f"layer-{topic['layer']}/{topic_id}/"
    cases = [Case(f"{f}/{payload}{again}", plain[f], page, plain[f]) for f in TOPIC_PLAIN]
    cases += [Case(f"{f}/{markdown_payload}", rich[f], page, f"seen {f}/{markdown_payload}") for f in TOPIC_MARKDOWN]
    cases.append(Case(f"formulas/{topic_id}", formula, page, formula))
    source = {"kind": "paper", "title": plain["source.title"], "authors": [plain["source.author"] + ", Ada"],
              "date": "2024", "url": f"https://example.org/{key}", "note": plain["source.note"]}
    return topic, {key: source}, cases


def _map(payloads: list[str]) -> tuple[dict, list[Case]]:
    pick = payloads * 3
    title = _plain("map.title", pick[0])
    intro = _markdown("map.introduction", list(MARKDOWN_PAYLOADS)[-1])
    depths = [{"key": f"D{n}", "name": _plain(f"depth{n}.name", pick[n]), "audience": _plain(f"depth{n}.audience", pick[n + 1])}
              for n in range(1, 6)]
    layers = [{"number": n, "name": _plain(f"layer{n}.name", pick[n + 2]),
               "description": _plain(f"layer{n}.description", pick[n + 3])} for n in (1, 2)]
    config = {"title": title, "introduction": intro, "depths": depths, "layers": layers}
    cases = [Case(title.split(" ", 1)[0], title, "", title),
             Case(intro.split(" ")[1], intro, "", intro.split(" <", 1)[0].split(" [", 1)[0])]
    # depth names show on every topic page in the depth headings; D1 is the one the topics use
    d1 = depths[0]
    cases += [Case(d1["name"].split(" ", 1)[0], d1["name"], "", d1["name"]),
              Case(d1["audience"].split(" ", 1)[0], d1["audience"], "layer-1/hostile-0/",
                   d1["audience"][0].lower() + d1["audience"][1:])]
    for layer in layers:
        page = f"layer-{layer['number']}/"
        cases += [Case(layer["name"].split(" ", 1)[0], layer["name"], page, layer["name"]),
                  Case(layer["description"].split(" ", 1)[0], layer["description"], page, layer["description"])]
    return config, cases


def hostile_corpus() -> tuple[dict[str, str], list[Case]]:
    """The corpus's files (path under content/ → YAML text) and every case."""
    plain = list(PAYLOADS)
    rich = list(MARKDOWN_PAYLOADS)
    config, cases = _map(plain)
    files = {"map.yaml": yaml.safe_dump(config, allow_unicode=True, sort_keys=False)}
    sources: dict[str, dict] = {}
    for index, markdown_payload in enumerate(rich):
        topic, source, found = _topic(index, plain[index % len(plain)], markdown_payload, len(rich))
        files[f"layer-{topic['layer']}/{topic['id']}.yaml"] = yaml.safe_dump(topic, allow_unicode=True, sort_keys=False)
        sources |= source
        cases += found
    files["sources.yaml"] = yaml.safe_dump({"sources": sources}, allow_unicode=True, sort_keys=False)
    return files, cases


def write_hostile_project(root: Path) -> list[Case]:
    """Write the corpus into ``root/content``; return every case."""
    files, cases = hostile_corpus()
    for name, text in files.items():
        path = root / "content" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return cases
