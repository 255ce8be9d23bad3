"""A parsing library's exception told in a recruiter's words, for the reason shown beside a refused file.

pypdf, PyMuPDF and lxml (libxml2) explain failures for their developers: "Entity 'x' not defined, line 1,
column 144 (<string>, line 1)", "Failed to open file '/home/…/data/library/cv.pdf' as type pdf." Shown
as they are, they leak the library's internal copy path, parser positions and jargon into the import
list and, nested by the fallback reader, say the same thing twice. :func:`plain_cause` keeps what a
person can act on (malformed XML, a missing part, a damaged structure) and sends the rest to the log.
"""

from __future__ import annotations

import logging
import re

log = logging.getLogger(__name__)

_PATH = re.compile(r"""(?:[A-Za-z]:\\|/)[^\s'"()]*""")
_POSITION = re.compile(r",?\s*\(?<string>, line \d+\)?|,?\s*line \d+,? column \d+", re.IGNORECASE)
MAX_CAUSE = 120

# (pattern in the library's text or class name, the plain words); the first that matches wins
_KNOWN: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"XMLSyntaxError|not well-formed|Entity '.*' not defined|Opening and ending tag|"
                r"Premature end of data|StartTag|EndTag", re.IGNORECASE), "its XML is malformed"),
    (re.compile(r"There is no item named|no relationship of type|KeyError", re.IGNORECASE),
     "a part it refers to is missing"),
    (re.compile(r"BadZipFile|Bad magic number|File is not a zip|CRC|Truncated file header", re.IGNORECASE),
     "its package is damaged"),
    (re.compile(r"Failed to open file|cannot open|no objects found|not a PDF|FileDataError|"
                r"Stream has ended unexpectedly|EOF marker", re.IGNORECASE), ""),
    (re.compile(r"page tree|cannot find page|xref|trailer|object out of range", re.IGNORECASE),
     "its internal structure is broken"),
)


def plain_cause(exc: BaseException) -> str:
    """A short, path-free cause for ``exc`` ("its XML is malformed"), or "" when it adds nothing.

    The library's own text goes to the debug log so that support can still read it.
    """
    raw = f"{type(exc).__name__}: {exc}"
    log.debug("library error: %s", raw)
    for pattern, words in _KNOWN:
        if pattern.search(raw):
            return words
    text = _POSITION.sub("", _PATH.sub("…", str(exc))).strip(" .:;,")
    if not text or not any(ch.isalpha() for ch in text):
        return ""
    return text if len(text) <= MAX_CAUSE else text[: MAX_CAUSE - 1].rstrip() + "…"


def with_cause(message: str, exc: BaseException) -> str:
    """``message`` (a sentence ending in ".") with the plain cause of ``exc`` put in brackets before the stop."""
    cause = plain_cause(exc)
    base = message[:-1] if message.endswith(".") else message
    return f"{base} ({cause})." if cause else f"{base}."
