"""GUI event-loop stalls, and when each row finishes, while 100 CVs (one of them a scan) are imported.

A 5 ms heartbeat timer runs on the GUI thread; every gap between its ticks is a stall
(how long the GUI could not repaint or take input). Prints the longest gap and the p99
for the warm-up (index, models, assistant opened in a worker) and for the import, the
import's total seconds, and per-row finish times (seconds after the import started): the
scanned CV's row, the median / p95 / max of the other rows and the last non-scan row — so
one can see whether the scan (read by OCR) delays the files behind it. This is a
measurement, not a pass/fail test: timings depend on how busy the machine is (the suite's
test keeps only a ceiling that a real freeze breaks, ``tests/ui/importing/test_ui_import_stall.py``).

The CVs come from ``cvrag generate --count N --seed 5 --layout mixed --locale mixed --no-llm``;
one generated PDF (the 10th) is replaced by an image-only rendering of itself (a scan).

    QT_QPA_PLATFORM=offscreen python benchmarks/gui_stall.py [--count 100] [--runs 3] [--cvs DIR] [--why]

``--why`` samples every 10 ms, from a side thread, where the GUI thread is while its heartbeat
is late (> 100 ms), and where the other threads are when the sampler itself woke late (a
thread held the GIL); it prints the most frequent stacks of each after the run.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
TARGET_MS = 250.0
SCAN_TAG = "-scan"


def wait_until(app, predicate, timeout_s: float) -> None:
    """Process events until ``predicate()`` or the timeout."""
    end = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > end:
            raise TimeoutError("condition not met in time")
        app.processEvents()
        time.sleep(0.002)


def make_scan(pdf: Path, dest: Path, dpi: int = 150) -> Path:
    """An image-only copy of ``pdf`` (every page rendered to a picture, no text layer)."""
    import pymupdf

    with pymupdf.open(pdf) as src, pymupdf.open() as out:
        for page in src:
            pix = page.get_pixmap(dpi=dpi)
            new = out.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, stream=pix.tobytes("png"))
        out.save(dest)
    return dest


def prepare_cvs(count: int, folder: Path | None) -> Path:
    """Generate ``count`` CVs (unless ``folder`` already holds them) and turn the 10th PDF into a scan."""
    cvs = folder or Path(tempfile.mkdtemp(prefix="cvrag-stall-cvs-"))
    if not any(cvs.glob("*.pdf")):
        cli = Path(sys.executable).with_name("cvrag")
        subprocess.run([str(cli), "generate", "--count", str(count), "--seed", "5", "--layout", "mixed",
                        "--locale", "mixed", "--out", str(cvs), "--no-llm"], check=True, stdout=subprocess.DEVNULL)
    if not any(SCAN_TAG in p.name for p in cvs.glob("*.pdf")):
        pdfs = sorted(cvs.glob("*.pdf"))
        victim = pdfs[min(9, len(pdfs) - 1)]
        make_scan(victim, victim.with_name(victim.stem + SCAN_TAG + ".pdf"))
        victim.unlink()
    return cvs


class StallSampler(threading.Thread):
    """Counts the GUI thread's stacks during late heartbeats, and the other threads' when the GIL was held."""

    def __init__(self, last_beat: list[float], late_ms: float = 100.0) -> None:
        super().__init__(daemon=True)
        self.last_beat, self.late_ms = last_beat, late_ms
        self.main = threading.main_thread().ident
        self.gui: collections.Counter[str] = collections.Counter()
        self.gil: collections.Counter[str] = collections.Counter()
        self.halt = threading.Event()

    @staticmethod
    def _where(frame, depth: int = 7) -> str:
        picked = [f for f in traceback.extract_stack(frame) if "gui_stall" not in f.filename][-depth:]
        return " < ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(picked))

    def run(self) -> None:
        """Sample until halted."""
        while not self.halt.is_set():
            t = time.perf_counter()
            time.sleep(0.01)
            now = time.perf_counter()
            frames = sys._current_frames()
            if (now - self.last_beat[0]) * 1000 > self.late_ms and self.main in frames:
                self.gui[self._where(frames[self.main])] += 1
            if (now - t) * 1000 > 60:  # this thread could not run: someone held the GIL
                for ident, frame in frames.items():
                    if ident not in (self.ident, self.main):
                        self.gil[self._where(frame, 4)] += 1

    def report(self) -> None:
        """Print the most frequent stacks (10 ms samples)."""
        for title, counter in (("GUI thread while its heartbeat was late", self.gui),
                               ("other threads when the sampler woke > 60 ms late", self.gil)):
            print(f"\n{title} (samples of ~10 ms):")
            for where, n in counter.most_common(12):
                print(f"{n:>6}  {where}")


def one_run(app, cvs: Path, why: bool = False, screening_ms: int = 0) -> dict:
    """Open a window on a fresh home, warm it up, import ``cvs``; stalls of both phases, row finish times.

    ``screening_ms``: during the import, every so many ms a recruiter's screening action (status,
    rating, tag: each audited) goes through the candidates pane's own path on a listed person."""
    from PySide6.QtCore import QTimer

    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.ui.shell.main_window import MainWindow

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
    svc = App()
    win = MainWindow(svc)
    win.show()
    last[0] = time.perf_counter()
    timer.start()
    sampler = StallSampler(last) if why else None
    if sampler is not None:  # both phases: warm-up and import
        sampler.start()
    win.start()
    wait_until(app, lambda: win.warm is not None and not win.runner.busy("status"), 180)
    warm = sorted(gaps)
    gaps.clear()
    win.show_pane(1)
    finished: dict[str, tuple[float, str]] = {}
    t0 = time.perf_counter()
    pane = win.importer
    real_on_item = pane._on_item

    def on_item(obj) -> None:  # the pane looks ``_on_item`` up when the import starts
        status = getattr(obj, "status", None)
        if status is not None and status != "processing":
            finished[obj.path] = (time.perf_counter() - t0, status)
        real_on_item(obj)

    pane._on_item = on_item
    actions = [0]
    changes = ({"status": "screening"}, {"rating": 4}, {"add_tags": ["stall-bench"]}, {"status": "interview"})

    def screen_one() -> None:  # what a click in the screening editor does (a worker writes catalog + audit)
        ids = win.candidates.model.ids
        if ids:
            win.candidates._set_screening([ids[actions[0] % len(ids)]], changes[actions[0] % len(changes)], "")
            actions[0] += 1

    screener = QTimer()
    screener.setInterval(max(1, screening_ms))
    screener.timeout.connect(screen_one)
    if screening_ms:
        screener.start()
    pane.import_paths([cvs])
    wait_until(app, lambda: pane.last_report is not None and not win.runner.busy("import"), 900)
    seconds = time.perf_counter() - t0
    screener.stop()
    timer.stop()
    if sampler is not None:
        sampler.halt.set()
        sampler.join()
        sampler.report()
    imp = sorted(gaps)
    win.close()
    win.runner.wait(20_000)
    svc.close()

    def p99(s: list[float]) -> float:
        return s[max(0, int(len(s) * 0.99) - 1)] if s else 0.0

    scan = [(t, st) for p, (t, st) in finished.items() if SCAN_TAG in p]
    others = sorted(t for p, (t, _st) in finished.items() if SCAN_TAG not in p)
    return {"warm_max": warm[-1] if warm else 0.0, "warm_p99": p99(warm), "import_max": imp[-1] if imp else 0.0,
            "import_p99": p99(imp), "seconds": seconds, "beats": len(imp),
            "scan_s": scan[0][0] if scan else float("nan"), "scan_status": scan[0][1] if scan else "-",
            "rows": len(finished), "actions": actions[0],
            "other_median": statistics.median(others) if others else float("nan"),
            "other_p95": others[max(0, int(len(others) * 0.95) - 1)] if others else float("nan"),
            "other_max": others[-1] if others else float("nan")}


