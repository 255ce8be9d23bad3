"""The OCR lane takes the scan with the fewest pages to OCR first (issue 22, 9b): a long scan that
arrived first no longer holds the one OCR worker while the CVs behind it wait.

Deterministic: the first scan (1 page) holds the OCR worker until every scan has been handed to
the OCR lane (a gate file written when the last "ocr_wait" is seen), so the order of the rest is
decided with all of them waiting.
"""

from __future__ import annotations

from cvrag_desktop.ingestion.read.sandbox import ParseSandbox, _enqueue_fewest_pages
from tests.support.ocr_order_probe import order_probe


def test_the_ocr_lane_reads_the_shortest_scans_first(tmp_path):
    gate = tmp_path / "all-waiting"
    scans = [("gate", 1), ("long", 40), ("five", 5), ("three", 3), ("two", 2), ("three-b", 3)]
    waiting: set[str] = set()
    order: list[str] = []

    def on_phase(job, phase, *_):
        if phase == "ocr_wait":
            waiting.add(job)
            if len(waiting) == len(scans):
                gate.touch()

    box = ParseSandbox(1, 400, order_probe)
    try:
        jobs = [(name, (name, pages, str(gate) if name == "gate" else "")) for name, pages in scans]
        left = box.run(jobs, 20.0, lambda job, result: order.append(job), on_phase=on_phase)
    finally:
        box.close()
    assert left == []
    assert order == ["gate", "two", "three", "three-b", "five", "long"]  # equal page counts: arrival order


def test_enqueue_keeps_the_fewest_pages_at_the_end():
    queue: list = []
    sizes: dict[int, int] = {}
    jobs = {name: object() for name in "abcd"}
    for name, pages in [("a", 9), ("b", 2), ("c", None), ("d", 2)]:
        _enqueue_fewest_pages(queue, (jobs[name], ()), pages, sizes)
    popped = [queue.pop()[0] for _ in range(len(queue))]
    assert popped == [jobs["c"], jobs["b"], jobs["d"], jobs["a"]]  # unknown (0) first, then 2, 2, 9
