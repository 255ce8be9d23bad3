"""The GUI thread never freezes while the window starts (index, embedding models and assistant opened
in a worker) and during a 100-CV import that also indexes.

The ceiling is generous on purpose: only a real freeze (work on the GUI thread) breaks it, not a busy
machine. The stall *measurement* (longest gap and p99 against the 250 ms target, several runs) is
``benchmarks/gui_stall.py`` (``make bench-gui``)."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer

from cvrag_desktop.ui.shell.main_window import IMPORT

MAX_STALL_MS = 3000.0  # a freeze ceiling; the 250 ms target is measured by benchmarks/gui_stall.py
HEARTBEAT_MS = 5


class Heartbeat:
    """A 5 ms timer on the GUI thread; ``gaps`` are the intervals between its ticks (ms)."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self.last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setInterval(HEARTBEAT_MS)
        self.timer.timeout.connect(self._beat)

    def _beat(self) -> None:
        now = time.perf_counter()
        self.gaps.append((now - self.last) * 1000)
        self.last = now

    def start(self) -> None:
        self.gaps, self.last = [], time.perf_counter()
        self.timer.start()

    def stop(self) -> tuple[float, float]:
        """(longest, p99) in ms."""
        self.timer.stop()
        gaps = sorted(self.gaps)
        return gaps[-1], gaps[max(0, int(len(gaps) * 0.99) - 1)]


def test_event_loop_stall_during_start_and_100_cv_import(window, qtbot, generated_cvs):
    pane = window.importer
    beat = Heartbeat()
    beat.start()
    window.start()  # what the app does after showing the window: warm-up in a worker
    qtbot.waitUntil(lambda: window.warm is not None, timeout=120_000)
    qtbot.waitUntil(lambda: not window.runner.busy("status") and not window.runner.busy("import"), timeout=60_000)
    warm_worst, warm_p99 = beat.stop()
    assert "error" not in window.warm, window.warm
    window.show_pane(IMPORT)
    started = time.perf_counter()
    beat.start()
    pane.import_paths([generated_cvs])
    qtbot.waitUntil(lambda: pane.last_report is not None and not window.runner.busy("import"), timeout=600_000)
    worst, p99 = beat.stop()
    seconds = time.perf_counter() - started
    report = pane.last_report
    assert report.ingested + report.duplicates + len(report.failed) == 100
    assert report.ingested >= 95, report.failed
    assert pane.model.rowCount() == 100
    assert pane.model.counts().get("done", 0) == report.ingested
    qtbot.waitUntil(lambda: window.candidates.model.rowCount() == len(window.services.people.list_people()), timeout=30_000)
    print(f"\n[stall] start-up warm-up {window.warm['timings']}: longest event-loop stall {warm_worst:.1f} ms, "
          f"p99 {warm_p99:.1f} ms\n[stall] 100-CV import + indexing in {seconds:.1f} s: {len(beat.gaps)} heartbeats, "
          f"longest event-loop stall {worst:.1f} ms, p99 {p99:.1f} ms (limit {MAX_STALL_MS:.0f} ms)")
    assert warm_worst < MAX_STALL_MS
    assert worst < MAX_STALL_MS
