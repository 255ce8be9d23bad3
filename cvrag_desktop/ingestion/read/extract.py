"""Text extraction with layout: PDF (PyMuPDF, pypdf fallback), DOCX, OCR for image-only pages.

The result is an :class:`ExtractedDoc`: cleaned lines in reading order with page,
bbox and typography, plus the joined text and each line's character span, so every
later field can point back at its place in the file.
"""

from __future__ import annotations

import logging
import re
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from cvrag_desktop.config import IngestLimits
from cvrag_desktop.errors import (
    FileMissing,
    NeedsOcr,
    PdfEncrypted,
    PdfUnreadable,
    TooLarge,
    UnsupportedFormat,
)
from cvrag_desktop.ingestion.layout.date_wraps import repair_wrapped_dates
from cvrag_desktop.ingestion.layout.reading_order import TextLine, order_page
from cvrag_desktop.ingestion.read.ocr_pages import OcrDeferred, ocr_pages
from cvrag_desktop.ingestion.read.outlined_text import MIN_OUTLINED_ROWS, outlined_text_rows
from cvrag_desktop.ingestion.read.reasons import with_cause
from cvrag_desktop.ingestion.read.textclean import (
    ICON_FONT,
    clean_text,
    ends_with_break_hyphen,
    join_broken_word,
)

log = logging.getLogger(__name__)

_PAGE_NUMBER = re.compile(r"^\s*(page|seite|página|pagina|p\.)?\s*\d{1,3}(\s*(/|of|von|de|di)\s*\d{1,3})?\s*$", re.I)
_TRAILING_PAGE = re.compile(r"[–—-]\s*\d{1,3}\s*/\s*\d{1,3}\s*$")


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


def sniff_kind(path: Path) -> str:
    """Identify a file by its leading bytes, not its name: ``pdf`` or ``docx``."""
    try:
        with path.open("rb") as fh:
            head = fh.read(1024)
    except FileNotFoundError as exc:
        raise FileMissing(f"The file no longer exists: {path.name}") from exc
    except OSError as exc:
        raise FileMissing(f"The file cannot be read ({exc.strerror or exc}): {path.name}") from exc
    if not head:
        raise PdfUnreadable(f"The file is empty (0 bytes): {path.name}")
    # By structure: a zip's local header at byte 0 is a Word package even when "%PDF-" occurs in its
    # first kilobyte (a stored part or a part's name); a PDF may put its header anywhere in that kilobyte.
    if head.startswith(b"PK\x03\x04"):
        return "docx"
    if b"%PDF-" in head:
        return "pdf"
    raise UnsupportedFormat(
        f"{path.name} is not a PDF or Word (.docx) document (its content does not match its name)."
    )


def extract_document(path: Path, limits: IngestLimits | None = None, *, allow_ocr: bool = True,
                     defer_ocr: bool = False) -> ExtractedDoc:
    """Read a CV file into ordered, cleaned lines, enforcing size, page, character and time limits.

    With ``defer_ocr`` (a parse worker), a PDF with image-only pages raises :class:`OcrDeferred`
    when an OCR engine is available, instead of being OCR'd here.
    """
    limits = limits or IngestLimits()
    kind = sniff_kind(path)
    size_mb = path.stat().st_size / 1e6
    if size_mb > limits.max_file_mb:
        raise TooLarge(f"{path.name} is {size_mb:.0f} MB; the limit is {limits.max_file_mb} MB.")
    if kind == "docx":
        from cvrag_desktop.ingestion.read.docx_reader import extract_docx

        return extract_docx(path, limits)
    try:
        return _extract_pdf_pymupdf(path, limits, allow_ocr=allow_ocr, defer_ocr=defer_ocr)
    except (PdfEncrypted, TooLarge, NeedsOcr, MemoryError, OcrDeferred):
        raise
    except PdfUnreadable as exc:
        log.info("PyMuPDF failed on %s (%s); trying pypdf", path.name, exc)
        return _extract_pdf_pypdf(path, limits, first_error=exc)


def _line_from_spans(spans: list[dict], page_no: int) -> TextLine | None:
    kept = [s for s in spans if s["text"].strip() and not ICON_FONT.search(s.get("font", ""))]
    if not kept:
        return None
    text = ""
    prev = None
    for s in kept:
        t = s["text"]
        if prev is not None:
            gap = s["bbox"][0] - prev["bbox"][2]
            if gap > 0.25 * s["size"] and not text.endswith(" ") and not t.startswith(" "):
                t = (" " if gap < 2.0 * s["size"] else "\t") + t
        text += t
        prev = s
    text = clean_text(text)
    if not text.strip():
        return None
    weights = Counter()
    bold_chars = 0
    for s in kept:
        n = len(s["text"].strip())
        weights[round(s["size"], 1)] += n
        if s["flags"] & 16 or re.search(r"bold|black|heavy|semibold|demi", s.get("font", ""), re.I):
            bold_chars += n
    total = sum(weights.values()) or 1
    size = weights.most_common(1)[0][0]
    x0 = min(s["bbox"][0] for s in kept)
    y0 = min(s["bbox"][1] for s in kept)
    x1 = max(s["bbox"][2] for s in kept)
    y1 = max(s["bbox"][3] for s in kept)
    return TextLine(text, page_no, (x0, y0, x1, y1), float(size), bold_chars >= 0.6 * total, kept[0].get("font", ""))


