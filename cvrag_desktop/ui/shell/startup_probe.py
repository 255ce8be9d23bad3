"""``CVRAG_STARTUP_PROBE`` for ``benchmarks/cold_start.py``: when the main window is interactive, warm and idle."""

from __future__ import annotations

import sys


def _rss_mb() -> float | None:
    """This process's resident memory in MB (Linux /proc; None elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            return next(int(line.split()[1]) / 1024 for line in fh if line.startswith("VmRSS:"))
    except (OSError, StopIteration, ValueError):
        return None


def install_startup_probe(min_rows: int, idle_s: float) -> None:
    """``CVRAG_STARTUP_PROBE`` (benchmarks/cold_start.py): print one JSON line when the main window
    is interactive (shown, event loop running, ``min_rows`` candidates listed), one when start-up
    warm-up has finished and the app has then idled ``idle_s`` seconds, and quit."""
    import json
    import time

    from PySide6.QtCore import QTimer

    from cvrag_desktop.ui.shell.application import make_application

    app = make_application(sys.argv)
    started = time.perf_counter()
    seen: dict[str, float] = {}
    timer = QTimer(app)

    def emit(event: str, **data) -> None:
        print(json.dumps({"event": event, "t_s": round(time.perf_counter() - started, 3), "rss_mb": _rss_mb(),
                          **data}), flush=True)

    def poll() -> None:
        from cvrag_desktop.ui.shell.main_window import MainWindow

        win = next((w for w in app.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()), None)
        if win is None:
            return
        if "interactive" not in seen and win.candidates.model.rowCount() >= min_rows:
            seen["interactive"] = time.perf_counter()
            emit("interactive", rows=win.candidates.model.rowCount())
        if "interactive" in seen and win.warm is not None and "warm" not in seen:
            seen["warm"] = time.perf_counter()
            emit("warm", timings=win.warm.get("timings"))
            QTimer.singleShot(int(idle_s * 1000), lambda: (emit("idle"), win.close()))

    timer.timeout.connect(poll)
    timer.start(10)
