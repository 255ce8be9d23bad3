"""What reading a CV file gives: :class:`ExtractedDoc`, cleaned lines in reading order with their text spans.

Every reader (PyMuPDF, the pypdf fallback, Word, OCR) returns one, and every later stage
(layout, fields, chunking, confidence) reads one, so it lives below them all with the one
failure rule the readers share (:func:`raise_if_memory`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cvrag_desktop.ingestion.layout.reading_order import TextLine

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


def raise_if_memory(exc: BaseException) -> None:
    """MuPDF reports a failed allocation (the worker's memory cap) as its own error: make it a MemoryError."""
    if isinstance(exc, MemoryError) or _MEMORY_ERROR.search(str(exc)):
        raise MemoryError(str(exc)) from exc
