"""One memory budget for the import's process tree (ingestion/read/budget.py).

The tree's measured peak for a mixed batch is printed by ``benchmarks/memory_tree.py``.
"""

from __future__ import annotations

import pytest

from cvrag_desktop.config import IngestLimits
from cvrag_desktop.ingestion.read.budget import (
    MAX_OCR_PIXELS,
    MIN_OCR_PIXELS,
    OCR_MIN_MB,
    PARSE_MIN_MB,
    ocr_pixels_for,
    plan_memory,
)


@pytest.mark.parametrize("total, workers, parent_now", [(1536, 2, 300), (1536, 4, 300), (3072, 2, 400),
                                                          (8192, 8, 600), (2048, 1, 350)])
def test_the_parent_and_every_worker_cap_fit_the_total(total, workers, parent_now):
    plan = plan_memory(total, workers, 4096, parent_now)
    assert plan.parent_mb >= parent_now
    assert plan.parent_mb + plan.ocr_cap_mb + plan.workers * plan.parse_cap_mb <= total
    assert 1 <= plan.workers <= workers
    assert plan.parse_cap_mb >= PARSE_MIN_MB and plan.ocr_cap_mb >= OCR_MIN_MB


def test_a_small_budget_runs_fewer_workers_and_says_so():
    plan = plan_memory(1536, 2, 1536, 300)
    assert plan.workers == 1 and "1 parse worker(s) instead of 2" in plan.note
    roomy = plan_memory(4096, 2, 1536, 350)
    assert roomy.workers == 2 and roomy.note == ""


def test_no_cap_passes_max_worker_mb():
    plan = plan_memory(16_000, 2, 800, 350)
    assert plan.parse_cap_mb <= 800 and plan.ocr_cap_mb <= 800


def test_a_budget_below_the_minimum_keeps_the_minimums_and_says_so():
    plan = plan_memory(900, 2, 1536, 500)
    assert plan.workers == 1
    assert "below the minimum" in plan.note


def test_the_ocr_render_follows_the_ocr_cap():
    assert ocr_pixels_for(OCR_MIN_MB) == MIN_OCR_PIXELS
    assert ocr_pixels_for(1200) > ocr_pixels_for(1000) > MIN_OCR_PIXELS
    assert ocr_pixels_for(100_000) == MAX_OCR_PIXELS


def test_the_minimum_ocr_cap_holds_the_worst_measured_one_megapixel_peak():
    # one scan at 1 MP peaked at up to 738 MB (a 720 MB cap failed it one run in seven)
    assert OCR_MIN_MB >= 738 * 1.1


def test_the_setting_defaults_to_one_and_a_half_gigabytes():
    assert IngestLimits().memory_budget_mb == 1536


def test_the_ocr_render_size_is_set_per_process():
    from cvrag_desktop.ingestion.read import ocr

    before = ocr.MAX_PIXELS
    try:
        ocr.set_max_pixels(1_000_000)

        class Page:
            class rect:  # the shape of a PyMuPDF page's rect
                width, height = 595.0, 842.0

            @staticmethod
            def get_pixmap(matrix, colorspace):
                return matrix

        _matrix, scale = ocr._render(Page)
        assert (595 * scale) * (842 * scale) <= 1_000_000 * 1.001
    finally:
        ocr.MAX_PIXELS = before
