"""What reading a CV file gives: :class:`ExtractedDoc`, cleaned lines in reading order with their text spans.

Every reader (PyMuPDF, the pypdf fallback, Word, OCR) returns one, and every later stage
(layout, fields, chunking, confidence) reads one, so it lives below them all with the one
failure rule the readers share (:func:`raise_if_memory`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cvrag_desktop.ingestion.layout.reading_order import TextLine

MAX_LINES = 5_000  # lines read from one file: ~100 pages (max_pages); beyond, parsing time grows faster than the text
_MEMORY_ERROR = re.compile(r"malloc|calloc|realloc|out of memory|unable to allocate|cannot allocate|bad_alloc", re.I)


@dataclass
class ExtractedDoc:
    """Cleaned lines in reading order and how they were obtained."""

    lines: list[TextLine]
    page_count: int
    method: str  # pymupdf | pypdf | docx | ocr | pymupdf+ocr
    page_sizes: list[tuple[float, float]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # told to the user with the file (OCR page budget)
    created: object = None  # the file's own creation stamp (PDF "D:2019…" string, DOCX datetime)
    running: list[str] = field(default_factory=list)  # running headers/footers dropped from ``lines`` ("Last edited …")
    _spans: list[tuple[int, int]] | None = None
    _text: str | None = None

    @property
    def text(self) -> str:
        """All lines joined by newlines (char spans in :meth:`line_span`)."""
        if self._text is None:
            parts, spans, pos = [], [], 0
            for ln in self.lines:
                spans.append((pos, pos + len(ln.text)))
                parts.append(ln.text)
                pos += len(ln.text) + 1
            self._text = "\n".join(parts)
            self._spans = spans
        return self._text

    def line_span(self, i: int) -> tuple[int, int]:
        """Character span of line ``i`` within :attr:`text`."""
        _ = self.text
        assert self._spans is not None
        return self._spans[i]


def truncated_note(lines: int | None = None) -> str:
    """The warning told with a file whose text was cut at :data:`MAX_LINES` (``lines``: how many it had)."""
    had = f"{lines:,} lines" if lines else f"more than {MAX_LINES:,} lines"
    return (f"Far more text than a CV ({had}): only the first {MAX_LINES:,} lines were read; "
            "the rest is not searchable.")


def keep_first_lines(doc: ExtractedDoc) -> ExtractedDoc:
    """``doc`` with at most :data:`MAX_LINES` lines, and a warning when lines were left out.

    Parsing a file's fields is not linear in its lines (a 50,000-line Word file took 40 s and more
    before its chunks were even indexed); a CV is a few hundred lines long.
    """
    if len(doc.lines) <= MAX_LINES:
        return doc
    note = truncated_note(len(doc.lines))
    doc.lines = doc.lines[:MAX_LINES]
    doc._text = doc._spans = None
    doc.warnings.append(note)
    return doc


def raise_if_memory(exc: BaseException) -> None:
    """MuPDF reports a failed allocation (the worker's memory cap) as its own error: make it a MemoryError."""
    if isinstance(exc, MemoryError) or _MEMORY_ERROR.search(str(exc)):
        raise MemoryError(str(exc)) from exc