def _extract_pdf_pymupdf(path: Path, limits: IngestLimits, *, allow_ocr: bool,
                         defer_ocr: bool = False) -> ExtractedDoc:
    import pymupdf

    started = time.monotonic()
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:  # PyMuPDF raises several types for broken files
        _raise_if_memory(exc)
        raise PdfUnreadable(with_cause(f"{path.name} is damaged or not a valid PDF.", exc)) from exc
    repaired = bool(getattr(doc, "is_repaired", False))  # MuPDF rebuilt a broken cross-reference table
    with doc:
        if doc.needs_pass and not doc.authenticate(""):
            raise PdfEncrypted(f"{path.name} is password-protected; remove the password and import it again.")
        try:
            n_pages = doc.page_count
        except Exception as exc:
            raise PdfUnreadable(with_cause(f"{path.name} has no readable page tree.", exc)) from exc
        if n_pages == 0:
            raise PdfUnreadable(f"{path.name} has no pages.")
        if n_pages > limits.max_pages:
            raise TooLarge(f"{path.name} has {n_pages} pages; the limit is {limits.max_pages} for a CV.")
        from cvrag_desktop.ingestion.read.pdf_guard import check_document

        check_document(doc, path.name, limits)
        try:
            created = (doc.metadata or {}).get("creationDate") or (doc.metadata or {}).get("modDate")
        except Exception:  # a broken Info dictionary is no reason to refuse the CV
            created = None
        pages: list[list[TextLine]] = []
        sizes: list[tuple[float, float]] = []
        image_only: list[int] = []
        outlined: dict[int, list[TextLine]] = {}
        chars = hidden = 0
        for pno in range(n_pages):
            if time.monotonic() - started > limits.max_seconds:
                raise TooLarge(f"{path.name} took longer than the {limits.max_seconds:g} s time limit (max_seconds) "
                           "to read.")
            try:
                page = doc.load_page(pno)
                _check_page_bombs(doc, page, path.name, limits)
                data = page.get_text("dict", flags=pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_PRESERVE_IMAGES)
            except TooLarge:
                raise
            except Exception as exc:
                _raise_if_memory(exc)
                raise PdfUnreadable(with_cause(f"{path.name}: page {pno + 1} cannot be read.", exc)) from exc
            rect = page.rect
            sizes.append((rect.width, rect.height))
            raw: list[TextLine] = []
            _drop_shadow_spans(data)
            hidden += drop_invisible_spans(page, data)
            for block in data.get("blocks", []):
                for line in block.get("lines", []):
                    tl = _line_from_spans(line.get("spans", []), pno)
                    if tl is not None:
                        raw.append(tl)
            chars += sum(len(t.text) for t in raw)
            if chars > limits.max_chars:
                raise TooLarge(f"{path.name} holds more than {limits.max_chars:,} characters of text.")
            page_chars = sum(len(t.text.strip()) for t in raw)
            if page_chars < 15 and page.get_images(full=False):
                image_only.append(pno)
            elif outlined_text_rows(page, page_chars) >= MIN_OUTLINED_ROWS:
                outlined[pno] = list(raw)  # text drawn as glyph outlines beside the real text: OCR adds it
            pages.append(order_page(raw, rect.width))
        method = "pymupdf"
        notes: list[str] = []
        warnings: list[str] = []
        if hidden:
            notes.append(f"{hidden} characters of text no reader can see (invisible or white on white) were not read.")
        if image_only or outlined:
            method = ocr_pages(doc, pages, image_only, n_pages, path.name, limits, started, notes, warnings,
                               allow_ocr=allow_ocr, defer_ocr=defer_ocr, outlined=outlined) or method
    running: list[str] = []
    lines = _drop_running_lines(pages, sizes, running)
    lines = repair_wrapped_dates(_rejoin_broken_words(lines))
    if not any(ln.text.strip() for ln in lines):
        if not image_only and not outlined:  # nothing drawn to OCR either: not a scan
            state = " is damaged (cut short or its structure broken) and" if repaired else ""
            raise PdfUnreadable(f"{path.name}{state} draws no text or image that could be read.")
        raise NeedsOcr(f"{path.name} has no extractable text (it may be a scan that OCR could not read).")
    return ExtractedDoc(lines=lines, page_count=n_pages, method=method, page_sizes=sizes, notes=notes,
                        created=created, running=running, warnings=warnings)


