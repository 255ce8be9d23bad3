"""What the Import pane says while a batch runs: files done, an ETA that counts the files still
running, and which files are running and for how long (Qt-free).

The pipeline reports each finished file (with its parse time) and marks a file
``processing`` in the catalog when a worker takes it; the pane polls those marks in a
worker. The ETA simulates the worker lanes: each running file keeps its lane for the rest of
the mean parse time (see :func:`remaining` for files already slower than the mean), the
queued files then fill the earliest free lanes. A file far slower than the others (a scan
being read by OCR) is named, so a long wait never looks like a hang.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field

SLOW_FACTOR, SLOW_MIN_S = 3.0, 20.0
OCR_PAGE_GUESS_S = 15.0  # seconds per OCR page until one has been timed in this batch
SHOWN_RUNNING = 2


def format_eta(seconds: float | None) -> str:
    """``m:ss`` (or ``h:mm:ss``) for the remaining time; empty when unknown."""
    if seconds is None or seconds != seconds or seconds < 0:
        return ""
    s = round(seconds)
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def remaining(mean: float, elapsed: float) -> float:
    """Seconds a running file still needs: the rest of the mean, never less than a quarter of it,
    and half its overrun once it runs longer than the mean (the longer a scan takes, the longer
    it is likely to take: the estimate grows instead of sitting at a few seconds)."""
    return max(mean - elapsed, 0.25 * mean, 0.5 * (elapsed - mean))


def lane_eta(mean: float, workers: int, queued: int, running_elapsed: list[float]) -> float:
    """Seconds until the last file is done: running files first, then the queue over the free lanes."""
    lanes = [remaining(mean, e) for e in running_elapsed][:max(1, workers)]
    lanes += [0.0] * (max(1, workers) - len(lanes))
    heapq.heapify(lanes)
    for _ in range(queued):
        heapq.heappush(lanes, heapq.heappop(lanes) + mean)
    return max(lanes) if (queued or running_elapsed) else 0.0


def file_name(path: str) -> str:
    """The last part of a path (either separator)."""
    return path.replace("\\", "/").rsplit("/", 1)[-1]


@dataclass
class ImportProgress:
    """Per-batch bookkeeping behind the progress line."""

    workers: int = 1
    durations: list[float] = field(default_factory=list)
    running: dict[str, float] = field(default_factory=dict)  # path -> start (epoch seconds)
    ocr: dict[str, list] = field(default_factory=dict)  # OCR lane: path -> [page, pages, page started]
    ocr_page_s: list[float] = field(default_factory=list)  # timed OCR pages of this batch
    ocr_files: set[str] = field(default_factory=set)  # files that went through the OCR lane

    def file_done(self, path: str, seconds: float | None) -> None:
        """A file finished (any outcome); parse times of text files feed the mean (scans have their own lane)."""
        self.running.pop(path, None)
        state = self.ocr.pop(path, None)
        if state and state[0] and state[2] is not None:
            self.ocr_page_s.append(max(0.0, time.time() - state[2]))
        if seconds and path not in self.ocr_files:
            self.durations.append(float(seconds))

    def set_phase(self, path: str, phase: str, step: int | None = None, steps: int | None = None,
                  now: float | None = None) -> None:
        """A pipeline phase event: reading (a parse lane), ocr_wait / ocr n/m (the OCR lane), indexing."""
        now = time.time() if now is None else now
        if phase == "reading":
            self.running.setdefault(path, now)
        elif phase in ("ocr_wait", "ocr"):
            self.running.pop(path, None)
            self.ocr_files.add(path)
            state = self.ocr.setdefault(path, [None, steps, None])
            if step and step != state[0]:
                if state[0] and state[2] is not None:
                    self.ocr_page_s.append(max(0.0, now - state[2]))
                state[0], state[2] = step, now
            if steps:
                state[1] = steps
        elif phase == "indexing":
            self.running.pop(path, None)
            self.ocr.pop(path, None)

    def ocr_eta(self, now: float | None = None) -> float:
        """Seconds the OCR lane still needs: the remaining pages of the scan being read, then those waiting."""
        now = time.time() if now is None else now
        per_page = sum(self.ocr_page_s) / len(self.ocr_page_s) if self.ocr_page_s else OCR_PAGE_GUESS_S
        total = 0.0
        for page, pages, started in self.ocr.values():
            pages = pages or 1
            if page:
                total += max(0.25 * per_page, per_page - (now - (started or now))) + (pages - page) * per_page
            else:
                total += pages * per_page
        return total

    def set_running(self, started: dict[str, float]) -> None:
        """The files a worker holds now (from the catalog's ``processing`` marks; OCR-lane files excluded)."""
        self.running = {p: t for p, t in started.items() if p not in self.ocr}

    def eta(self, total: int, done: int, now: float | None = None) -> float | None:
        """Seconds left, or None while no file has finished yet."""
        if done >= total or not (self.durations or self.ocr):
            return None
        now = time.time() if now is None else now
        ocr_left = self.ocr_eta(now)
        if not self.durations:
            return ocr_left if total - done == len(self.ocr) else None
        mean = sum(self.durations) / len(self.durations)
        elapsed = [max(0.0, now - t) for p, t in self.running.items() if p not in self.ocr]
        queued = max(0, total - done - len(elapsed) - len(self.ocr))
        return max(lane_eta(mean, self.workers, queued, elapsed), ocr_left)

    def slow_files(self, now: float | None = None) -> list[tuple[str, float]]:
        """Running files far slower than the mean: (name, seconds so far)."""
        if not self.durations:
            return []
        now = time.time() if now is None else now
        mean = sum(self.durations) / len(self.durations)
        return [(file_name(p), now - t) for p, t in self.running.items()
                if now - t > max(SLOW_MIN_S, SLOW_FACTOR * mean)]

    def text(self, done: int, total: int, now: float | None = None) -> str:
        """"15 / 17 files · about 0:40 left · reading a.pdf (0:05), scan.pdf (2:10: slow, maybe a scan)"."""
        now = time.time() if now is None else now
        out = f"{done} / {total} files"
        eta = self.eta(total, done, now)
        if eta is not None:
            out += f" · about {format_eta(eta)} left"
        elif done < total:
            out += " · estimating the time left…"
        slow = {name for name, _s in self.slow_files(now)}
        running = sorted(self.running.items(), key=lambda kv: kv[1])[:SHOWN_RUNNING]
        if running:
            parts = []
            for path, t in running:
                name = file_name(path)
                note = ": slow, maybe a scan being read by OCR" if name in slow else ""
                parts.append(f"{name} ({format_eta(now - t)}{note})")
            more = len(self.running) - len(running)
            out += " · reading " + ", ".join(parts) + (f" and {more} more" if more > 0 else "")
        for path, (page, pages, _t) in list(self.ocr.items())[:SHOWN_RUNNING]:
            out += f" · OCR {file_name(path)} " + (f"page {page}/{pages}" if page and pages else "waiting")
        return out
