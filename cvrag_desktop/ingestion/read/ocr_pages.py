"""OCR of a PDF's image-only pages, page by page, within a per-file page budget and time limit.

A CV is 1–4 pages; a 100-page scan took 128 s of OCR alone and held the single OCR worker
until the batch's deadline killed it. Here a file's OCR stops:

* after ``limits.max_ocr_pages`` pages (the first ones: a CV's facts are on its first pages),
* or, earlier, when the next page would not finish inside the file's time limit
  (``max_seconds + max_ocr_seconds``, judged from the pages read so far),

and the file is imported from the pages read, with a warning the user sees ("OCR read the
first 10 of 100 pages; the rest is not searchable"). The OCR worker is then free for the
next scan of the batch.
"""

from __future__ import annotations

import time

from cvrag_desktop.config import IngestLimits
from cvrag_desktop.errors import NeedsOcr, TooLarge
from cvrag_desktop.ingestion.layout.reading_order import TextLine, order_page
from cvrag_desktop.ingestion.read import ocr
from cvrag_desktop.ingestion.read.outlined_text import merge_ocr_lines
from cvrag_desktop.ingestion.read.sandbox_worker import announce

FINISH_RESERVE_S = 5.0  # left after the last OCR page for normalising, chunking and the hand-back


class OcrDeferred(Exception):
    """A PDF needs OCR and the caller asked to hand such files to the OCR lane instead of reading them here."""

    def __init__(self, pages: int) -> None:
        super().__init__(f"{pages} image-only page(s) to OCR")
        self.pages = pages


def _forget_decoded_images() -> None:
    """Empty MuPDF's store of decoded images after each OCR page: a scan's page images are read
    once, and kept they add up page after page (a 100-page scan passed the OCR worker's memory cap)."""
    try:
        import pymupdf

        pymupdf.TOOLS.store_shrink(100)
    except Exception:  # an optimisation only
        pass


def pages_to_read(todo: list[int], limits: IngestLimits) -> list[int]:
    """The pages OCR will read: the first ``max_ocr_pages`` of those that need it."""
    return sorted(todo)[: limits.max_ocr_pages]


def budget_warning(read: int, todo: int, n_pages: int, reason: str) -> str:
    """The user-facing warning for a scan whose OCR stopped before its last page."""
    if todo == n_pages:
        return f"OCR read the first {read} of {n_pages} pages ({reason}); the rest is not searchable."
    return (f"OCR read the first {read} of the {todo} scanned pages ({reason}); "
            f"the other {todo - read} are not searchable.")


def ocr_pages(doc, pages: list[list[TextLine]], image_only: list[int], n_pages: int, name: str,
              limits: IngestLimits, started: float, notes: list[str], warnings: list[str], *, allow_ocr: bool,
              defer_ocr: bool, outlined: dict[int, list[TextLine]] | None = None) -> str | None:
    """OCR the image-only pages in place, and the pages whose text is partly drawn as glyph outlines
    (their OCR lines join the real text), within the page budget and the time limit; reports page
    n of m to the supervisor. Returns the new extraction method, if any.

    Pages left unread (budget or time) keep whatever text layer they had, and a sentence naming
    how many were read goes to ``warnings`` (shown to the user and kept with the file's record).
    """
    outlined = outlined or {}
    todo = sorted([*image_only, *outlined])
    if not allow_ocr:
        if len(image_only) == n_pages:
            raise NeedsOcr(f"{name} is a scan (no text layer) and OCR is turned off.")
        if outlined:
            notes.append(f"{len(outlined)} page(s) with text drawn as outlines not read: OCR is turned off")
        return None
    chosen = pages_to_read(todo, limits)
    if defer_ocr and ocr.available_engine_name() is not None:
        raise OcrDeferred(len(chosen))  # a parse worker never loads the OCR engine: the OCR lane reads it
    engine = None if defer_ocr else ocr.get_engine()
    if engine is None:
        if len(image_only) == n_pages:
            raise NeedsOcr(
                f"{name} is a scan (no text layer) and no OCR engine is installed "
                "(install rapidocr-onnxruntime or Tesseract)."
            )
        if image_only:
            notes.append(f"{len(image_only)} image-only page(s) skipped: no OCR engine")
        if outlined:
            notes.append(f"{len(outlined)} page(s) with text drawn as outlines not read: no OCR engine")
        return None
    announce("ocr")  # the supervisor grants max_ocr_seconds more
    budget = limits.max_seconds + limits.max_ocr_seconds
    ocr_started = time.monotonic()
    read = 0
    stopped_for_time = False
    for i, pno in enumerate(chosen):
        now = time.monotonic()
        if i and now - started + 1.5 * (now - ocr_started) / i + FINISH_RESERVE_S > budget:
            stopped_for_time = True  # the next page would not finish in time: keep what was read
            break
        if now - started > budget:
            raise TooLarge(f"{name}: OCR took longer than the {budget:g} s time limit "
                           "(max_seconds + max_ocr_seconds).")
        announce("ocr", i + 1, len(chosen))  # "OCR page 2/5" in the import queue
        page = doc.load_page(pno)
        lines = engine.read_page(page, pno)
        pages[pno] = order_page(merge_ocr_lines(outlined[pno], lines) if pno in outlined else lines,
                                page.rect.width)
        read += 1
        _forget_decoded_images()
    if read < len(todo):
        reason = "its time limit, max_seconds + max_ocr_seconds" if stopped_for_time else \
            f"the max_ocr_pages limit of {limits.max_ocr_pages}"
        warnings.append(budget_warning(read, len(todo), n_pages, reason))
    notes.append(f"OCR ({engine.name}) on {read} page(s)"
                 + (f", {len(outlined)} of them for text drawn as outlines" if outlined else ""))
    return "ocr" if len(image_only) == n_pages else "pymupdf+ocr"
