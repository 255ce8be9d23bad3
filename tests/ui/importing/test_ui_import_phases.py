"""Per-file phases in the import queue (Reading → Waiting for OCR → OCR page n/m → Indexing) and an
ETA that counts the OCR lane on its own (a scan's remaining pages, not the mean of text CVs)."""

from __future__ import annotations

import pytest

from cvrag_desktop.ingestion.pipeline import FileOutcome
from cvrag_desktop.ui.importing.import_progress import OCR_PAGE_GUESS_S, ImportProgress
from cvrag_desktop.ui.models.import_queue import ImportQueueModel


def test_queue_rows_show_the_phase_events(qtbot):
    model = ImportQueueModel()
    model.add_paths(["/cvs/scan.pdf", "/cvs/a.pdf"], status="queued")
    events = [FileOutcome(path="/cvs/scan.pdf", status="processing", phase="reading"),
              FileOutcome(path="/cvs/scan.pdf", status="processing", phase="ocr_wait", steps=5),
              FileOutcome(path="/cvs/scan.pdf", status="processing", phase="ocr", step=2, steps=5),
              FileOutcome(path="/cvs/a.pdf", status="processing", phase="indexing")]
    shown = []
    for e in events:
        model.set_phase(e.path, e.phase, e.step, e.steps)
        shown.append(model.index(0, 1).data())
    assert shown[:3] == ["Reading", "Waiting for OCR (5 pages)", "OCR page 2/5"]
    assert model.index(1, 1).data() == "Indexing"
    model.update("/cvs/a.pdf", status="done", seconds=1.0)
    model.set_phase("/cvs/a.pdf", "indexing")  # a late event never un-finishes a row
    assert model.index(1, 1).data() == "Imported"
    assert "phase" not in FileOutcome(path="x", status="done").model_dump()  # CLI JSON unchanged


def test_eta_counts_the_ocr_lane_separately():
    p = ImportProgress(workers=2)
    for name in ("a", "b", "c"):
        p.file_done(f"/cvs/{name}.pdf", 2.0)
    now = 1000.0
    p.set_phase("/cvs/scan.pdf", "ocr_wait", None, 4, now=now)
    # 3 text files left over 2 lanes (4 s), but 4 OCR pages wait: the OCR lane sets the ETA
    assert p.eta(8, 3, now) == pytest.approx(4 * OCR_PAGE_GUESS_S)
    p.set_phase("/cvs/scan.pdf", "ocr", 1, 4, now=now)
    p.set_phase("/cvs/scan.pdf", "ocr", 2, 4, now=now + 10)  # one page took 10 s
    assert p.eta(8, 3, now + 10) == pytest.approx(10 + 2 * 10)
    text = p.text(3, 8, now + 10)
    assert "OCR scan.pdf page 2/4" in text and text.count(" left") == 1
    p.set_phase("/cvs/scan.pdf", "indexing", now=now + 40)
    p.file_done("/cvs/scan.pdf", 40.0)
    assert p.durations == [2.0, 2.0, 2.0]  # the scan's 40 s does not inflate the text CVs' mean
