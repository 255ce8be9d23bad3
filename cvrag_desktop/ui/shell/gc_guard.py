"""Python's cyclic garbage collector runs on the GUI thread only, while a window is open.

The collector runs in whichever thread happens to allocate when a threshold is passed. A worker
(a candidate list load, a search) could then finalise Qt objects the GUI thread created and
owns, which crashes Qt (a segmentation fault seen once in the GUI suite, mid-`list_people`).
While a window is open, automatic collection is off; a timer on the GUI thread collects each
generation whenever its count passes the usual threshold, so memory behaves as before.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 250
_active = 0


class MainThreadGC(QObject):
    """Collect garbage on the GUI thread (see module doc); ``stop()`` gives collection back."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        global _active
        _active += 1
        self._thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self, interval=INTERVAL_MS)
        self.timer.timeout.connect(self.check)
        self.timer.start()
        state = {"stopped": False}
        self._state = state
        self.destroyed.connect(lambda *_: _release(state))  # a window deleted without a close event

    def check(self) -> None:
        """Collect the generations whose counts passed their thresholds (GUI thread)."""
        t0, t1, t2 = self._thresholds
        c0, c1, c2 = gc.get_count()
        if c2 > t2:
            gc.collect(2)
        elif c1 > t1:
            gc.collect(1)
        elif c0 > t0:
            gc.collect(0)

    def stop(self) -> None:
        """Stop the timer, collect once, and turn automatic collection back on (last window closed)."""
        self.timer.stop()
        if not self._state["stopped"]:
            gc.collect()
        _release(self._state)


def _release(state: dict) -> None:
    """Count one guard gone; the last one gives automatic collection back."""
    global _active
    if state["stopped"]:
        return
    state["stopped"] = True
    _active -= 1
    if _active <= 0:
        _active = 0
        gc.enable()