MAX_CONTENT_BYTES = 16_000_000  # decompressed content of one page; real CV pages use < 1 MB
MAX_IMAGE_PIXELS = 60_000_000
_MEMORY_ERROR = re.compile(r"malloc|calloc|realloc|out of memory|unable to allocate|cannot allocate|bad_alloc", re.I)


def _inflated_size(raw: bytes, limit: int) -> int:
    """Size of a Flate stream once inflated, counting at most ``limit + 1`` bytes (never inflating it all)."""
    inflater = zlib.decompressobj()
    total = 0
    data = raw
    while data:
        out = inflater.decompress(data, 1 << 20)
        total += len(out)
        if total > limit:
            break
        data = inflater.unconsumed_tail
        if not out:
            break
    return total


def drop_invisible_spans(page, data: dict) -> int:
    """Remove text no reader sees, and return how many characters went (keyword stuffing).

    Text drawn invisible (render mode 3: PyMuPDF gives its spans alpha 0) is dropped unless the
    page is a scan, where the invisible layer is the OCR text over the page image; near-white
    text is dropped unless a dark fill or an image lies under it (white on a coloured band is
    read).
    """
    import pymupdf

    spans = [(line, sp) for block in data.get("blocks", []) for line in block.get("lines", [])
             for sp in line.get("spans", [])]
    invisible = [sp for _, sp in spans if sp.get("alpha", 255) == 0 and sp.get("text", "").strip()]
    white = [sp for _, sp in spans if _near_white(sp.get("color", 0)) and sp.get("alpha", 255) != 0
             and sp.get("text", "").strip()]
    if not invisible and not white:
        return 0
    area = max(page.rect.width * page.rect.height, 1.0)
    images = [pymupdf.Rect(i["bbox"]) for i in page.get_image_info()]
    scan = any(r.width * r.height >= 0.6 * area for r in images)
    drop = [] if scan else list(invisible)
    if white:
        backs = images + [pymupdf.Rect(d["rect"]) for d in page.get_drawings()
                          if d.get("fill") is not None and sum(d["fill"][:3]) / 3 < 0.8]
        drop += [sp for sp in white if not any(pymupdf.Rect(sp["bbox"]).intersects(r) for r in backs)]
    gone = {id(sp) for sp in drop}
    for block in data.get("blocks", []):
        for line in block.get("lines", []):
            line["spans"] = [sp for sp in line.get("spans", []) if id(sp) not in gone]
    return sum(len(sp.get("text", "").strip()) for sp in drop)


def _near_white(color: int) -> bool:
    """An sRGB integer whose every channel is at least 0xF0."""
    return all(((color >> shift) & 0xFF) >= 0xF0 for shift in (16, 8, 0))


def _drop_shadow_spans(data: dict) -> None:
    """Remove text drawn twice a point or so apart (a fake bold or a drop shadow: "JOANNA JOANNA").

    A span whose text repeats an earlier span's, with its box shifted by less than a third of
    its size, is the same glyphs inked again, not a second word.
    """
    seen: dict[str, list[tuple[float, float, float]]] = {}
    for block in data.get("blocks", []):
        for line in block.get("lines", []):
            kept = []
            for span in line.get("spans", []):
                text = span.get("text", "").strip()
                x0, y0 = span["bbox"][0], span["bbox"][1]
                tol = max(0.3 * float(span.get("size", 10)), 0.5)
                if len(text) > 1 and any(abs(x0 - x) <= tol and abs(y0 - y) <= tol and (x, y) != (x0, y0)
                                         for x, y, _ in seen.get(text, ())):
                    continue
                seen.setdefault(text, []).append((x0, y0, tol))
                kept.append(span)
            line["spans"] = kept


def _check_page_bombs(doc, page, name: str, limits: IngestLimits | None = None) -> None:
    """Refuse pages whose content (with the form XObjects they draw) or images pass the limits (``pdf_guard``)."""
    from cvrag_desktop.ingestion.read.pdf_guard import check_page

    check_page(doc, page, name, limits or IngestLimits())


def _raise_if_memory(exc: BaseException) -> None:
    """MuPDF reports a failed allocation (the worker's memory cap) as its own error: make it a MemoryError."""
    if isinstance(exc, MemoryError) or _MEMORY_ERROR.search(str(exc)):
        raise MemoryError(str(exc)) from exc


