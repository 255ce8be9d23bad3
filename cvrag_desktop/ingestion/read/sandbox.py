"""Sandboxed parse workers: a memory cap inside, a wall-clock deadline from outside, an OCR lane.

Every parse (PDF, DOCX, OCR) runs in a spawned worker process that parses one file at
a time (the next one is already sent, so it never waits for the parent between files).
Workers belong to a **lane**:

* the ``parse`` lane: ``workers`` processes, started lazily and kept for the session;
* the ``ocr`` lane: one process, started only when a file needs OCR and stopped at the end
  of the batch (it holds the OCR engine's memory). A parse worker that finds image-only
  pages does not OCR them: its result says ``{"defer": "ocr", "args": ...}`` and the job
  waits for the OCR worker, while the parse lane goes on with the other files (one scan
  no longer holds a parse worker for a minute while the files behind it wait). The OCR
  worker takes one file at a time, the one with the fewest pages to OCR first (a long scan
  waits behind the CVs; each file's OCR is bounded by ``max_ocr_pages``, ingestion/read/ocr_pages.py).

The parent supervises each worker, whatever its lane:

* **deadline** — a file that is not finished ``max_seconds`` after the worker started it
  (``max_ocr_seconds`` more once it announces OCR) gets its worker killed (SIGKILL, from outside: a parser stuck inside C code cannot
  ignore it); the file is marked ``too_large`` naming the limit, and a fresh worker
  takes its place;
* **memory** — on Linux the worker caps its own address space (``RLIMIT_AS``) so that
  its resident size cannot pass ``max_worker_mb``; an allocation beyond it fails inside
  the worker (MemoryError / MuPDF "malloc failed"), the file is marked ``too_large`` and
  the worker is recycled. On every platform the parent also polls each worker's RSS and
  kills a worker that passes the cap (the only guard on macOS, where ``RLIMIT_AS`` is
  accepted but not enforced, and on Windows, which has no ``setrlimit``; a Job Object
  would be the stronger guard there and is not implemented);
* **crash** — a worker that dies (segfault, OOM killer) costs only the file it held;
* **wear** — the OCR worker keeps much of what a scan allocates (147 MB ready, 622 MB after three
  scans), so it is restarted between files once that leftover takes half its room (``budget.worn_out``).

Each result carries ``peak_rss_mb``: the worker's peak resident size while it parsed
that file (Linux resets the high-water mark per file through ``/proc/self/clear_refs``).
The worker's side (cap, messages, loop) is :mod:`cvrag_desktop.ingestion.read.sandbox_worker`.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import wait

from cvrag_desktop.errors import WorkerStartFailed
from cvrag_desktop.ingestion.read.budget import OCR_ADDRESS_SLACK_MB, PARSE_ADDRESS_SLACK_MB, worn_out
from cvrag_desktop.ingestion.read.ocr import get_engine, set_max_pixels
from cvrag_desktop.ingestion.read.sandbox_worker import DEFER_KEY, announce, rebase_memory_cap, worker_main
from cvrag_desktop.ingestion.read.sandbox_worker import rss_mb as _rss_mb

__all__ = ["OCR", "PARSE", "ParseSandbox", "announce", "rebase_memory_cap", "shared_sandbox"]
log = logging.getLogger(__name__)
POLL_S = 0.05
MAX_FAILED_STARTS = 8  # consecutive workers that die before saying ready (with a growing pause)
PARSE, OCR = "parse", "ocr"
PhaseCallback = Callable[[object, str, "int | None", "int | None"], None]


@dataclass
class _Slot:
    proc: multiprocessing.Process
    conn: object
    lane: str = PARSE
    job: object = None  # the job the worker is running (or was sent first)
    started: float = 0.0
    peak_mb: float = 0.0
    ready: bool = False
    ready_mb: float = 0.0  # its RSS when it said ready (the wear check's baseline)
    extra_s: float = 0.0  # time granted by an announced phase (OCR)
    running: bool = False  # the worker said it started ``job``
    args: tuple = ()  # ``job``'s arguments (to give it back if the worker dies before starting it)
    queued: list = field(default_factory=list)  # (job, args) sent ahead, so the worker never waits for us
    shown: tuple = ()  # the last phase reported for ``job`` (repeats are not reported)

    def hold(self, job, args) -> None:
        """Make ``job`` the worker's current job (its clock restarts at the worker's "start")."""
        self.job, self.args, self.started, self.peak_mb, self.extra_s, self.running, self.shown = \
            job, args, time.monotonic(), 0.0, 0.0, False, ()


class ParseSandbox:
    """Supervised worker processes in two lanes, parse and OCR (see the module docstring)."""

    start_pause_s = 0.25  # pause after the n-th worker in a row died at start: n x this (max 2 s)
    ocr_workers = 1

    def __init__(self, workers: int, cap_mb: int, target: Callable[..., dict],
                 warm: Callable[[], None] | None = None, *, ocr_cap_mb: int | None = None,
                 ocr_pixels: int | None = None, ocr_threads: int | None = None) -> None:
        self.workers = max(1, workers)
        self.cap_mb = cap_mb
        self.ocr_cap_mb = ocr_cap_mb or cap_mb  # the OCR worker's own cap (ingestion/read/budget.py)
        self.ocr_pixels = ocr_pixels  # its page renders sized to that cap
        self.ocr_threads = ocr_threads
        self.target = target
        self.warm = warm
        self._ctx = multiprocessing.get_context("spawn")
        self._slots: list[_Slot] = []
        self._lock = threading.Lock()  # one batch at a time (a GUI import and a resume may overlap)
        self.restarts = 0

    def _cap(self, lane: str) -> int:
        return self.ocr_cap_mb if lane == OCR else self.cap_mb

    def _spawn(self, lane: str = PARSE) -> _Slot:
        parent, child = self._ctx.Pipe(duplex=True)
        warm = self.warm if self.ocr_pixels is None else \
            functools.partial(_warm_sized, self.ocr_pixels, self.warm, lane == OCR, self.ocr_threads)
        # under a memory budget the address-space limit leaves room for reserves that are never touched
        # (glibc's thread arenas, ONNX Runtime's; budget.py); the resident size is held to the cap by the RSS watch
        slack = 0 if self.ocr_pixels is None else (OCR_ADDRESS_SLACK_MB if lane == OCR else PARSE_ADDRESS_SLACK_MB)
        cap = self._cap(lane) + slack
        proc = self._ctx.Process(target=worker_main, args=(child, cap, self.target, warm),
                                 daemon=True, name=f"cvrag-{lane}")
        proc.start()
        child.close()
        return _Slot(proc, parent, lane)

    def _kill(self, slot: _Slot) -> None:
        with contextlib.suppress(Exception):
            slot.proc.kill()
        slot.proc.join(5)
        with contextlib.suppress(Exception):
            slot.conn.close()

    def _replace(self, slot: _Slot) -> None:
        """Kill a worker; a parse worker gets a successor now, the OCR lane respawns when it has work."""
        self._kill(slot)
        self.restarts += 1
        if slot.lane == PARSE:
            self._slots[self._slots.index(slot)] = self._spawn(PARSE)
        else:
            self._slots.remove(slot)

    def _retire(self, slot: _Slot) -> None:
        """Stop an idle worker politely (then by force) and forget it."""
        with contextlib.suppress(Exception):
            slot.conn.send(None)
        slot.proc.join(0.5)
        self._kill(slot)
        self._slots.remove(slot)

    def run(self, jobs: Iterable[tuple[object, tuple]], deadline_s: float,
            on_result: Callable[[object, dict], None], should_cancel: Callable[[], bool] | None = None,
            on_start: Callable[[object], None] | None = None,
            phase_s: dict[str, float] | None = None, on_phase: PhaseCallback | None = None) -> list[object]:
        """Run ``target(*args)`` for every ``(job, args)``; ``on_result(job, result)`` on this thread.

        Each job has ``deadline_s`` from the moment a warm worker starts it, plus
        ``phase_s[phase]`` once the worker announces that phase. A failed job gets a result
        dict with ``ok=False`` and a ``limit`` key (``deadline``, ``memory`` or ``crash``).
        A result ``{"defer": "ocr", "args": a}`` from a parse worker is not a result: the job
        is run again as ``target(*a)`` on the OCR lane. ``on_phase(job, phase, n, m)`` tells what a job
        is doing: ``reading`` (a parse worker started it), ``ocr_wait`` (m = pages to OCR), ``ocr`` (n/m =
        the page being read) and any phase a worker announces. Returns the jobs not started, waiting for
        the OCR lane, or killed because of cancellation.
        """
        with self._lock:
            try:
                return self._run(list(jobs), deadline_s, on_result, should_cancel, on_start, phase_s or {},
                                 on_phase)
            finally:  # workers still busy with this batch must not leak into the next; OCR holds memory
                for slot in list(self._slots):
                    if slot.job is not None:
                        slot.job, slot.queued = None, []
                        self._replace(slot)
                    elif slot.lane == OCR:
                        self._retire(slot)

    def _dispatch(self, queues: dict[str, list], on_start) -> None:
        """Keep each ready parse worker holding its current job plus one sent ahead (no idle round trip);
        the OCR worker (started when its lane has work) takes one job at a time."""
        if queues[OCR] and sum(s.lane == OCR for s in self._slots) < self.ocr_workers:
            self._slots.append(self._spawn(OCR))
        for slot in list(self._slots):
            queue, ahead = queues[slot.lane], slot.lane == PARSE
            while slot.ready and queue and (slot.job is None or (ahead and not slot.queued)):
                job, args = queue.pop()
                try:
                    slot.conn.send(args)
                except (OSError, ValueError):  # the worker died: give the job back
                    queue.append((job, args))
                    if slot.job is None:  # it held nothing: start another now
                        self._requeue(slot, queue)
                        self._replace(slot)
                    # else the run loop sees the death and reports (or gives back) the job it was running;
                    # replacing the worker here lost that job without a result
                    break
                if on_start and slot.lane == PARSE:
                    on_start(job)
                if slot.job is None:
                    slot.hold(job, args)
                else:
                    slot.queued.append((job, args))

    @staticmethod
    def _requeue(slot: _Slot, queue: list) -> None:
        """Jobs sent ahead to a worker that is going away go back to the front of the queue."""
        for item in reversed(slot.queued):
            queue.append(item)
        slot.queued = []

    @staticmethod
    def _advance(slot: _Slot) -> None:
        """The worker finished its job: the job sent ahead becomes current (its clock starts at "start")."""
        if slot.queued:
            slot.hold(*slot.queued.pop(0))
        else:
            slot.job, slot.running = None, False

    @staticmethod
    def _report(slot: _Slot, on_phase, phase: str, done: int | None = None, total: int | None = None) -> None:
        key = (phase, done, total)
        if on_phase is not None and slot.job is not None and key != slot.shown:
            slot.shown = key
            on_phase(slot.job, phase, done, total)

    def _cancel(self, queues: dict[str, list]) -> list[object]:
        cancelled = [job for queue in queues.values() for job, _args in reversed(queue)]
        for queue in queues.values():
            queue.clear()
        for slot in list(self._slots):
            if slot.job is not None:
                cancelled.append(slot.job)
                cancelled.extend(job for job, _args in slot.queued)
                slot.job, slot.queued = None, []
                self._replace(slot)
        return cancelled

    def _run(self, queue, deadline_s, on_result, should_cancel, on_start, phase_s, on_phase) -> list[object]:
        queue.reverse()
        queues: dict[str, list] = {PARSE: queue, OCR: []}  # popped from the end
        ocr_pages: dict[int, int] = {}  # id(job) -> pages to OCR, for the jobs waiting on the OCR lane
        while sum(s.lane == PARSE for s in self._slots) < min(self.workers, len(queue)):
            self._slots.append(self._spawn(PARSE))  # started lazily, kept for the session
        failed_starts = 0
        while True:
            if should_cancel and should_cancel():
                return self._cancel(queues)
            self._dispatch(queues, on_start)
            if not any(queues.values()) and all(s.job is None for s in self._slots):
                return []
            watched = [s for s in self._slots if s.job is not None or not s.ready]
            ready = wait([s.conn for s in watched] + [s.proc.sentinel for s in watched], timeout=POLL_S)
            now = time.monotonic()
            for slot in watched:
                result = None
                if slot.conn in ready:
                    try:
                        result = slot.conn.recv()
                    except (EOFError, OSError):
                        result = None
                if isinstance(result, tuple):  # ("ready",), ("start",), ("phase", name), ("progress", name, n, m)
                    if result[0] == "ready":
                        slot.ready, slot.ready_mb, failed_starts = True, _rss_mb(slot.proc.pid) or 0.0, 0
                    elif result[0] == "start" and slot.job is not None:
                        slot.running, slot.started = True, now
                        self._report(slot, on_phase, "reading" if slot.lane == PARSE else OCR)
                    elif result[0] == "phase" and slot.job is not None:
                        slot.extra_s = max(slot.extra_s, phase_s.get(result[1], 0.0))
                        self._report(slot, on_phase, result[1])
                    elif result[0] == "progress" and slot.job is not None and len(result) == 4:
                        self._report(slot, on_phase, *result[1:])
                    continue
                dead = result is None and (slot.proc.sentinel in ready or not slot.proc.is_alive())
                if slot.job is None or (dead and not slot.running):  # died before it took a job
                    if dead or slot.proc.sentinel in ready:
                        failed_starts += 1
                        if failed_starts > MAX_FAILED_STARTS:
                            raise WorkerStartFailed(
                                f"The parse workers keep stopping before they can read a file (exit code "
                                f"{slot.proc.exitcode}). The machine may be short of memory or processes; "
                                "close other programs and import again — nothing was lost.")
                        time.sleep(min(2.0, self.start_pause_s * failed_starts))  # a busy machine: give it a moment
                        if slot.job is not None:  # not its fault: the job and those sent ahead go back
                            self._requeue(slot, queues[slot.lane])
                            queues[slot.lane].append((slot.job, slot.args))
                            slot.job = None
                        self._replace(slot)
                    continue
                if dead:
                    slot.proc.join(1)
                    result = {"ok": False, "status": "failed", "limit": "crash", "exitcode": slot.proc.exitcode,
                              "seconds": now - slot.started, "peak_rss_mb": slot.peak_mb}
                if result is None:
                    result = self._check_limits(slot, now, deadline_s)
                    if result is None:
                        continue
                job = slot.job
                if result.get(DEFER_KEY) is not None and "limit" not in result:
                    if result[DEFER_KEY] == OCR and slot.lane == PARSE and result.get("args"):
                        self._advance(slot)  # the parse worker is free: it takes its next file now
                        _enqueue_fewest_pages(queues[OCR], (job, tuple(result["args"])), result.get("pages"),
                                              ocr_pages)
                        if on_phase is not None:
                            on_phase(job, "ocr_wait", None, result.get("pages"))
                        continue
                    result = {"ok": False, "status": "failed", "seconds": result.get("seconds", 0.0),
                              "error": "The file could not be handed to the OCR worker.",
                              "peak_rss_mb": result.get("peak_rss_mb")}
                if result.get("memory") and "limit" not in result:
                    result["limit"] = "memory"
                    result.setdefault("cap_mb", self._cap(slot.lane))
                if "limit" in result or not slot.proc.is_alive() or (slot.lane == OCR and worn_out(
                        _rss_mb(slot.proc.pid), slot.ready_mb, self._cap(OCR))):  # respawned for the next scan
                    slot.job = None
                    self._requeue(slot, queues[slot.lane])
                    self._replace(slot)
                else:
                    self._advance(slot)
                on_result(job, result)

    def _check_limits(self, slot: _Slot, now: float, deadline_s: float) -> dict | None:
        """A failed result when the worker passed its memory cap or its deadline, else None."""
        rss = _rss_mb(slot.proc.pid)
        if rss is not None and slot.running:
            slot.peak_mb = max(slot.peak_mb, rss)
        if rss is not None and rss > self._cap(slot.lane):
            return {"ok": False, "status": "too_large", "limit": "memory", "cap_mb": self._cap(slot.lane),
                    "seconds": now - slot.started, "peak_rss_mb": round(rss, 1)}
        if now - slot.started > deadline_s + slot.extra_s:
            return {"ok": False, "status": "too_large", "limit": "deadline", "seconds": now - slot.started,
                    "peak_rss_mb": round(slot.peak_mb, 1), "allowed_s": deadline_s + slot.extra_s}
        return None

    def close(self) -> None:
        """Stop the workers (politely, then by force)."""
        for slot in self._slots:
            with contextlib.suppress(Exception):
                slot.conn.send(None)
        for slot in self._slots:
            slot.proc.join(0.5)
            self._kill(slot)
        self._slots.clear()


def _enqueue_fewest_pages(queue: list, item: tuple, pages: int | None, sizes: dict[int, int]) -> None:
    """Queue a job for the OCR lane so that the scan with the fewest pages to OCR goes first (equal
    ones in arrival order): a long scan no longer holds the one OCR worker while CVs wait behind it.

    ``queue`` is popped from its end, so it is kept in decreasing page order; ``sizes`` maps
    ``id(job)`` to pages for the jobs in the queue (they are alive there, so their ids are unique).
    """
    live = {id(job) for job, _args in queue}
    for key in [k for k in sizes if k not in live]:
        del sizes[key]
    p = int(pages or 0)
    sizes[id(item[0])] = p
    queue.insert(sum(1 for job, _args in queue if sizes.get(id(job), 0) > p), item)


_SANDBOX: dict[str, ParseSandbox] = {}


def _warm_sized(ocr_pixels: int, warm: Callable[[], None] | None, load_ocr: bool = False,
                ocr_threads: int | None = None) -> None:
    """A worker's warm-up with its OCR renders sized to the memory budget.

    The OCR worker also loads its engine here, before its cap is applied: ONNX Runtime maps
    a ~600 MB address-space reserve at load, which a tight cap (RLIMIT_AS) would refuse.
    """
    set_max_pixels(ocr_pixels, ocr_threads)
    if warm is not None:
        warm()
    if load_ocr:
        get_engine()


def shared_sandbox(workers: int, cap_mb: int, target, warm=None, *, ocr_cap_mb: int | None = None,
                   ocr_pixels: int | None = None, ocr_threads: int | None = None) -> ParseSandbox:
    """The session's sandbox (worker start-up is paid once); replaced when its shape changes.

    Only one sandbox lives at a time, so a long session (or a test run) never accumulates
    idle worker processes. The key includes ``CVRAG_DISABLE_OCR`` because workers inherit
    the environment when they start.
    """
    key = (f"{workers}:{cap_mb}:{ocr_cap_mb}:{ocr_pixels}:{ocr_threads}:{os.environ.get('CVRAG_DISABLE_OCR', '')}:"
           f"{target.__module__}.{target.__name__}")
    box = _SANDBOX.get(key)
    if box is None:
        for old in _SANDBOX.values():
            old.close()
        _SANDBOX.clear()
        box = _SANDBOX[key] = ParseSandbox(workers, cap_mb, target, warm, ocr_cap_mb=ocr_cap_mb,
                                           ocr_pixels=ocr_pixels, ocr_threads=ocr_threads)
    return box


@atexit.register
def _close_all() -> None:
    for box in _SANDBOX.values():
        box.close()
    _SANDBOX.clear()
