"""One memory budget for the import's whole process tree: parent + parse workers + OCR worker.

``max_worker_mb`` capped each worker alone, so a mixed batch reached 1.8–2.3 GB (parent
~530 MB, the OCR worker ~0.9–1.1 GB, two parse workers ~300 MB each) against a 1.5 GB goal
for the app. Here one configured total (``limits.memory_budget_mb``, default 1536) is split
before a batch starts:

1. the parent keeps what it uses now plus room to grow while it embeds (``PARENT_GROWTH_MB``),
   at least ``PARENT_MIN_MB``;
2. the OCR worker (it may start whenever a scan turns up) gets at least ``OCR_MIN_MB`` — and
   its page render is sized to its cap: a render of *p* megapixels peaks at about
   ``OCR_BASE_MB + OCR_MB_PER_MEGAPIXEL × p`` resident, and the cap keeps ``OCR_HEADROOM`` above
   that (RapidOCR peaks vary from run to run: one scan at 1 MP, one thread, 655–738 MB). The same page read at
   1 MP gave 79 of its 80 lines, with the same text. ONNX Runtime reserves address space far
   beyond what it touches, so the OCR worker's ``RLIMIT_AS`` gets ``OCR_ADDRESS_SLACK_MB`` more
   than its cap (a tight one failed inside ONNX Runtime at random), a parse worker's
   ``PARSE_ADDRESS_SLACK_MB`` (glibc's per-thread arenas: good CVs failed at a 366 MB limit with
   a resident size near 200 MB); the *resident* size is held to the cap by the parent's RSS
   watch (polled every 50 ms). Below ``OCR_ALL_THREADS_MB`` ONNX Runtime runs one thread (each
   thread keeps its own buffers: a two-page scan at 1 MP peaked at 780 MB with every core,
   605 MB with one, 1.8× slower);
3. the parse workers share the rest, each at least ``PARSE_MIN_MB``: when the rest cannot hold
   the requested number, fewer workers run (never fewer than one).

Every cap is also at most ``max_worker_mb``. The caps are enforced as before (``RLIMIT_AS``
and the parent's RSS watch, :mod:`.sandbox`), so the tree's resident total stays within
parent + the caps' sum. When the budget is too small for even the minimums, the minimums
are used (and the plan says so): a worker that cannot start is worse than a budget passed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from cvrag_desktop.ingestion.read.sandbox_worker import rss_mb

PARENT_MIN_MB = 450
PARENT_GROWTH_MB = 150
PARSE_MIN_MB = 256
# RapidOCR's peak at a render of p MP, one thread, worst of 6-8 runs on one scan: 1 MP 655-738 MB,
# 3.25 MP 875-1,033 MB (it varies run to run with the allocator): base + slope x p, and a cap
# holds the worst run times OCR_HEADROOM. A 720 MB cap failed one run in seven (CI, 738 MB).
OCR_BASE_MB = 610
OCR_MB_PER_MEGAPIXEL = 135
OCR_HEADROOM = 1.1
OCR_MIN_MB = int(OCR_HEADROOM * (OCR_BASE_MB + OCR_MB_PER_MEGAPIXEL))  # a 1 MP render with headroom: 819
OCR_ADDRESS_SLACK_MB = 512
PARSE_ADDRESS_SLACK_MB = 256
OCR_ALL_THREADS_MB = 1000  # below this OCR cap, ONNX Runtime runs one thread (measured: -175 MB, 1.8x slower)
WEAR_SHARE = 0.5  # a worker whose leftover RSS takes this share of the room it had when ready is restarted
MIN_OCR_PIXELS = 1_000_000
MAX_OCR_PIXELS = 12_000_000


@dataclass(frozen=True)
class MemoryPlan:
    """How the budget is split for one batch."""

    total_mb: int
    parent_mb: int
    workers: int
    parse_cap_mb: int
    ocr_cap_mb: int
    ocr_max_pixels: int
    ocr_threads: int | None = None
    note: str = ""

    def as_dict(self) -> dict:
        """For logs, ``cvrag doctor`` and the benchmark."""
        return dict(self.__dict__)


def parent_rss_mb() -> float:
    """This process's resident size now (MB)."""
    return rss_mb(os.getpid()) or 0.0


def ocr_pixels_for(cap_mb: int) -> int:
    """The largest OCR render (pixels) whose measured peak fits ``cap_mb``."""
    megapixels = (cap_mb / OCR_HEADROOM - OCR_BASE_MB) / OCR_MB_PER_MEGAPIXEL
    return int(min(MAX_OCR_PIXELS, max(MIN_OCR_PIXELS, megapixels * 1_000_000)))


def plan_memory(total_mb: int, workers: int, max_worker_mb: int, parent_now_mb: float | None = None) -> MemoryPlan:
    """Split ``total_mb`` between the parent, ``workers`` parse workers (maybe fewer) and the OCR worker."""
    now = parent_rss_mb() if parent_now_mb is None else parent_now_mb
    parent = int(max(PARENT_MIN_MB, now + PARENT_GROWTH_MB))
    rest = total_mb - parent
    ocr = min(max_worker_mb, max(OCR_MIN_MB, rest // 3))
    room = rest - ocr
    fit = max(1, min(workers, room // PARSE_MIN_MB if room > 0 else 1))
    parse = min(max_worker_mb, max(PARSE_MIN_MB, room // fit if room > 0 else PARSE_MIN_MB))
    note = ""
    if fit < workers:
        note = f"{fit} parse worker(s) instead of {workers}: the {total_mb} MB memory budget holds no more"
    if parent + ocr + fit * parse > total_mb:
        note = (f"the {total_mb} MB memory budget is below the minimum for this import "
                f"({parent + ocr + fit * parse} MB: parent {parent}, OCR {ocr}, parse {fit} × {parse})")
    threads = 1 if ocr < OCR_ALL_THREADS_MB else None
    return MemoryPlan(total_mb, parent, fit, int(parse), int(ocr), ocr_pixels_for(int(ocr)), threads, note)


def worn_out(rss_now_mb: float | None, ready_mb: float, cap_mb: int) -> bool:
    """Whether a worker that just finished a file should be restarted before the next one.

    A worker that said ready at ``ready_mb`` had ``cap_mb - ready_mb`` of room for a file; what a
    file leaves resident (allocator caches, ONNX Runtime's arenas) shrinks the next file's room.
    Once the leftover takes :data:`WEAR_SHARE` of that room, a fresh worker is cheaper than a good
    file failing at its cap (the OCR worker: ready ~150 MB, ~620 MB after three scans, cap ~820 MB).
    """
    if rss_now_mb is None or cap_mb <= ready_mb:
        return False
    return rss_now_mb - ready_mb > WEAR_SHARE * (cap_mb - ready_mb)
