"""Background work for the GUI: one worker abstraction on a ``QThreadPool``.

A :class:`Worker` (``QRunnable``) runs a plain function off the GUI thread and reports
through a separate :class:`WorkerSignals` (``QObject``), the pattern of Qt's
``thread_signals`` example: queued signals deliver results on the GUI thread. The
function receives a :class:`TaskContext` whose ``progress``/``should_cancel``/``item``
are the plain callables that the application layer expects, so core code never sees Qt.
:class:`TaskRunner` names tasks by a key; starting a task under a busy key cancels the
older one (a newer search supersedes the previous), and results of a cancelled task
are dropped.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from cvrag_desktop.errors import Cancelled, CvragError

log = logging.getLogger(__name__)


def loggable(exc: BaseException) -> str:
    """An exception for the log: its type and where it was raised, never its message.

    Messages can quote what was being processed (a CV line in a validation error, a
    candidate's name) and logs must never contain CV text; the error dialog shows the text.
    """
    frames = "".join(traceback.format_tb(exc.__traceback__)) if exc.__traceback__ else ""
    return f"{type(exc).__module__}.{type(exc).__qualname__}\n{frames}".rstrip()


class WorkerSignals(QObject):
    """What a worker reports: progress, per-item outcomes, the result or the error, then finished."""

    progress = Signal(int, int, str)
    item = Signal(object)
    result = Signal(object)
    error = Signal(object)
    finished = Signal()


class TaskContext:
    """The plain-Python handle a task function gets: report progress and items, check for cancel."""

    def __init__(self, signals: WorkerSignals) -> None:
        self._signals = signals
        self._cancel = threading.Event()

    def progress(self, done: int, total: int, note: str = "") -> None:
        """Report progress (thread-safe; delivered on the GUI thread)."""
        if not self._cancel.is_set():
            self._signals.progress.emit(int(done), int(total), str(note or ""))

    def item(self, obj: object) -> None:
        """Report one finished item (e.g. a file of an import)."""
        self._signals.item.emit(obj)

    def should_cancel(self) -> bool:
        """True once the task was cancelled; long operations poll this."""
        return self._cancel.is_set()

    def cancel(self) -> None:
        """Ask the task to stop at its next check."""
        self._cancel.set()


class Worker(QRunnable):
    """Runs ``fn(ctx)`` in the pool and emits its result or error."""

    def __init__(self, fn: Callable[[TaskContext], Any], name: str = "task") -> None:
        super().__init__()
        self.setAutoDelete(False)  # Python keeps it alive until `finished` is handled
        self.fn = fn
        self.name = name
        self.signals = WorkerSignals()
        self.ctx = TaskContext(self.signals)
        self.started_at: float | None = None

    def cancel(self) -> None:
        """Request cancellation (cooperative)."""
        self.ctx.cancel()

    @property
    def cancelled(self) -> bool:
        """Whether cancellation was requested."""
        return self.ctx.should_cancel()

    def run(self) -> None:
        """Called by the pool on a worker thread."""
        self.started_at = time.monotonic()
        try:
            value = self.fn(self.ctx)
        except Cancelled as exc:
            if not self.cancelled:
                self.signals.error.emit(exc)
        except BaseException as exc:
            if not isinstance(exc, CvragError):  # typed errors are expected; their text is shown, not logged
                log.error("task %s failed: %s", self.name, loggable(exc))
            if not self.cancelled:
                self.signals.error.emit(exc)
        else:
            if not self.cancelled:
                self.signals.result.emit(value)
        finally:
            self.signals.finished.emit()


class TaskRunner(QObject):
    """Starts keyed workers on a pool; a newer task under the same key cancels the older one."""

    def __init__(self, pool: QThreadPool | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = pool or QThreadPool.globalInstance()
        self._current: dict[str, Worker] = {}
        self._alive: set[Worker] = set()

    def start(self, key: str, fn: Callable[[TaskContext], Any], *,
              on_result: Callable[[Any], None] | None = None,
              on_error: Callable[[BaseException], None] | None = None,
              on_progress: Callable[[int, int, str], None] | None = None,
              on_item: Callable[[object], None] | None = None,
              on_finished: Callable[[], None] | None = None) -> Worker:
        """Run ``fn`` in the pool under ``key``; callbacks run on the GUI thread."""
        older = self._current.pop(key, None)
        if older is not None:  # superseded: cancelled, and its on_finished will not run
            older.cancel()
        worker = Worker(fn, key)
        s = worker.signals
        # A result can arrive after the runner's owner (a pane, a dialog) was destroyed;
        # it is dropped then, as a cancelled one is, instead of reaching deleted widgets.
        if on_result:
            s.result.connect(lambda v, w=worker: None if self._dropped(w) else on_result(v))
        if on_error:
            s.error.connect(lambda e, w=worker: None if self._dropped(w) else on_error(e))
        if on_progress:
            s.progress.connect(lambda d, t, n, w=worker: None if self._dropped(w) else on_progress(d, t, n))
        if on_item:
            s.item.connect(lambda o, w=worker: None if self._dropped(w, cancel=False) else on_item(o))
        s.finished.connect(lambda w=worker: self._done(key, w, on_finished))
        self._current[key] = worker
        self._alive.add(worker)
        self.pool.start(worker)
        return worker

    def run(self, fn: Callable[[TaskContext], Any], **callbacks) -> Worker:
        """Run an unkeyed task (a write that must not be superseded, e.g. a shortlist change)."""
        self._seq = getattr(self, "_seq", 0) + 1
        return self.start(f"_once{self._seq}", fn, **callbacks)

    def _dropped(self, worker: Worker, cancel: bool = True) -> bool:
        """Whether a worker's report must be ignored: cancelled, or its runner is gone."""
        if not shiboken6.isValid(self):
            worker.cancel()
            return True
        return cancel and worker.cancelled

    def _done(self, key: str, worker: Worker, on_finished: Callable[[], None] | None) -> None:
        if not shiboken6.isValid(self):
            return
        self._alive.discard(worker)
        if self._current.get(key) is worker:
            del self._current[key]
            if on_finished:
                on_finished()

    def cancel(self, key: str) -> None:
        """Cancel the task running under ``key``, if any; its result is ignored, ``on_finished`` still runs."""
        worker = self._current.get(key)
        if worker is not None:
            worker.cancel()

    def busy(self, key: str) -> bool:
        """True while a task under ``key`` has not finished."""
        return key in self._current

    def cancel_all(self) -> None:
        """Cancel every running task (window closing)."""
        for w in list(self._alive):
            w.cancel()

    def wait(self, msecs: int = 30_000) -> bool:
        """Wait for the pool to drain (tests, shutdown); True when it did."""
        return self.pool.waitForDone(msecs)
