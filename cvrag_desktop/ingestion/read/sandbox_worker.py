"""The worker side of the parse sandbox: its memory cap, its messages to the supervisor, its loop.

Everything here runs inside a spawned worker process (see :mod:`cvrag_desktop.ingestion.read.sandbox`
for the supervisor). A worker talks to its supervisor over one pipe:

* ``("ready",)`` once warm, ``("start",)`` when it begins the job it holds;
* ``("phase", name)`` when it enters a slower phase with its own time budget (``"ocr"``);
* ``("progress", name, n, m)`` inside a phase: step ``n`` of ``m`` is being worked on
  (OCR page 2 of 5) — only shown to the user, never changes a budget;
* the job's result dict (which may ask for the job to be re-run on another lane, see
  :data:`DEFER_KEY`).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable

DEFER_KEY = "defer"  # result[DEFER_KEY] = lane name, result["args"] = the arguments to run it with there

_CAP_MB: int | None = None  # set in a worker once its cap is applied
_CONN = None  # the worker's end of its pipe (None outside a worker)


def status_kb(field: str) -> int | None:
    """A ``VmSize``-style field of ``/proc/self/status`` in kB (None off Linux)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def apply_memory_cap(cap_mb: int) -> None:
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

    vm, rss = status_kb("VmSize"), status_kb("VmRSS")
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
        apply_memory_cap(_CAP_MB)


def _reset_peak() -> None:
    with contextlib.suppress(OSError), open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
        fh.write("5")


def _peak_rss_mb() -> float:
    hwm = status_kb("VmHWM")
    if hwm is not None:
        return round(hwm / 1024, 1)
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024, 1)


def announce(phase: str, done: int | None = None, total: int | None = None) -> None:
    """Tell the supervisor what this worker is doing (a no-op outside a worker).

    ``announce("ocr")`` enters a slower phase, which has its own time budget;
    ``announce("ocr", 2, 5)`` reports progress inside it (page 2 of 5 is being read).
    """
    if _CONN is not None:
        with contextlib.suppress(OSError, ValueError):
            _CONN.send(("phase", phase) if done is None else ("progress", phase, int(done), int(total or 0)))


def worker_main(conn, cap_mb: int, target: Callable[..., dict], warm: Callable[[], None] | None) -> None:
    """Worker loop: say ready, then receive ``args``, run ``target(*args)``, send its result dict."""
    global _CONN
    _CONN = conn
    if warm is not None:
        warm()
    apply_memory_cap(cap_mb)  # after warming: the cap measures what parsing adds
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


def rss_mb(pid: int) -> float | None:
    """Resident size of another process in MB (``/proc``, else psutil; None when unknown)."""
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
