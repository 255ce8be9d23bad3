"""The OCR worker is restarted between files once what earlier files left resident takes half its room,
so a good scan late in a batch is never judged against that leftover (issue 35, item 11)."""

from __future__ import annotations

from cvrag_desktop.ingestion.read.budget import WEAR_SHARE, worn_out
from cvrag_desktop.ingestion.read.sandbox import ParseSandbox
from tests.support.wear_probe import wear_probe

CAP_MB = 420


def test_seven_scans_that_each_leave_memory_behind_all_import():
    results: dict[str, dict] = {}
    box = ParseSandbox(1, CAP_MB, wear_probe, ocr_cap_mb=CAP_MB)
    try:  # each scan peaks 150 MB above what it finds and leaves 110 MB: a reused worker passes 420 MB by the 3rd
        jobs = [(f"scan_{k}", (f"scan_{k}", 110, 150)) for k in range(1, 8)]
        left = box.run(jobs, 60.0, lambda job, result: results.__setitem__(job, result))
    finally:
        box.close()
    assert left == []
    assert {job: r.get("ok") for job, r in results.items()} == {f"scan_{k}": True for k in range(1, 8)}, results
    pids = [results[f"scan_{k}"]["pid"] for k in range(1, 8)]
    assert len(set(pids)) >= 3 and box.restarts >= 2  # restarted between files, never killed mid-file


def test_worn_out_compares_the_leftover_with_the_room_the_worker_had():
    assert not worn_out(392, 147, 819)  # after one real scan: 245 MB of 672 left over
    assert worn_out(622, 147, 819)  # after three: 475 MB
    assert worn_out(147 + WEAR_SHARE * (819 - 147) + 1, 147, 819)
    assert not worn_out(None, 147, 819) and not worn_out(900, 900, 819)
