"""Sandboxed parse workers: a memory cap inside, a wall-clock deadline from outside.

Every parse (PDF, DOCX, OCR) runs in a spawned worker process that parses one file at
a time (the next one is already sent, so it never waits for the parent between files).
The parent supervises each worker:

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
* **crash** — a worker that dies (segfault, OOM killer) costs only the file it held.

Each result carries ``peak_rss_mb``: the worker's peak resident size while it parsed
that file (Linux resets the high-water mark per file through ``/proc/self/clear_refs``).
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import wait

from cvrag_desktop.errors import WorkerStartFailed

log = logging.getLogger(__name__)
POLL_S = 0.05
MAX_FAILED_STARTS = 8  # consecutive workers that die before saying ready (with a growing pause)


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


_CAP_MB: int | None = None  # set in a worker once its cap is applied


def _apply_memory_cap(cap_mb: int) -> None:
    """Cap this process's address space so that its RSS stays under ``cap_mb`` (Linux).

    The limit is the address space already mapped but not resident (shared libraries,
    reserved arenas) plus ``cap_mb``: since RSS <= VmSize <= limit, resident memory cannot
    grow past the cap. Only the soft limit is set, so :func:`rebase_memory_cap` can move it
    after a large library (the OCR engine) maps its own reserve.
    """
    global _CAP_MB
    if not sys.platform.startswith("linux"):
        return  # macOS does not enforce RLIMIT_AS; Windows has none: the parent's RSS watch applies
    import resource

    vm, rss = _status_kb("VmSize"), _status_kb("VmRSS")
    if vm is None or rss is None:
        return
    limit = (vm - rss) * 1024 + cap_mb * 1024 * 1024
    with contextlib.suppress(ValueError, OSError):
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
        _CAP_MB = cap_mb


def rebase_memory_cap() -> None:
    """Re-apply the worker's cap after loading a library that reserves address space (no-op elsewhere)."""
    if _CAP_MB is not None:
        _apply_memory_cap(_CAP_MB)


def _reset_peak() -> None:
    with contextlib.suppress(OSError), open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
        fh.write("5")


def _peak_rss_mb() -> float:
    hwm = _status_kb("VmHWM")
    if hwm is not None:
        return round(hwm / 1024, 1)
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024, 1)


_CONN = None  # the worker's end of its pipe (None outside a worker)


def announce(phase: str) -> None:
    """Tell the supervisor this worker enters a slower phase (``"ocr"``), which has its own time budget."""
    if _CONN is not None:
        with contextlib.suppress(OSError):
            _CONN.send(("phase", phase))


def _worker_main(conn, cap_mb: int, target: Callable[..., dict], warm: Callable[[], None] | None) -> None:
    """Worker loop: say ready, then receive ``args``, run ``target(*args)``, send its result dict."""
    global _CONN
    _CONN = conn
    if warm is not None:
        warm()
    _apply_memory_cap(cap_mb)  # after warming: the cap measures what parsing adds
    conn.send(("ready",))  # the deadline of a file starts when a warm worker has it, not at spawn
    while True:
        try:
            args = conn.recv()
        except (EOFError, OSError):
            return
        if args is None:
            return
        conn.send(("start",))  # the deadline runs from here (the next job may already wait in the pipe)
        _reset_peak()
        try:
            result = target(*args)
        except MemoryError:
            result = {"ok": False, "status": "too_large", "error": None, "memory": True, "seconds": 0.0}
        result["peak_rss_mb"] = _peak_rss_mb()
        try:
            conn.send(result)
        except (OSError, MemoryError):
            return
        if result.get("memory"):
            return  # an allocation failed: the heap may be fragmented; start afresh


def _rss_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)
    except (OSError, ValueError, IndexError):
        pass
    try:
        import psutil

        return psutil.Process(pid).memory_info().rss / (1024 * 1024)
    except Exception:
        return None


