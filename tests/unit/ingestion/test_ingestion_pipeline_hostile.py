"""Hostile files end with a clear status within their limits, and the batch goes on.

Small bombs with small limits so each test runs in seconds; ``benchmarks/hostile.py``
runs the full-size set with the default limits.
"""

from __future__ import annotations

import time

import pytest

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.config import IngestLimits, app_paths
from cvrag_desktop.ingestion.pipeline import Ingestor
from cvrag_desktop.ingestion.read.sandbox import ParseSandbox
from tests.support import hostile

RSS_CEILING_MB = 1536
SMALL = {"max_seconds": 20.0, "max_inflated_mb": 20, "max_page_content_mb": 4, "max_image_pixels": 10_000_000,
         "max_chars": 100_000, "max_table_cells": 5_000, "max_worker_mb": 1024}


@pytest.fixture
def ingest(tmp_path):
    """Import files with the given limits; returns {file name: outcome}. The good CV must import too."""
    paths = app_paths().ensure()
    catalog = Catalog(paths.catalog_db)

    def run(files, workers=1, **limits):
        good = hostile.good_cv_pdf(tmp_path / "zz_good.pdf")
        ingestor = Ingestor(catalog, paths, IngestLimits(**{**SMALL, **limits}), allow_ocr=False)
        started = time.monotonic()
        report = ingestor.ingest([*files, good], workers=workers)
        elapsed = time.monotonic() - started
        out = {f.path.rsplit("/", 1)[-1]: f for f in report.files}
        assert out["zz_good.pdf"].status == "done", out["zz_good.pdf"]  # the batch went on
        for f in report.files:
            assert f.peak_rss_mb is None or f.peak_rss_mb <= RSS_CEILING_MB, f
        out["_elapsed"] = elapsed
        return out

    yield run
    catalog.close()


def _refused(outcome, *words):
    assert outcome.status == "too_large", outcome
    for w in words:
        assert w in outcome.error, outcome.error
    assert outcome.seconds is not None and outcome.seconds < SMALL["max_seconds"] + 5  # its deadline, plus a busy machine's slack


def test_xobject_text_flood(tmp_path, ingest):
    out = ingest([hostile.xobject_flood_pdf(tmp_path / "flood.pdf", invocations=400)])
    _refused(out["flood.pdf"], "form XObjects", "max_page_content_mb")


def test_nested_xobjects(tmp_path, ingest):
    out = ingest([hostile.nested_xobjects_pdf(tmp_path / "nested.pdf")])
    _refused(out["nested.pdf"], "max_xobject_depth")


def test_font_bomb(tmp_path, ingest):
    out = ingest([hostile.font_bomb_pdf(tmp_path / "font.pdf", inflated_mb=40)])
    _refused(out["font.pdf"], "max_inflated_mb")


def test_image_lying_about_its_size(tmp_path, ingest):
    out = ingest([hostile.lying_image_pdf(tmp_path / "jpeg.pdf", real_side=4000)])
    _refused(out["jpeg.pdf"], "declared 1×1", "4000×4000", "max_image_pixels")


def test_tiny_font_stuffing_and_tiny_cv(tmp_path, ingest):
    out = ingest([hostile.tiny_font_pdf(tmp_path / "stuffed.pdf", stuffing_lines=8000),
                  hostile.tiny_font_pdf(tmp_path / "tiny.pdf", stuffing_lines=300, size=0.2, cv_scale=0.01)])
    _refused(out["stuffed.pdf"], "characters")
    assert out["tiny.pdf"].status in ("done", "no_content"), out["tiny.pdf"]  # no ZeroDivisionError


@pytest.mark.parametrize("part", ["word/styles.xml", "word/media/image1.png"])
def test_docx_part_bombs(tmp_path, ingest, part):
    bomb = hostile.docx_part_bomb(tmp_path / "bomb.docx", part, inflated_mb=40)
    assert bomb.stat().st_size < 1_000_000
    out = ingest([bomb])
    _refused(out["bomb.docx"], "max_inflated_mb", part)


def test_docx_huge_merged_table(tmp_path, ingest):
    big = hostile.docx_merged_table(tmp_path / "merged.docx", rows=1500)  # 12,000 cells
    ok = hostile.docx_merged_table(tmp_path / "merged_ok.docx", rows=300)
    out = ingest([big, ok])
    _refused(out["merged.docx"], "max_table_cells")
    assert out["merged_ok.docx"].status == "done" and out["merged_ok.docx"].seconds < 30


def test_merged_cells_read_once_in_their_row(tmp_path):
    """A vertically merged cell's text is its top cell's: read once, the row's cells joined by tabs."""
    from cvrag_desktop.ingestion.read.docx_reader import extract_docx

    path = hostile.docx_merged_table(tmp_path / "m.docx", rows=6, cols=3)
    texts = [ln.text for ln in extract_docx(path, IngestLimits()).lines]
    assert texts.count("Cell 0\tCell 1\tCell 2") == 1
    assert not any("Cell" in t for t in texts if t != "Cell 0\tCell 1\tCell 2")


