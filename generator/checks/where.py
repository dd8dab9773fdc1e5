"""Where a cross-file problem is: a diagnostic placed at a key of a YAML document, and a
"did you mean" for a mistyped name. Shared by every check."""

from __future__ import annotations

import difflib

from generator.content.loading import TopicFile
from generator.content.schema_errors import dotted
from generator.content.yaml_source import KeyPath, YamlDocument
from generator.diagnostics import Diagnostic


def at_path(file: str, doc: YamlDocument, path: KeyPath, severity: str, message: str, hint: str = "",
            *, value: bool = False) -> Diagnostic:
    make = Diagnostic.error if severity == "error" else Diagnostic.warning
    return make(file, doc.position(path, value=value), dotted(path), message, hint)


def at_topic(tf: TopicFile, path: KeyPath, severity: str, message: str, hint: str = "", *, value: bool = False) -> Diagnostic:
    return at_path(tf.file, tf.doc, path, severity, message, hint, value=value)


def line_of(tf: TopicFile, path: KeyPath) -> str:
    """``file:line`` of a path, for "also in …" remarks."""
    return f"{tf.file}:{tf.doc.position(path).line}"


def closest(word: str, choices: list[str]) -> str | None:
    """The choice a mistyped ``word`` most likely meant, if any is close."""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.5)
    return close[0] if close else None


def suggestion(word: str, choices: list[str]) -> str:
    close = closest(word, choices)
    return f"did you mean `{close}`?" if close else f"use one of: {', '.join(sorted(choices))}"