@dataclass
class _Slot:
    proc: multiprocessing.Process
    conn: object
    job: object = None  # the job the worker is running (or was sent first)
    started: float = 0.0
    peak_mb: float = 0.0
    ready: bool = False
    extra_s: float = 0.0  # time granted by an announced phase (OCR)
    running: bool = False  # the worker said it started ``job``
    args: tuple = ()  # ``job``'s arguments (to give it back if the worker dies before starting it)
    queued: list = field(default_factory=list)  # (job, args) sent ahead, so the worker never waits for us


class ParseSandbox:
    """A fixed number of supervised worker processes (see the module docstring)."""

    start_pause_s = 0.25  # pause after the n-th worker in a row died at start: n x this (max 2 s)

    def __init__(self, workers: int, cap_mb: int, target: Callable[..., dict],
                 warm: Callable[[], None] | None = None) -> None:
        self.workers = max(1, workers)
        self.cap_mb = cap_mb
        self.target = target
        self.warm = warm
        self._ctx = multiprocessing.get_context("spawn")
        self._slots: list[_Slot] = []
        self._lock = threading.Lock()  # one batch at a time (a GUI import and a resume may overlap)
        self.restarts = 0

    def _spawn(self) -> _Slot:
        parent, child = self._ctx.Pipe(duplex=True)
        proc = self._ctx.Process(target=_worker_main, args=(child, self.cap_mb, self.target, self.warm),
                                 daemon=True, name="cvrag-parse")
        proc.start()
        child.close()
        return _Slot(proc, parent)

    def _kill(self, slot: _Slot) -> None:
        with contextlib.suppress(Exception):
            slot.proc.kill()
        slot.proc.join(5)
        with contextlib.suppress(Exception):
            slot.conn.close()

    def _replace(self, slot: _Slot) -> None:
        self._kill(slot)
        self.restarts += 1
        self._slots[self._slots.index(slot)] = self._spawn()

    def run(self, jobs: Iterable[tuple[object, tuple]], deadline_s: float,
            on_result: Callable[[object, dict], None], should_cancel: Callable[[], bool] | None = None,
            on_start: Callable[[object], None] | None = None,
            phase_s: dict[str, float] | None = None) -> list[object]:
        """Run ``target(*args)`` for every ``(job, args)``; ``on_result(job, result)`` on this thread.

        Each job has ``deadline_s`` from the moment a warm worker receives it, plus
        ``phase_s[phase]`` once the worker announces that phase. A failed job gets a result
        dict with ``ok=False`` and a ``limit`` key (``deadline``, ``memory`` or ``crash``).
        Returns the jobs not started or killed because of cancellation.
        """
        with self._lock:
            try:
                return self._run(list(jobs), deadline_s, on_result, should_cancel, on_start, phase_s or {})
            finally:  # if a callback raised, workers still busy with this batch must not leak into the next
                for slot in list(self._slots):
                    if slot.job is not None:
                        slot.job, slot.queued = None, []
                        self._replace(slot)

    def _dispatch(self, queue: list, on_start) -> None:
        """Keep each ready worker holding its current job plus one sent ahead (no idle round trip)."""
        for slot in self._slots:
            while slot.ready and queue and (slot.job is None or not slot.queued):
                job, args = queue.pop()
                try:
                    slot.conn.send(args)
                except (OSError, ValueError):  # the worker died: give the job back, start another
                    queue.append((job, args))
                    self._requeue(slot, queue)
                    self._replace(slot)
                    break
                if on_start:
                    on_start(job)
                if slot.job is None:
                    slot.job, slot.args, slot.started, slot.peak_mb, slot.extra_s, slot.running = \
                        job, args, time.monotonic(), 0.0, 0.0, False
                else:
                    slot.queued.append((job, args))

    @staticmethod
    def _requeue(slot: _Slot, queue: list) -> None:
        """Jobs sent ahead to a worker that is going away go back to the front of the queue."""
        for item in reversed(slot.queued):
            queue.append(item)
        slot.queued = []

    def _advance(self, slot: _Slot) -> None:
        """The worker finished its job: the job sent ahead becomes current (its clock starts at "start")."""
        if slot.queued:
            job, args = slot.queued.pop(0)
            slot.job, slot.args, slot.started, slot.peak_mb, slot.extra_s, slot.running = \
                job, args, time.monotonic(), 0.0, 0.0, False
        else:
            slot.job, slot.running = None, False

    def _run(self, queue, deadline_s, on_result, should_cancel, on_start, phase_s) -> list[object]:
        queue.reverse()
        while len(self._slots) < min(self.workers, len(queue)):  # started lazily, kept for the session
            self._slots.append(self._spawn())
        cancelled: list[object] = []
        failed_starts = 0
        while True:
            if should_cancel and should_cancel():
                cancelled.extend(job for job, _args in reversed(queue))
                queue.clear()
                for slot in list(self._slots):
                    if slot.job is not None:
                        cancelled.append(slot.job)
                        cancelled.extend(job for job, _args in slot.queued)
                        slot.job, slot.queued = None, []
                        self._replace(slot)
                return cancelled
            self._dispatch(queue, on_start)
            if not queue and all(s.job is None for s in self._slots):
                return cancelled
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
                if isinstance(result, tuple):  # ("ready",), ("start",) or ("phase", name)
                    if result[0] == "ready":
                        slot.ready, failed_starts = True, 0
                    elif result[0] == "start" and slot.job is not None:
                        slot.running, slot.started = True, now
                    elif result[0] == "phase" and slot.job is not None:
                        slot.extra_s = max(slot.extra_s, phase_s.get(result[1], 0.0))
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
                            self._requeue(slot, queue)
                            queue.append((slot.job, slot.args))
                            slot.job = None
                        self._replace(slot)
                    continue
                if dead:
                    slot.proc.join(1)
                    result = {"ok": False, "status": "failed", "limit": "crash", "exitcode": slot.proc.exitcode,
                              "seconds": now - slot.started, "peak_rss_mb": slot.peak_mb}
                if result is None:
                    rss = _rss_mb(slot.proc.pid)
                    if rss is not None and slot.running:
                        slot.peak_mb = max(slot.peak_mb, rss)
                    if rss is not None and rss > self.cap_mb:
                        result = {"ok": False, "status": "too_large", "limit": "memory",
                                  "seconds": now - slot.started, "peak_rss_mb": round(rss, 1)}
                    elif now - slot.started > deadline_s + slot.extra_s:
                        result = {"ok": False, "status": "too_large", "limit": "deadline",
                                  "seconds": now - slot.started, "peak_rss_mb": round(slot.peak_mb, 1),
                                  "allowed_s": deadline_s + slot.extra_s}
                    else:
                        continue
                job = slot.job
                if result.get("memory") and "limit" not in result:
                    result["limit"] = "memory"
                if "limit" in result or not slot.proc.is_alive():
                    slot.job = None
                    self._requeue(slot, queue)
                    self._replace(slot)
                else:
                    self._advance(slot)
                on_result(job, result)

    def close(self) -> None:
        """Stop the workers (politely, then by force)."""
        for slot in self._slots:
            with contextlib.suppress(Exception):
                slot.conn.send(None)
        for slot in self._slots:
            slot.proc.join(0.5)
            self._kill(slot)
        self._slots.clear()


_SANDBOX: dict[str, ParseSandbox] = {}


def shared_sandbox(workers: int, cap_mb: int, target, warm=None) -> ParseSandbox:
    """The session's sandbox (worker start-up is paid once); replaced when its shape changes.

    Only one sandbox lives at a time, so a long session (or a test run) never accumulates
    idle worker processes. The key includes ``CVRAG_DISABLE_OCR`` because workers inherit
    the environment when they start.
    """
    key = f"{workers}:{cap_mb}:{os.environ.get('CVRAG_DISABLE_OCR', '')}:{target.__module__}.{target.__name__}"
    box = _SANDBOX.get(key)
    if box is None:
        for old in _SANDBOX.values():
            old.close()
        _SANDBOX.clear()
        box = _SANDBOX[key] = ParseSandbox(workers, cap_mb, target, warm)
    return box


@atexit.register
def _close_all() -> None:
    for box in _SANDBOX.values():
        box.close()
    _SANDBOX.clear()
