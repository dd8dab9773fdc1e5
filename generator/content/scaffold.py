"""`layermap new`: a topic file with every field shown and explained."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from generator.content.schema import MapConfig
from generator.errors import LayermapError

TEMPLATE = """\
# yaml-language-server: $schema=../../schema/topic.schema.json
# A layermap topic. Every field is shown; delete what you don't need.
# Check your work with `layermap check`; preview it with `layermap serve`.
id: {id}                      # lower-case words joined by hyphens; must be unique
title: {title}
layer: {layer}                       # {layer_name}
summary: >-                     # one line: used by the map, lists, search and the page description
  TODO: say in one sentence what this topic is.

depths:                         # any subset of D1–D5 ({depth_names})
  D1:
    hook: TODO, a question that opens the story?
    body: |                     # Markdown; cite a source as [@key] (see `sources.yaml` below)
      TODO: a short story for children and total beginners.
    flow:                       # a titled, numbered sequence (two steps or more)
      title: How it works
      steps:
        - label: First
          detail: what happens first
        - label: Then
          detail: what happens next
    analogy: TODO, a picture from everyday life   # shown as "Like: …"
  D2:
    body: |
      TODO: the picture for curious beginners.
    analogy: TODO
    breaks: TODO   # where the analogy stops being true
  # D3: the bridge from picture to mechanism
  # D4:
  #   body: |
  #     The mechanism, for practitioners.
  #   formulas: |
  #     memory = params * bytes_per_param
  #   calculator:
  #     name: parallelism          # a module in calculators/
  #     values: {{tp: 2}}           # optional overrides of its defaults
  #   exercises:
  #     - prompt: Set … and watch …
  #       answer: What the reader should find.
  #   tradeoffs:
  #     - One cost weighed against another.
  # D5:
  #   body: The research frontier, every claim cited [@grattafiori2024].

examples:                       # dated real-world examples
  as_of: {today}
  items:
    - name: Example product
      kind: what kind of thing it is

# Sources live once for the whole map in content/sources.yaml, keyed; cite them here as [@key].
# A new one goes there (schema/sources.schema.json):
#   example2024:
#     kind: paper                 # paper, datasheet, blog, dataset, report, documentation, …
#     title: Title of the paper, report or datasheet
#     authors: ["Family, Given"]
#     date: "2024"                # YYYY, YYYY-MM or YYYY-MM-DD
#     arxiv: "2407.21783"         # or doi: 10.…, or url: https://…

edges: []                       # declare each edge once, in either of its two topics:
#  - subject: {id}
#    verb: runs on
#    object: another-topic-id
#    kind: runs-on             # one of edge_kinds in content/map.yaml
"""


_LINE_BREAKS = re.compile(r"[\r\n\x85\u2028\u2029]+")  # every character YAML ends a comment at


def quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar on one line: no newline, `: ` or `#` can add keys."""
    return yaml.safe_dump(text, default_style='"', allow_unicode=True, width=1 << 30).rstrip("\n")


def one_line(text: str) -> str:
    """``text`` safe inside a `# comment`: line breaks become spaces."""
    return _LINE_BREAKS.sub(" ", text)


def _writable_title(title: str) -> str:
    try:
        title.encode("utf-8")
    except UnicodeEncodeError:
        raise LayermapError("the title holds bytes that are not UTF-8 text",
                            "type the title again in a UTF-8 terminal, or edit it in the file afterwards") from None
    return quoted(title)


def scaffold_topic(content_dir: Path, map_config: MapConfig, topic_id: str, layer: int, title: str, today: str) -> Path:
    layers = {item.number: item for item in map_config.layers}
    if layer not in layers:
        raise LayermapError(f"unknown layer {layer}", f"use one of {', '.join(map(str, sorted(layers)))}")
    path = content_dir / f"layer-{layer}" / f"{topic_id}.yaml"
    if path.exists():
        raise LayermapError(f"{path} already exists", "choose another id, or edit that file")
    text = TEMPLATE.format(
        id=topic_id, title=_writable_title(title), layer=layer, layer_name=one_line(layers[layer].name), today=today,
        depth_names=one_line(", ".join(f"{d.key} {d.name}" for d in map_config.depths)),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
