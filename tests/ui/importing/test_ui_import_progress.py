"""Import progress that tells the truth: an ETA that counts the files still running, the files
being read (a slow scan named), one ETA in the line, per-row reading state."""

from __future__ import annotations

import pytest

from cvrag_desktop.ui.importing.import_progress import ImportProgress, lane_eta
from cvrag_desktop.ui.models.import_queue import ImportQueueModel


def test_lane_eta_counts_running_files():
    assert lane_eta(10, 2, 0, []) == 0
    assert lane_eta(10, 2, 4, []) == 20  # two lanes, four files of 10 s
    assert lane_eta(10, 2, 1, [4.0]) == 10  # the free lane takes the queued file
    # a file running far longer than the mean keeps its lane busy (half its overrun is still to come);
    # the queue goes to the other lane
    assert lane_eta(10, 2, 2, [120.0]) == 55
    assert lane_eta(10, 2, 2, [9.0]) == 12.5


def test_progress_line_names_a_slow_file_and_has_one_eta():
    p = ImportProgress(workers=2)
    for name in ("a.pdf", "b.pdf", "c.pdf"):
        p.file_done(f"/cvs/{name}", 2.0)
    now = 1000.0
    p.set_running({"/cvs/scan.pdf": now - 130, "/cvs/d.pdf": now - 1})
    text = p.text(15, 17, now)
    assert text.startswith("15 / 17 files · about ")
    assert text.count(" left") == 1
    assert "scan.pdf (2:10: slow, maybe a scan being read by OCR)" in text and "d.pdf (0:01)" in text
    # the ETA is not the naive "2 files × 2 s": the scan is still running
    assert p.eta(17, 15, now) == pytest.approx(64.0)  # not "0:03": the scan has run 130 s against a 2 s mean
    fresh = ImportProgress(workers=2)
    assert "estimating" in fresh.text(0, 5, now)


def test_queue_rows_show_reading_with_elapsed_time(qtbot):
    model = ImportQueueModel()
    model.add_paths(["/cvs/a.pdf", "/cvs/b.pdf"], status="queued")
    import time

    model.set_running({"/cvs/a.pdf": time.time() - 12})
    assert model.index(0, 1).data() == "Reading" and model.index(0, 4).data() in ("12 s…", "13 s…")
    assert model.index(1, 1).data() == "Queued"
    model.set_running({})  # handed back (e.g. cancelled) → queued again
    assert model.index(0, 1).data() == "Queued"


def test_import_line_never_repeats_the_eta(window, qtbot, small_cvs, monkeypatch):
    pane = window.importer
    seen: list[str] = []
    real = pane.progress_label.setText
    monkeypatch.setattr(pane.progress_label, "setText", lambda t: seen.append(t) or real(t))
    with qtbot.waitSignal(pane.batch_finished, timeout=300_000):
        pane.import_paths([small_cvs])
    progress_lines = [t for t in seen if " / " in t and " files" in t]
    assert progress_lines, seen
    assert all(t.count(" left") <= 1 for t in progress_lines)
    assert seen[-1].startswith("Imported ")
