"""Offline OCR for image-only pages.

RapidOCR (ONNX Runtime; its models ship inside the wheel) is preferred; Tesseract is
used when its binary is installed. When neither is available :func:`get_engine`
returns None and the caller marks the file ``needs_ocr`` instead of inventing text.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import tempfile
import threading
from functools import cache
from typing import Protocol

from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.ingestion.read.sandbox_worker import rebase_memory_cap
from cvrag_desktop.ingestion.read.textclean import clean_text

log = logging.getLogger(__name__)
MAX_PIXELS = 12_000_000  # bound memory for giant or hostile page sizes (the memory budget may lower it)
OCR_DPI = 200


OCR_THREADS: int | None = None  # ONNX Runtime's intra-op threads (None: its default, every core)


def set_max_pixels(pixels: int, threads: int | None = None) -> None:
    """Size this process's page renders (and OCR threads: each holds its own buffers) to its memory cap
    (:mod:`.budget`; set when a worker starts, before the engine is loaded)."""
    global MAX_PIXELS, OCR_THREADS
    MAX_PIXELS = max(100_000, int(pixels))
    OCR_THREADS = threads


class OcrEngine(Protocol):
    """Reads one PyMuPDF page into positioned text lines (PDF point coordinates)."""

    name: str

    def read_page(self, page, page_no: int) -> list[TextLine]:
        """OCR a page."""
        ...


def _render(page):
    """Render a page to a pixmap at OCR resolution, capped at MAX_PIXELS."""
    scale = OCR_DPI / 72
    w, h = page.rect.width * scale, page.rect.height * scale
    if w * h > MAX_PIXELS:
        scale *= (MAX_PIXELS / (w * h)) ** 0.5
    import pymupdf

    return page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csGRAY), scale


class RapidOcrEngine:
    """RapidOCR on ONNX Runtime; thread-safe through a lock (the session is shared)."""

    name = "rapidocr"

    def __init__(self) -> None:
        from rapidocr_onnxruntime import RapidOCR

        self._ocr = RapidOCR(intra_op_num_threads=OCR_THREADS) if OCR_THREADS else RapidOCR()
        self._lock = threading.Lock()

    def read_page(self, page, page_no: int) -> list[TextLine]:
        """OCR one page; returns lines with bboxes converted back to PDF points."""
        import numpy as np

        pix, scale = _render(page)
        img = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)
        if pix.n == 1:
            img = np.repeat(img, 3, axis=2)
        with self._lock:
            result, _ = self._ocr(img)
        lines: list[TextLine] = []
        for box, text, score in result or []:
            if float(score) < 0.5:
                continue
            xs = [p[0] / scale for p in box]
            ys = [p[1] / scale for p in box]
            bbox = (min(xs), min(ys), max(xs), max(ys))
            t = clean_text(text)
            if t.strip():
                lines.append(TextLine(t, page_no, bbox, round(bbox[3] - bbox[1], 1), False, "ocr"))
        return lines


class TesseractEngine:
    """The ``tesseract`` binary through its TSV output."""

    name = "tesseract"

    def __init__(self, binary: str) -> None:
        self._bin = binary

    def read_page(self, page, page_no: int) -> list[TextLine]:
        """OCR one page with Tesseract; words are grouped into its own line ids."""
        pix, scale = _render(page)
        with tempfile.TemporaryDirectory() as tmp:
            png = os.path.join(tmp, "page.png")
            pix.save(png)
            proc = subprocess.run(
                [self._bin, png, "stdout", "tsv"], capture_output=True, text=True, timeout=120, check=False
            )
        groups: dict[tuple, list[tuple[str, tuple[float, float, float, float]]]] = {}
        for row in proc.stdout.splitlines()[1:]:
            cols = row.split("\t")
            if len(cols) < 12 or not cols[11].strip() or float(cols[10]) < 30:
                continue
            x, y, w, h = (int(v) / scale for v in cols[6:10])
            groups.setdefault((cols[2], cols[3], cols[4]), []).append((cols[11], (x, y, x + w, y + h)))
        lines = []
        for words in groups.values():
            text = clean_text(" ".join(w for w, _ in words))
            x0 = min(b[0] for _, b in words)
            y0 = min(b[1] for _, b in words)
            x1 = max(b[2] for _, b in words)
            y1 = max(b[3] for _, b in words)
            lines.append(TextLine(text, page_no, (x0, y0, x1, y1), round(y1 - y0, 1), False, "ocr"))
        return lines


def available_engine_name() -> str | None:
    """Which OCR engine would be used, without loading it (cheap, for diagnostics)."""
    import importlib.util

    if os.environ.get("CVRAG_DISABLE_OCR"):
        return None
    if importlib.util.find_spec("rapidocr_onnxruntime") is not None:
        return "rapidocr"
    return "tesseract" if shutil.which("tesseract") else None


@cache
def get_engine() -> OcrEngine | None:
    """The best OCR engine available offline, or None."""
    if os.environ.get("CVRAG_DISABLE_OCR"):
        return None
    try:
        engine = RapidOcrEngine()
        rebase_memory_cap()  # ONNX Runtime maps a large reserve: count only what OCR makes resident
        return engine
    except Exception as exc:  # missing wheel or broken ONNX Runtime
        log.info("RapidOCR unavailable: %s", exc)
    binary = shutil.which("tesseract")
    if binary:
        return TesseractEngine(binary)
    return None
