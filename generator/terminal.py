"""Text for the editor's terminal: what content or a file name says is shown, never obeyed.

A key, a value or a file name quoted in a message may hold control characters: an escape
sequence would colour or hide text, write a hyperlink or the clipboard (OSC 8, OSC 52); a
bidirectional override would reorder what follows; a line break would forge a line of the
report. :func:`shown` escapes all of these in a quoted value; :func:`say` escapes every one but
the message's own line breaks, at the one place text reaches the terminal.
"""

from __future__ import annotations

import re
import sys
from typing import TextIO

# Besides C0 controls: DEL, C1 controls, the bidirectional marks, embeddings, overrides and
# isolates, the line and paragraph separators, and lone surrogates (a file name's undecodable bytes).
_OTHER_UNSAFE = "\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff"
_IN_VALUE = re.compile(f"[\x00-\x1f{_OTHER_UNSAFE}]")
_IN_MESSAGE = re.compile(f"[\x00-\x09\x0b-\x1f{_OTHER_UNSAFE}]")  # a line break (\x0a) kept
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _SHORT.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def shown(value: object) -> str:
    """A value quoted from content or a file name, every control character escaped (``\\x1b``,
    ``\\u202e``), line breaks too, so that it cannot forge a line of the message around it."""
    return _IN_VALUE.sub(_escape, str(value))


def terminal_text(text: str) -> str:
    """A whole message for the terminal: as :func:`shown`, but its own line breaks kept."""
    return _IN_MESSAGE.sub(_escape, text)


def say(text: str, stream: TextIO | None = None) -> None:
    """Print ``text`` on ``stream`` (standard error unless told), safe for a terminal."""
    print(terminal_text(text), file=stream or sys.stderr)
