"""The OCR page budget (issue 22, 9b): a scan's OCR stops after ``limits.max_ocr_pages`` pages;
the file is imported from the pages read, with a warning the user sees, and the scan behind it in
the same batch gets the OCR worker too.

In-process tests use a stand-in engine (one line per page, deterministic); the batch test runs
the real sandbox and OCR engine on small invented scans (skipped when no engine is installed).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.config import IngestLimits
from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.ingestion.read import ocr
from cvrag_desktop.ingestion.read.extract import extract_document
from cvrag_desktop.ingestion.read.ocr_pages import budget_warning, pages_to_read

MARKERS = ["Aldebaran", "Bellatrix", "Canopus", "Denebola", "Electra"]  # one word per page, easy to OCR


def _page_lines(i: int) -> list[str]:
    first = ["Jane Roe", "jane.roe@example.com", "Experience", "Backend Engineer, Acme Corp"] if i == 0 else []
    return [*first, f"Project {MARKERS[i]} notes"]


def make_scan(path: Path, pages: int, name: str = "Jane Roe", email: str = "jane.roe@example.com") -> Path:
    """An image-only PDF: each page's text is drawn, rendered to a picture, and only the picture kept."""
    out = pymupdf.open()
    for i in range(pages):
        src = pymupdf.open()
        page = src.new_page(width=420, height=300)
        lines = _page_lines(i)
        if i == 0:
            lines[:2] = [name, email]
        for k, line in enumerate(lines):
            page.insert_text((36, 48 + 30 * k), line, fontsize=16)
        png = page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY).tobytes("png")
        out.new_page(width=420, height=300).insert_image(pymupdf.Rect(0, 0, 420, 300), stream=png)
    out.save(path)
    return path


class _OnePerPage:
    """A stand-in OCR engine: "page N" for each page it is asked to read (and a record of which)."""

    name = "stand-in"

    def __init__(self) -> None:
        self.read: list[int] = []

    def read_page(self, page, page_no: int) -> list[TextLine]:
        self.read.append(page_no)
        return [TextLine(f"Jane Roe page {page_no + 1}", page_no, (36, 40, 300, 56), 16.0, False, "ocr")]


def test_pages_to_read_and_the_warning():
    assert pages_to_read([4, 0, 2, 1, 3], IngestLimits(max_ocr_pages=2)) == [0, 1]
    assert pages_to_read([0, 1], IngestLimits(max_ocr_pages=10)) == [0, 1]
    assert budget_warning(10, 100, 100, "the max_ocr_pages limit of 10") == (
        "OCR read the first 10 of 100 pages (the max_ocr_pages limit of 10); the rest is not searchable.")
    assert budget_warning(2, 5, 7, "x") == "OCR read the first 2 of the 5 scanned pages (x); the other 3 are not searchable."


def test_a_long_scan_is_read_up_to_the_page_budget(tmp_path, monkeypatch):
    engine = _OnePerPage()
    monkeypatch.setattr(ocr, "get_engine", lambda: engine)
    scan = make_scan(tmp_path / "scan.pdf", 5)
    doc = extract_document(scan, IngestLimits(max_ocr_pages=2))
    assert engine.read == [0, 1]
    assert doc.text == "Jane Roe page 1\nJane Roe page 2"
    assert doc.page_count == 5 and doc.method == "ocr"
    assert doc.warnings == ["OCR read the first 2 of 5 pages (the max_ocr_pages limit of 2); "
                            "the rest is not searchable."]


def test_a_scan_within_the_budget_has_no_warning(tmp_path, monkeypatch):
    engine = _OnePerPage()
    monkeypatch.setattr(ocr, "get_engine", lambda: engine)
    doc = extract_document(make_scan(tmp_path / "scan.pdf", 3), IngestLimits(max_ocr_pages=3))
    assert engine.read == [0, 1, 2] and doc.warnings == []


def test_the_parse_worker_defers_only_the_budgeted_pages(tmp_path, monkeypatch):
    from cvrag_desktop.ingestion.read.ocr_pages import OcrDeferred

    monkeypatch.setattr(ocr, "available_engine_name", lambda: "stand-in")
    with pytest.raises(OcrDeferred) as info:
        extract_document(make_scan(tmp_path / "scan.pdf", 5), IngestLimits(max_ocr_pages=2), defer_ocr=True)
    assert info.value.pages == 2  # "Waiting for OCR (2 pages)", not 5


@pytest.mark.slow
def test_a_long_scan_and_the_scan_behind_it_are_both_imported(tmp_path):
    if ocr.available_engine_name() is None:
        pytest.skip("no OCR engine installed")
    folder = tmp_path / "in"
    folder.mkdir()
    make_scan(folder / "a_long.pdf", 5)
    make_scan(folder / "b_short.pdf", 1, name="Ines Marlow", email="ines.marlow@example.org")
    svc = App()
    try:
        svc.settings.limits = IngestLimits(max_ocr_pages=2)
        report = svc.library.ingest([folder], use_llm=False, workers=1)
        by_name = {Path(f.path).name: f for f in report.files}
        long, short = by_name["a_long.pdf"], by_name["b_short.pdf"]
        assert long.status == "done" and short.status == "done", (long.error, short.error)
        assert report.ingested == 2 and report.failed == []
        warning = "OCR read the first 2 of 5 pages (the max_ocr_pages limit of 2); the rest is not searchable."
        assert long.warning == warning and long.pages == 5
        assert short.warning is None
        assert report.warnings == [{"path": long.path, "warning": warning}]
        text = " ".join(r["text"] for r in svc.catalog.query(
            "SELECT text FROM chunks WHERE candidate_id = ?", (long.candidate_id,)))
        assert [m for m in MARKERS if m in text] == MARKERS[:2]  # exactly the budgeted pages' text
        row = svc.catalog.query("SELECT status, error FROM files WHERE candidate_id = ?", (long.candidate_id,))[0]
        assert (row["status"], row["error"]) == ("done", warning)  # kept with the record
    finally:
        svc.close()


def test_ocr_stops_before_the_time_limit_and_keeps_what_it_read(tmp_path, monkeypatch):
    """A fake clock: each page "takes" 50 s, the file has 60 + 120 s; the next page is not started
    when it would end past the limit (elapsed + 1.5 x the mean page + 5 s), so the file is kept."""
    import time

    clock = [1000.0]
    engine = _OnePerPage()
    real_read = engine.read_page

    def slow_read(page, page_no):
        clock[0] += 50.0
        return real_read(page, page_no)

    engine.read_page = slow_read
    monkeypatch.setattr(ocr, "get_engine", lambda: engine)
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    doc = extract_document(make_scan(tmp_path / "scan.pdf", 5), IngestLimits(max_seconds=60, max_ocr_seconds=120))
    assert engine.read == [0, 1, 2]  # before page 4: 150 s + 75 s + 5 s > 180 s
    assert doc.warnings == ["OCR read the first 3 of 5 pages (its time limit, max_seconds + max_ocr_seconds); "
                            "the rest is not searchable."]