def test_whole_hostile_set_two_workers(tmp_path, ingest):
    files = hostile.hostile_set(tmp_path / "set", full_size=False)
    out = ingest(files, workers=2)
    for f in files:
        o = out[f.name]
        assert o.status in ("too_large", "done", "no_content"), o
        assert o.error is None or "Unexpected" not in o.error
    assert out["_elapsed"] < 60


# ---- the sandbox itself: limits enforced from outside, whatever the parser does --------------
def test_flood_without_prechecks_is_stopped_by_the_worker_limits(tmp_path, ingest):
    """With the pre-check raised out of the way, the memory cap or the deadline still stops the flood."""
    out = ingest([hostile.xobject_flood_pdf(tmp_path / "flood.pdf", invocations=3000)],
                 max_page_content_mb=100_000, max_chars=100_000_000, max_worker_mb=600, max_seconds=6.0)
    o = out["flood.pdf"]
    assert o.status == "too_large", o
    assert "max_worker_mb" in o.error or "max_seconds" in o.error
    assert o.seconds < 6.0 + 10.0
    assert o.peak_rss_mb is None or o.peak_rss_mb <= 600 + 50


def _run_box(tasks, deadline=3.0, cap_mb=400):
    box = ParseSandbox(1, cap_mb, hostile.sandbox_probe)
    results = {}
    try:
        started = time.monotonic()
        box.run([(name, args) for name, args in tasks], deadline, lambda job, r: results.__setitem__(job, r))
        return results, time.monotonic() - started, box.restarts
    finally:
        box.close()


def test_sandbox_deadline_and_crashes_cost_only_their_file():
    results, elapsed, restarts = _run_box([
        ("slow", ("sleep", 30)), ("segv", ("segfault",)), ("exit", ("exit",)), ("fine", ("sleep", 0.01)),
    ])
    assert results["slow"]["limit"] == "deadline" and results["slow"]["seconds"] < 15  # generous: a busy machine
    assert results["segv"]["limit"] == "crash" and results["exit"]["limit"] == "crash"
    assert results["fine"]["ok"] is True
    assert restarts == 3 and elapsed < 90  # far below the 4 x 30 s the tasks would take unbounded


def test_sandbox_memory_hog_is_stopped_near_its_cap():
    """The cap stops the hog, not the clock: the deadline is long so a machine under memory pressure
    (allocation slowed by reclaim) cannot turn this into a deadline case."""
    results, _elapsed, restarts = _run_box([("hog", ("allocate", 1500)), ("fine", ("sleep", 0.01))],
                                           deadline=120.0, cap_mb=400)
    hog = results["hog"]
    assert hog["limit"] == "memory", hog
    if hog.get("memory"):  # the worker's own address-space cap failed the allocation
        assert hog["peak_rss_mb"] <= 450, hog
    else:  # the supervisor's RSS watch (platforms without RLIMIT_AS) killed it before it got far
        assert hog["peak_rss_mb"] < 1500, hog
    assert results["fine"]["ok"] is True and restarts == 1


def test_sandbox_cancel_returns_unstarted_and_running_jobs():
    box = ParseSandbox(1, 400, hostile.sandbox_probe)
    started = time.monotonic()
    try:
        left = box.run([("a", ("sleep", 30)), ("b", ("sleep", 0))], 60, lambda j, r: None,
                       should_cancel=lambda: time.monotonic() - started > 1.0)
    finally:
        box.close()
    assert sorted(left) == ["a", "b"] and time.monotonic() - started < 10


def test_sandbox_announced_ocr_phase_gets_its_own_budget():
    box = ParseSandbox(1, 400, hostile.sandbox_probe)
    results = {}
    try:
        box.run([("ocr", ("ocr", 2.0)), ("plain", ("sleep", 2.0))], 1.0, results.__setitem__,
                phase_s={"ocr": 3.0})
    finally:
        box.close()
    assert results["ocr"]["ok"] is True
    assert results["plain"]["limit"] == "deadline"


def test_sandbox_callback_error_does_not_leak_jobs_into_the_next_batch():
    box = ParseSandbox(2, 400, hostile.sandbox_probe)

    def boom(job, result):
        raise RuntimeError("catalog write failed")

    try:
        with pytest.raises(RuntimeError):
            box.run([("fast", ("sleep", 0)), ("slow", ("sleep", 2))], 10, boom)
        results = {}
        box.run([("next", ("sleep", 0))], 10, results.__setitem__)
        assert list(results) == ["next"]
    finally:
        box.close()


def test_workers_that_never_start_give_a_typed_error_not_a_traceback():
    from cvrag_desktop.errors import WorkerStartFailed

    box = ParseSandbox(1, 400, hostile.sandbox_probe, hostile.warm_that_dies)
    box.start_pause_s = 0.01
    try:
        with pytest.raises(WorkerStartFailed, match="nothing was lost"):
            box.run([("a", ("sleep", 0.01))], 3.0, lambda job, r: None)
    finally:
        box.close()
