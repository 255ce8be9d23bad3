"""Text extraction with layout: PDF (PyMuPDF, pypdf fallback), DOCX, OCR for image-only pages.

The result is an :class:`~cvrag_desktop.ingestion.read.extracted.ExtractedDoc`: cleaned lines in
reading order with page, bbox and typography, plus the joined text and each line's character span,
so every later field can point back at its place in the file. This module picks the reader by the
file's bytes, enforces the limits page by page and calls in OCR; which spans are read and how they
join is ``read/pdf_spans.py``, page furniture and broken words across lines ``read/page_lines.py``.
"""

from __future__ import annotations

import logging
import time
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
from cvrag_desktop.ingestion.read.docx_reader import extract_docx
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc, keep_first_lines, raise_if_memory
from cvrag_desktop.ingestion.read.ocr_pages import OcrDeferred, ocr_pages
from cvrag_desktop.ingestion.read.outlined_text import MIN_OUTLINED_ROWS, outlined_text_rows
from cvrag_desktop.ingestion.read.page_lines import drop_running_lines, rejoin_broken_words
from cvrag_desktop.ingestion.read.pdf_guard import check_document, check_page
from cvrag_desktop.ingestion.read.pdf_spans import (
    drop_covered_spans,
    drop_invisible_spans,
    drop_shadow_spans,
    line_from_spans,
)
from cvrag_desktop.ingestion.read.reasons import with_cause
from cvrag_desktop.ingestion.read.textclean import (
    clean_text,
)

log = logging.getLogger(__name__)


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
        return keep_first_lines(extract_docx(path, limits))
    try:
        return keep_first_lines(_extract_pdf_pymupdf(path, limits, allow_ocr=allow_ocr, defer_ocr=defer_ocr))
    except (PdfEncrypted, TooLarge, NeedsOcr, MemoryError, OcrDeferred):
        raise
    except PdfUnreadable as exc:
        log.info("PyMuPDF failed on %s (%s); trying pypdf", path.name, exc)
        return keep_first_lines(_extract_pdf_pypdf(path, limits, first_error=exc))


def _extract_pdf_pymupdf(path: Path, limits: IngestLimits, *, allow_ocr: bool,
                         defer_ocr: bool = False) -> ExtractedDoc:
    import pymupdf

    started = time.monotonic()
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:  # PyMuPDF raises several types for broken files
        raise_if_memory(exc)
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
                raise_if_memory(exc)
                raise PdfUnreadable(with_cause(f"{path.name}: page {pno + 1} cannot be read.", exc)) from exc
            rect = page.rect
            sizes.append((rect.width, rect.height))
            raw: list[TextLine] = []
            drop_shadow_spans(data)
            hidden += drop_invisible_spans(page, data) + drop_covered_spans(page, data)
            for block in data.get("blocks", []):
                for line in block.get("lines", []):
                    tl = line_from_spans(line.get("spans", []), pno)
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
            notes.append(f"{hidden} characters of text no reader can see (invisible, white on white or painted over) were not read.")
        if image_only or outlined:
            method = ocr_pages(doc, pages, image_only, n_pages, path.name, limits, started, notes, warnings,
                               allow_ocr=allow_ocr, defer_ocr=defer_ocr, outlined=outlined) or method
    running: list[str] = []
    lines = drop_running_lines(pages, sizes, running)
    lines = repair_wrapped_dates(rejoin_broken_words(lines))
    if not any(ln.text.strip() for ln in lines):
        if not image_only and not outlined:  # nothing drawn to OCR either: not a scan
            state = " is damaged (cut short or its structure broken) and" if repaired else ""
            raise PdfUnreadable(f"{path.name}{state} draws no text or image that could be read.")
        raise NeedsOcr(f"{path.name} has no extractable text (it may be a scan that OCR could not read).")
    return ExtractedDoc(lines=lines, page_count=n_pages, method=method, page_sizes=sizes, notes=notes,
                        created=created, running=running, warnings=warnings)


def _check_page_bombs(doc, page, name: str, limits: IngestLimits | None = None) -> None:
    """Refuse pages whose content (with the form XObjects they draw) or images pass the limits (``pdf_guard``)."""
    check_page(doc, page, name, limits or IngestLimits())


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
    return ExtractedDoc(lines=repair_wrapped_dates(rejoin_broken_words(lines)), page_count=n_pages, method="pypdf",
                        notes=["read without layout (pypdf fallback)"])
