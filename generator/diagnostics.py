"""Problems found in content, reported all together with their place in the file."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from generator.terminal import shown

Severity = Literal["error", "warning"]


class Place(Protocol):
    """Where something stands in a file, such as :class:`generator.yaml_source.Position`."""

    @property
    def line(self) -> int: ...  # 1-based

    @property
    def column(self) -> int: ...  # 1-based


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem: where it is, what is wrong and how to fix it."""

    file: str
    line: int
    column: int
    severity: Severity
    path: str
    message: str
    hint: str = ""

    @classmethod
    def error(cls, file: str, place: Place | None, path: str, message: str, hint: str = "") -> Diagnostic:
        """An error at ``place`` in ``file`` (``None``: the file as a whole, reported at its start)."""
        return cls._at("error", file, place, path, message, hint)

    @classmethod
    def warning(cls, file: str, place: Place | None, path: str, message: str, hint: str = "") -> Diagnostic:
        """A warning at ``place`` in ``file`` (``None``: the file as a whole, reported at its start)."""
        return cls._at("warning", file, place, path, message, hint)

    @classmethod
    def _at(cls, severity: Severity, file: str, place: Place | None, path: str, message: str, hint: str) -> Diagnostic:
        line, column = (place.line, place.column) if place is not None else (1, 1)
        return cls(file, line, column, severity, path, message, hint)

    def format(self) -> str:
        """The diagnostic as a report shows it; what it quotes from content and file names is
        :func:`shown` escaped, so only the report's own line breaks remain."""
        where = f"{shown(self.file)}:{self.line}:{self.column}"
        at = f" `{shown(self.path)}`" if self.path else ""
        text = f"{where}: {self.severity}:{at} {shown(self.message)}"
        return f"{text}\n    fix: {shown(self.hint)}" if self.hint else text


@dataclass
class DiagnosticLog:
    """Collects every diagnostic of a run (Pelican style: collect all, fail once)."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, diagnostic: Diagnostic) -> None:
        self.items.append(diagnostic)

    def extend(self, diagnostics: list[Diagnostic]) -> None:
        self.items.extend(diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        return sorted(d for d in self.items if d.severity == "error")

    @property
    def warnings(self) -> list[Diagnostic]:
        return sorted(d for d in self.items if d.severity == "warning")

    def report(self) -> str:
        lines = [d.format() for d in sorted(self.items)]
        summary = f"{len(self.errors)} error(s), {len(self.warnings)} warning(s)"
        return "\n".join([*lines, summary])


class ContentError(Exception):
    """Raised when content has errors; carries every diagnostic of the run."""

    def __init__(self, log: DiagnosticLog) -> None:
        super().__init__(log.report())
        self.log = log

    def __reduce__(self) -> tuple:  # raised in a forked process, it arrives with every diagnostic
        return type(self), (self.log,)


def relative_name(path: Path, root: Path) -> str:
    """A path as editors see it: relative to the project when possible."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()
