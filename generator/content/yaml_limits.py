"""How much one YAML file may make layermap do: each limit refused with where and how to fix it.

* **Size**: a topic file or map.yaml holds at most :data:`MAX_FILE_BYTES`, sources.yaml (the
  whole map's bibliography) :data:`MAX_BIBLIOGRAPHY_BYTES`; the biggest real ones are 20 and 5
  times smaller. A bigger file is refused before it is decoded or parsed.
* **Nesting**: lists and mappings inside each other at most :data:`MAX_DEPTH` deep (a topic nests
  about 6), refused from the parser's flat stream of events, before any recursive step runs.
* **Aliases**: ``*name`` repeats the value anchored ``&name``. What repeating costs is the text
  repeated, not the aliases written: a 100 kB text aliased 2,000 times is 200 MB for every later
  step (lints, citations, rendering). So the text the aliases of one file repeat, counted in
  characters as they expand (an alias inside an anchored value counts each time it is repeated),
  is at most :data:`MAX_REPEATED_TEXT`, refused at the alias that passes it; and the values a
  file expands to are at most :data:`MAX_NODES` (``yaml_source`` counts those as it builds them).
"""

from __future__ import annotations

import yaml

from generator.content.yaml_errors import Position, YamlSyntaxError, mark_position

MAX_FILE_BYTES = 1_000_000  # a topic or map.yaml; the biggest real topic is 44 kB
MAX_BIBLIOGRAPHY_BYTES = 16_000_000  # sources.yaml; 85 kB for 21 topics, about 2 MB at 2,000 synthetic ones
MAX_NODES = 100_000  # aliases may repeat a node; beyond this a file is an alias bomb, not content
MAX_DEPTH = 64  # lists and mappings inside each other; real topics nest about 6 deep
MAX_REPEATED_TEXT = 100_000  # characters of text all aliases of one file may repeat
_TOO_DEEP_HINT = "flatten it: a topic nests a few levels (depths → D4 → flow → steps), never dozens"


def too_deep(node_or_event: yaml.Node | yaml.Event) -> YamlSyntaxError:
    return YamlSyntaxError(f"YAML syntax: values are nested more than {MAX_DEPTH} levels deep here",
                           mark_position(node_or_event), _TOO_DEEP_HINT)


def check_size(data: bytes, limit: int, what: str) -> bytes:
    """``data`` if it is at most ``limit`` bytes; else a :class:`YamlSyntaxError` at the line where
    the limit is passed. ``what`` names the file's kind, e.g. "a topic file"."""
    if len(data) <= limit:
        return data
    raise YamlSyntaxError(
        f"the file is {len(data):,} bytes long; {what} holds at most {limit:,} (it passes that on this line)",
        Position(data.count(b"\n", 0, limit) + 1, 1),
        "split it (a topic per file, each depth a few thousand words at most), or remove what "
        "does not belong in it; layermap reads no bigger file")


class _Expansion:
    """The text each anchor stands for, as the events go by, and the text aliases repeat."""

    def __init__(self) -> None:
        self.text = 0  # characters of text so far, aliases expanded
        self.sizes: dict[str, int] = {}  # anchor → characters of its value, expanded
        self.open: list[tuple[str | None, int]] = []  # each open collection's anchor and self.text at its start
        self.repeated = 0

    def scalar(self, event: yaml.ScalarEvent) -> None:
        self.text += len(event.value)
        if event.anchor is not None:
            self.sizes[event.anchor] = len(event.value)

    def alias(self, event: yaml.AliasEvent) -> None:
        size = self.sizes.get(event.anchor, 0)  # an unknown or still open anchor: the composer says why
        self.text += size
        self.repeated += size
        if self.repeated > MAX_REPEATED_TEXT:
            raise YamlSyntaxError(
                f"YAML syntax: aliases repeat more than {MAX_REPEATED_TEXT:,} characters of text in this file "
                f"(`*{event.anchor}` repeats {size:,}, {self.repeated:,} in all so far)",
                mark_position(event),
                f"write the text out where it is needed instead of repeating the anchor `&{event.anchor}` with "
                f"`*{event.anchor}`; to show a literal `*`, put the whole value in quotes")

    def start(self, event: yaml.CollectionStartEvent) -> None:
        self.open.append((event.anchor, self.text))

    def end(self) -> None:
        anchor, start = self.open.pop()
        if anchor is not None:
            self.sizes[anchor] = self.text - start


def check_events(text: str, loader: type = yaml.SafeLoader) -> None:
    """Refuse nesting beyond :data:`MAX_DEPTH` and aliases repeating more than
    :data:`MAX_REPEATED_TEXT` from the parser's flat event stream, before any recursive step
    (composer, builder, model, walks) can run out of stack or time on them.
    Syntax errors are left for the composer, which explains them; libyaml's own errors
    (it gives up at 1,000 levels, reading ahead) are re-read by the pure-Python parser."""
    expansion = _Expansion()
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.ScalarEvent):
                expansion.scalar(event)
            elif isinstance(event, yaml.AliasEvent):
                expansion.alias(event)
            elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                expansion.start(event)
                if len(expansion.open) > MAX_DEPTH:
                    raise too_deep(event)
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                expansion.end()
    except yaml.YAMLError:
        if loader is not yaml.SafeLoader:
            check_events(text)
