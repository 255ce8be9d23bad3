"""GUI event-loop stalls while the window starts and while 100 CVs are imported and indexed.

A 5 ms heartbeat timer runs on the GUI thread; every gap between its ticks is a stall
(how long the GUI could not repaint or take input). Prints the longest gap and the p99
for the warm-up (index, models, assistant opened in a worker) and for the import. This
is a measurement, not a pass/fail test: timings depend on how busy the machine is (the
suite's test keeps only a ceiling that a real freeze breaks, ``tests/ui/test_ui_import_stall.py``).

    QT_QPA_PLATFORM=offscreen python benchmarks/gui_stall.py [--count 100] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
TARGET_MS = 250.0


def wait_until(app, predicate, timeout_s: float) -> None:
    """Process events until ``predicate()`` or the timeout."""
    end = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > end:
            raise TimeoutError("condition not met in time")
        app.processEvents()
        time.sleep(0.002)


def one_run(app, cvs: Path) -> dict:
    """Open a window on a fresh home, warm it up, import ``cvs``; stalls of both phases."""
    from PySide6.QtCore import QTimer

    from cvrag_desktop.services import Services
    from cvrag_desktop.ui.main_window import MainWindow

    os.environ["CVRAG_HOME"] = tempfile.mkdtemp(prefix="cvrag-stall-")
    gaps: list[float] = []
    last = [time.perf_counter()]

    def beat() -> None:
        now = time.perf_counter()
        gaps.append((now - last[0]) * 1000)
        last[0] = now

    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(beat)
    svc = Services()
    win = MainWindow(svc)
    win.show()
    last[0] = time.perf_counter()
    timer.start()
    win.start()
    wait_until(app, lambda: win.warm is not None and not win.runner.busy("status"), 180)
    warm = sorted(gaps)
    gaps.clear()
    win.show_pane(1)
    t0 = time.perf_counter()
    win.importer.import_paths([cvs])
    wait_until(app, lambda: win.importer.last_report is not None and not win.runner.busy("import"), 900)
    seconds = time.perf_counter() - t0
    timer.stop()
    imp = sorted(gaps)
    win.close()
    win.runner.wait(20_000)
    svc.close()

    def p99(s: list[float]) -> float:
        return s[max(0, int(len(s) * 0.99) - 1)] if s else 0.0

    return {"warm_max": warm[-1] if warm else 0.0, "warm_p99": p99(warm), "import_max": imp[-1] if imp else 0.0,
            "import_p99": p99(imp), "seconds": seconds, "beats": len(imp)}


def main() -> None:
    """Print one row per run."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    from PySide6.QtWidgets import QApplication

    from cvrag_desktop.factory.pipeline import generate_batch

    app = QApplication.instance() or QApplication([])
    cvs = Path(tempfile.mkdtemp(prefix="cvrag-stall-cvs-"))
    generate_batch(args.count, 7, cvs, locale="mixed", layout="mixed")
    print(f"{'run':>3} {'warm max ms':>12} {'warm p99':>9} {'import max ms':>14} {'import p99':>11} "
          f"{'import s':>9}  (target {TARGET_MS:.0f} ms, {os.cpu_count()} CPUs)")
    for i in range(args.runs):
        r = one_run(app, cvs)
        print(f"{i + 1:>3} {r['warm_max']:>12.1f} {r['warm_p99']:>9.1f} {r['import_max']:>14.1f} "
              f"{r['import_p99']:>11.1f} {r['seconds']:>9.1f}")


if __name__ == "__main__":
    main()
