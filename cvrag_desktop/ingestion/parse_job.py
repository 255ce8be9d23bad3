"""One file's parse, as a sandboxed worker process runs it: extract → normalize → chunk, and its result.

The worker side of a batch (``ingestion/pipeline.py`` is the writing side). Everything here
is pure: it reads the stored copy and returns a plain dict (or asks for the OCR lane); a
failure becomes a status and a reason, never an exception out of the worker.
:func:`limit_message` words what the sandbox reports when it had to stop a worker.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from pathlib import Path

from cvrag_desktop.config import IngestLimits
from cvrag_desktop.errors import CvragError, NoCvContent
from cvrag_desktop.ingestion.chunking import build_chunks, cap_chunks
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.preview.docx_preview import remap, render_preview
from cvrag_desktop.ingestion.read.extract import OcrDeferred, extract_document
from cvrag_desktop.text.vocab.lexicon import load_lexicon

log = logging.getLogger(__name__)


def parse_file(stored: str, candidate_id: str, limits: dict, allow_ocr: bool, as_of: str | None,
               defer_ocr: bool = False) -> dict:
    """Extract, normalize and chunk one stored file (runs in a sandboxed worker process; pure).

    With ``defer_ocr`` a file that needs OCR is not read here: the result asks the sandbox
    to run it again on its OCR lane (``{"defer": "ocr", "args": ...}``).
    """
    started = time.perf_counter()
    try:
        doc = extract_document(Path(stored), IngestLimits(**limits), allow_ocr=allow_ocr, defer_ocr=defer_ocr)
        layout = _docx_layout(doc, stored)  # before normalising: it may merge the parser's lines
        cv, blocks = normalize_document(doc, dt.date.fromisoformat(as_of) if as_of else None)
        if not (cv.name or cv.emails or cv.phones or cv.experiences or cv.education
                or (cv.skills and cv.languages)):  # a sidebar of contacts, skills and languages is a CV
            raise NoCvContent("No name, contact, work history or education could be read from this file.")
        chunks, left_out = cap_chunks(build_chunks(candidate_id, cv, doc, blocks))
        if left_out:  # bounds this file's indexing; the user is told, with the file
            doc.warnings.append(f"Far more text than a CV to index: {len(chunks)} of its {len(chunks) + left_out} "
                                "passages are searchable, the rest were left out.")
        if layout is not None:  # a Word file: positions on its preview PDF, as a PDF's are on its pages
            cv, chunks = remap(cv, chunks, layout)
    except OcrDeferred as exc:
        return {"ok": False, "status": "queued", "defer": "ocr", "pages": exc.pages,
                "args": (stored, candidate_id, limits, allow_ocr, as_of, False),
                "seconds": time.perf_counter() - started}
    except CvragError as exc:
        return {"ok": False, "status": exc.status, "error": exc.message, "seconds": time.perf_counter() - started}
    except MemoryError:  # the worker's memory cap was reached: the sandbox recycles the worker
        return {"ok": False, "status": "too_large", "error": None, "memory": True,
                "seconds": time.perf_counter() - started}
    except Exception as exc:  # a parser bug must not take the batch down
        log.exception("unexpected failure parsing %s", stored)
        return {"ok": False, "status": "failed", "error": f"Unexpected error: {exc!r}",
                "seconds": time.perf_counter() - started}
    return {
        "ok": True,
        "cv": cv.model_dump_json(),
        "chunks": [c.model_dump() for c in chunks],
        "pages": layout.pages if layout is not None else doc.page_count,
        "method": doc.method,
        "text": doc.text,
        "warnings": list(doc.warnings),
        "preview_pdf": layout.pdf if layout is not None else None,
        "seconds": time.perf_counter() - started,
    }


def _docx_layout(doc, stored: str):
    """The preview of a Word file (None for a PDF, or when rendering fails: it is then made on first view)."""
    if doc.method != "docx":
        return None
    try:
        return render_preview(doc.lines)
    except Exception:  # a preview is a convenience: the record is imported without it
        log.exception("no preview could be rendered for %s", stored)
        return None


def warm_worker() -> None:
    """Import the parsers and load the vocabularies once per worker process."""
    load_lexicon()


def limit_message(name: str, result: dict, limits: IngestLimits) -> str:
    """The user-facing reason for a file whose worker was stopped (deadline, memory, crash)."""
    limit = result.get("limit")
    if limit == "deadline":
        allowed = result.get("allowed_s", limits.max_seconds)
        which = "max_seconds" if allowed <= limits.max_seconds else "max_seconds + max_ocr_seconds"
        return f"{name} took longer than the {allowed:g} s time limit ({which}) to read; its parser was stopped."
    if limit == "memory" or (limit == "crash" and result.get("exitcode") == -9):
        cap = result.get("cap_mb") or limits.max_worker_mb  # the worker's share of memory_budget_mb
        which = "max_worker_mb" if cap >= limits.max_worker_mb else \
            "its parser's share of memory_budget_mb, at most max_worker_mb"
        return (f"{name} needed more than the {cap} MB memory limit ({which}) "
                "to read; its parser was stopped.")
    return f"The parser crashed on {name} (exit code {result.get('exitcode')}); the other files were imported."
