"""Output hygiene shared by every front end: names and paths come from files someone else made; show them inert.

:func:`safe` turns control characters (C0, DEL, C1 — terminal escapes among them) and
line breaks inside one value into visible escapes (``\\x1b``, ``\\n``), so a file name
cannot move the cursor, recolour the terminal or forge extra output lines.
:class:`SafeStream` applies the same to everything the CLI writes to a terminal stream
except the line breaks and tabs the CLI itself prints between values.
The GUI uses :func:`safe` for labels and table cells.
"""

from __future__ import annotations

import re
from typing import TextIO

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL_KEEP_LINES = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(m: re.Match) -> str:
    ch = m.group(0)
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def safe(value: object) -> str:
    """``str(value)`` with every control character, escape and line break made visible."""
    text = "" if value is None else str(value)
    return _CONTROL.sub(_escape, text)


class SafeStream:
    """A text stream wrapper that neutralises terminal escapes but keeps the CLI's own newlines and tabs."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` with control characters (other than newline, tab) escaped."""
        self._stream.write(_CONTROL_KEEP_LINES.sub(_escape, text))
        return len(text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)
