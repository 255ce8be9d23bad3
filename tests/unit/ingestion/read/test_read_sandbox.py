"""The sandbox's OCR lane: a scan is handed from a parse worker to a dedicated OCR worker, the
other files go on meanwhile; cancel returns the OCR lane's jobs; limits hold there too.

The stand-in target (``tests/support/lanes_probe.py``) makes the scan wait for a marker file
that the test writes only after every text job has finished: if the scan held up the other
files (OCR inside a parse worker), the batch could not finish and the scan would hit its deadline.
"""

from __future__ import annotations

from cvrag_desktop.ingestion.read.sandbox import OCR, PARSE, ParseSandbox
from tests.support.lanes_probe import lane_probe

TEXT = [f"t{i}" for i in range(5)]


def _box() -> ParseSandbox:
    return ParseSandbox(1, 400, lane_probe)


def test_scan_runs_on_the_ocr_lane_while_the_other_files_finish(tmp_path):
    marker = tmp_path / "text-done"
    order: list[str] = []
    results: dict[str, dict] = {}
    phases: list[tuple] = []

    def on_result(job, result):
        order.append(job)
        results[job] = result
        if all(t in results for t in TEXT):
            marker.touch()  # only now may the scan's "OCR" finish

    box = _box()
    try:
        left = box.run([("scan", ("scan", str(marker)))] + [(t, ("text", 0.01)) for t in TEXT], 20.0, on_result,
                       phase_s={"ocr": 20.0}, on_phase=lambda job, *p: phases.append((job, *p)))
        assert not any(s.lane == OCR for s in box._slots)  # the OCR worker does not outlive its batch
    finally:
        box.close()
    assert left == []
    assert results["scan"]["ok"] is True, results["scan"]
    assert results["scan"]["lane"] == OCR and all(results[t]["lane"] == PARSE for t in TEXT)
    assert results["scan"]["pid"] != results["t0"]["pid"]
    assert order[-1] == "scan" and sorted(order[:-1]) == TEXT
    scan_phases = [p[1:] for p in phases if p[0] == "scan"]
    assert scan_phases == [("reading", None, None), ("ocr_wait", None, 3), ("ocr", None, None),
                           ("ocr", 1, 3), ("ocr", 2, 3), ("ocr", 3, 3)]
    assert all(p[1] == "reading" for p in phases if p[0] != "scan")


def test_cancel_returns_the_ocr_job_and_those_waiting_for_it(tmp_path):
    never = tmp_path / "never"  # the scans never finish on their own
    seen: list[tuple] = []
    done: list[str] = []

    def cancel() -> bool:  # once the first scan is on page 2 and the text files are done
        return ("s1", "ocr", 2, 3) in seen and len(done) == len(TEXT)

    box = _box()
    try:
        jobs = [("s1", ("scan", str(never))), ("s2", ("scan", str(never)))] + [(t, ("text", 0.01)) for t in TEXT]
        left = box.run(jobs, 60.0, lambda job, r: done.append(job), should_cancel=cancel,
                       phase_s={"ocr": 60.0}, on_phase=lambda job, *p: seen.append((job, *p)))
        assert not any(s.lane == OCR for s in box._slots)
        again: dict[str, dict] = {}
        box.run([("next", ("text", 0.0))], 10.0, again.__setitem__)  # the sandbox still works
    finally:
        box.close()
    assert sorted(left) == ["s1", "s2"]
    assert sorted(done) == TEXT
    assert ("s2", "ocr_wait", None, 3) in seen and not any(p[0] == "s2" and p[1] == "ocr" for p in seen)
    assert again["next"]["ok"] is True


def test_ocr_lane_keeps_the_deadline():
    results: dict[str, dict] = {}
    box = _box()
    try:
        box.run([("scan", ("scan", "/nonexistent/marker")), ("t", ("text", 0.0))], 0.5, results.__setitem__,
                phase_s={"ocr": 0.5})
    finally:
        box.close()
    assert results["t"]["ok"] is True
    assert results["scan"]["limit"] == "deadline" and results["scan"]["allowed_s"] == 1.0


def test_a_deferral_from_the_ocr_lane_itself_fails_the_file_instead_of_looping():
    results: dict[str, dict] = {}
    box = _box()
    try:
        box.run([("odd", ("loop", 0)), ("t", ("text", 0.0))], 5.0, results.__setitem__)
    finally:
        box.close()
    assert results["odd"]["status"] == "failed" and "OCR" in results["odd"]["error"]
    assert results["t"]["ok"] is True


class _DeadPipe:
    """The parent's end of a pipe whose worker has already exited."""

    def send(self, _obj) -> None:
        raise BrokenPipeError("worker gone")


def test_a_worker_that_dies_before_its_next_job_is_sent_keeps_its_current_job():
    """A worker can crash on its current file in the instant before the parent sends the next one ahead;
    the failed send must give the next job back and leave the current one to the run loop (which reports
    the crash), never replace the worker and drop the file it was running without a result."""
    from cvrag_desktop.ingestion.read.sandbox import _Slot

    box = ParseSandbox(1, 400, lane_probe)
    slot = _Slot(proc=None, conn=_DeadPipe(), lane=PARSE, ready=True)
    slot.hold("running.pdf", ("crash",))
    box._slots.append(slot)
    queues = {PARSE: [("next.pdf", ("fine",))], OCR: []}
    box._dispatch(queues, None)
    assert box._slots == [slot] and slot.job == "running.pdf" and box.restarts == 0
    assert queues[PARSE] == [("next.pdf", ("fine",))]