def _drop_running_lines(pages: list[list[TextLine]], sizes: list[tuple[float, float]],
                        dropped: list[str] | None = None) -> list[TextLine]:
    """Drop page numbers and headers/footers repeated across pages (their texts, once each, go to ``dropped``:
    a running footer may print the CV's date)."""
    def key(t: str) -> str:
        return re.sub(r"\d+", "#", t.strip().lower())

    edge_counts: Counter[str] = Counter()
    for pno, lines in enumerate(pages):
        h = sizes[pno][1]
        seen = {key(ln.text) for ln in lines if ln.y0 < 0.08 * h or ln.y1 > 0.92 * h}
        edge_counts.update(seen)
    n = len(pages)
    pages = [pages[0], *(_without_repeated_opening(pages[0], p) for p in pages[1:])] if n >= 2 else pages
    out: list[TextLine] = []
    kept_header: set[str] = set()
    for pno, lines in enumerate(pages):
        h = sizes[pno][1]
        for ln in lines:
            if (ln.y0 < 0.15 * h or ln.y1 > 0.85 * h) and _PAGE_NUMBER.match(ln.text):
                continue
            at_edge = ln.y0 < 0.08 * h or ln.y1 > 0.92 * h
            if at_edge:
                if ln.y1 > 0.92 * h and _TRAILING_PAGE.search(ln.text):
                    continue
                if n >= 2 and edge_counts[key(ln.text)] >= max(2, n // 2 + (n > 2)):
                    k = key(ln.text)
                    if ln.y0 < 0.08 * h and k not in kept_header:
                        # a header repeated on every page is read once, where it first appears: LinkedIn
                        # exports and Word page headers print the name, headline and contacts there
                        kept_header.add(k)
                        out.append(ln)
                        continue
                    if dropped is not None and ln.text not in dropped:
                        dropped.append(ln.text)
                    continue
            out.append(ln)
    return out


def _without_repeated_opening(first: list[TextLine], page: list[TextLine]) -> list[TextLine]:
    """A later page without a card repeating page one's opening lines (name, headline, e-mail in the same
    type: the contact card an export prints on its last page). Two such lines in a row at least."""
    opening = {(ln.text.strip(), round(ln.size)) for ln in first[:5] if ln.text.strip()}
    hits = [(ln.text.strip(), round(ln.size)) in opening for ln in page]
    drop = {k for k in range(len(page)) if hits[k] and ((k > 0 and hits[k - 1]) or (k + 1 < len(page) and hits[k + 1]))}
    return [ln for k, ln in enumerate(page) if k not in drop] if drop else page


def _rejoin_broken_words(lines: list[TextLine]) -> list[TextLine]:
    """Merge a line ending in a word-splitting hyphen with the next line of the same column."""
    out: list[TextLine] = []
    for ln in lines:
        if out:
            prev = out[-1]
            if (
                prev.page == ln.page
                and prev.column == ln.column
                and ends_with_break_hyphen(prev.text)
                and ln.text[:1].islower()
                and 0 <= ln.y0 - prev.y1 < 1.5 * prev.height
            ):
                prev.text = join_broken_word(prev.text, ln.text)
                prev.bbox = (
                    min(prev.x0, ln.x0), prev.y0, max(prev.x1, ln.x1), ln.y1
                )
                continue
        ln.text = ln.text.replace("\u00ad", "")
        out.append(ln)
    for ln in out:
        ln.text = ln.text.replace("\u00ad", "")
    return out


def _extract_pdf_pypdf(path: Path, limits: IngestLimits, first_error: Exception) -> ExtractedDoc:
    """Fallback reader: text without layout, one pseudo-line per text line."""
    try:
        from pypdf import PdfReader

        reader = PdfReader(str(path), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise PdfEncrypted(f"{path.name} is password-protected; remove the password and import it again.")
        n_pages = len(reader.pages)
        if n_pages > limits.max_pages:
            raise TooLarge(f"{path.name} has {n_pages} pages; the limit is {limits.max_pages} for a CV.")
        lines: list[TextLine] = []
        chars = 0
        for pno, page in enumerate(reader.pages):
            text = page.extract_text() or ""
            chars += len(text)
            if chars > limits.max_chars:
                raise TooLarge(f"{path.name} holds more than {limits.max_chars:,} characters of text.")
            for i, raw in enumerate(text.splitlines()):
                t = clean_text(raw)
                if t.strip():
                    lines.append(TextLine(t, pno, (0.0, float(i * 12), 0.0, float(i * 12 + 10)), 10.0, False))
    except (PdfEncrypted, TooLarge):
        raise
    except Exception as exc:
        log.debug("pypdf failed on %s too: %s", path.name, exc)
        raise PdfUnreadable(str(first_error)) from exc  # the first reader's reason, said once
    if not lines:
        raise PdfUnreadable(str(first_error))
    return ExtractedDoc(lines=repair_wrapped_dates(_rejoin_broken_words(lines)), page_count=n_pages, method="pypdf",
                        notes=["read without layout (pypdf fallback)"])
