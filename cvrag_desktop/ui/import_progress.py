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

    def file_done(self, path: str, seconds: float | None) -> None:
        """A file finished (any outcome); parse times feed the mean."""
        self.running.pop(path, None)
        if seconds:
            self.durations.append(float(seconds))

    def set_running(self, started: dict[str, float]) -> None:
        """The files a worker holds now (from the catalog's ``processing`` marks)."""
        self.running = dict(started)

    def eta(self, total: int, done: int, now: float | None = None) -> float | None:
        """Seconds left, or None while no file has finished yet."""
        if not self.durations or done >= total:
            return None
        now = time.time() if now is None else now
        mean = sum(self.durations) / len(self.durations)
        elapsed = [max(0.0, now - t) for t in self.running.values()]
        queued = max(0, total - done - len(elapsed))
        return lane_eta(mean, self.workers, queued, elapsed)

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
        return out