COLS = (("warm_max", "warm max ms"), ("warm_p99", "warm p99"), ("import_max", "import max ms"),
        ("import_p99", "import p99"), ("seconds", "import s"), ("scan_s", "scan row s"),
        ("other_median", "others med s"), ("other_p95", "others p95 s"), ("other_max", "last non-scan s"))


def main() -> None:
    """Print one row per run, then the medians."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--cvs", type=Path, default=None, help="reuse (or create) the CV folder here")
    ap.add_argument("--why", action="store_true", help="sample the stacks behind late heartbeats")
    ap.add_argument("--screening-ms", type=int, default=0,
                    help="during the import, one audited screening action every N ms (0: none)")
    args = ap.parse_args()
    from PySide6.QtWidgets import QApplication

    import cvrag_desktop

    app = QApplication.instance() or QApplication([])
    cvs = prepare_cvs(args.count, args.cvs)
    print(f"code: {Path(cvrag_desktop.__file__).parent}; {len(list(cvs.glob('*.pdf')))} PDFs "
          f"(one scan) in {cvs}; target {TARGET_MS:.0f} ms, {os.cpu_count()} CPUs")
    print(f"{'run':>4} " + " ".join(f"{title:>{max(9, len(title))}}" for _k, title in COLS) + "  scan status, rows")
    runs = []
    for i in range(args.runs):
        r = one_run(app, cvs, args.why, args.screening_ms)
        runs.append(r)
        print(f"{i + 1:>4} " + " ".join(f"{r[k]:>{max(9, len(t))}.1f}" for k, t in COLS)
              + f"  {r['scan_status']}, {r['rows']}, {r['actions']} screening actions", flush=True)
    if len(runs) > 1:
        print(f"{'med':>4} " + " ".join(f"{statistics.median(r[k] for r in runs):>{max(9, len(t))}.1f}"
                                        for k, t in COLS))


if __name__ == "__main__":
    main()
