"""Terminal-safe output (issue 33, F4): what content and file names say reaches the terminal escaped.

Keys, values and file names quoted by `check`, `build` and `serve` may carry escape sequences
(colour, hidden text, OSC 8 hyperlinks, OSC 52 clipboard writes), bidirectional overrides and
line breaks; each is shown escaped (``\\x1b``, ``\\u202e``, ``\\n``), and no message gains a line.
"""

from __future__ import annotations

import re

import pytest
from mini_project import BOARDS, MiniProject

from generator.cli import main
from generator.diagnostics import ContentError, Diagnostic, DiagnosticLog
from generator.emit.watch import ContentWatcher, say_on_stderr
from generator.terminal import shown, terminal_text

RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
OSC8_LINK = "\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07"
OSC52_CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4K\x07"
FORGED = "content/map.yaml:1:1: error: forged"


def _yaml_quoted(text: str) -> str:
    """``text`` as a double-quoted YAML scalar (its control characters as YAML escapes)."""
    return '"' + "".join(f"\\x{ord(c):02x}" if ord(c) < 0x20 else f"\\u{ord(c):04x}" if ord(c) > 0x7e else c
                         for c in text) + '"'


def _run(mini: MiniProject, capsys: pytest.CaptureFixture[str], command: str) -> str:
    assert main(["--project", str(mini.root), command]) == 1
    out, err = capsys.readouterr()
    assert not RAW_CONTROL.search(out + err), repr(out + err)
    return err


@pytest.mark.parametrize("command", ["check", "build"])
def test_an_unknown_key_with_an_escape_sequence_is_shown_escaped(mini: MiniProject, capsys: pytest.CaptureFixture[str],
                                                                  command: str) -> None:
    mini.write("layer-2/boards.yaml", BOARDS + f"{_yaml_quoted(chr(27) + '[31mred' + chr(27) + '[0m')}: 1\n")
    err = _run(mini, capsys, command)
    assert "error: `\\x1b[31mred\\x1b[0m` unknown key `\\x1b[31mred\\x1b[0m`" in err


def test_quoted_values_with_a_hyperlink_or_a_clipboard_write_are_shown_escaped(mini: MiniProject,
                                                                             capsys: pytest.CaptureFixture[str]) -> None:
    text = BOARDS.replace("layer: 2", f"layer: {_yaml_quoted(OSC52_CLIPBOARD)}")
    mini.write("layer-2/boards.yaml", text + f"edges:\n  - {{subject: boards, verb: hold, object: {_yaml_quoted(OSC8_LINK)}}}\n")
    err = _run(mini, capsys, "check")
    assert "`\\x1b]52;c;cm0gLXJmIH4K\\x07`" in err
    assert "\\x1b]8;;https://evil.example/\\x07click\\x1b]8;;\\x07" in err


def test_a_line_break_or_a_bidi_override_in_a_key_forges_no_line(mini: MiniProject, capsys: pytest.CaptureFixture[str]) -> None:
    mini.write("layer-2/boards.yaml", BOARDS + f"{_yaml_quoted('a' + chr(10) + FORGED)}: 1\n{_yaml_quoted(chr(0x202e) + 'lave')}: 2\n")
    err = _run(mini, capsys, "check")
    assert not any(line.startswith(FORGED) for line in err.splitlines())
    assert f"unknown key `a\\n{FORGED}`" in err
    assert "unknown key `\\u202elave`" in err
    assert err.count("\n    fix: ") == 2  # the report's own line breaks stay


def test_a_file_name_with_control_characters_is_shown_escaped(mini: MiniProject, capsys: pytest.CaptureFixture[str]) -> None:
    mini.write("layer-2/\x1b[2Jchips\x07.yaml", "id: chips\ntitle: [\n")
    err = _run(mini, capsys, "check")
    assert "content/layer-2/\\x1b[2Jchips\\x07.yaml:3:1: error: YAML syntax" in err


def test_serve_says_what_a_failed_regeneration_quotes_escaped(mini: MiniProject) -> None:
    said: list[str] = []
    bad = Diagnostic.error("content/\x1b[8mhidden.yaml", None, "\x9b31m", f"unknown key `{OSC8_LINK}`", "fix\u2066 it")

    def regenerate() -> list[Diagnostic]:
        raise ContentError(DiagnosticLog([bad]))

    ContentWatcher(mini.content, regenerate, said.append)._regenerate_after(["content/\x1b[8mhidden.yaml"])
    assert not RAW_CONTROL.search("".join(said)), said
    assert "content/\\x1b[8mhidden.yaml:1:1: error: `\\x9b31m` unknown key" in said[0]
    assert "fix: fix\\u2066 it" in said[0]


def test_serve_says_which_files_changed_escaped(mini: MiniProject) -> None:
    said: list[str] = []
    ContentWatcher(mini.content, list, said.append)._regenerate_after(["content/a\n\x1b]52;c;eA==\x07.yaml"])
    assert said == ["layermap: regenerated after a change to content/a\\n\\x1b]52;c;eA==\\x07.yaml"]


def test_serve_prints_on_stderr_with_only_the_messages_own_line_breaks(capsys: pytest.CaptureFixture[str]) -> None:
    say_on_stderr("layermap: not updated:\n\x1b[2J\u202eboards\x7f")
    assert capsys.readouterr().err == "layermap: not updated:\n\\x1b[2J\\u202eboards\\x7f\n"


def test_every_kind_of_control_character_is_escaped() -> None:
    assert shown("\x00\t\n\r\x1b\x7f\x85\x9f\u061c\u200f\u202a\u202e\u2066\u2069\u2028\udcff") == (
        "\\x00\\t\\n\\r\\x1b\\x7f\\x85\\x9f\\u061c\\u200f\\u202a\\u202e\\u2066\\u2069\\u2028\\udcff")
    assert terminal_text("one\ntwo\tthree") == "one\ntwo\\tthree"
    assert shown("plain text, ünïcödé — and emoji 🙂") == "plain text, ünïcödé — and emoji 🙂"
