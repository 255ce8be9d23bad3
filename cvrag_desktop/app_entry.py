"""``cvrag-desktop``: start the desktop application (also the frozen build's only executable).

Opens the PySide6 window. Where no window can be shown — Qt not installed, or a Linux
machine with no display — it says so and runs the headless demo instead: the bundled
real CVs (or ``CVRAG_DEMO_DIR``) imported into a temporary home, candidate table printed.

Options a frozen build needs because it has no second executable:

- ``--self-test``: offline end-to-end check in a temporary home (:mod:`cvrag_desktop.selftest`);
- ``--cli ARGS...``: the ``cvrag`` command line (``cvrag-desktop --cli doctor``);
- ``--version``.
"""

from __future__ import annotations

import os
import sys


def _no_display() -> bool:
    """True on a Linux box with no X11/Wayland display and no Qt platform override."""
    return sys.platform.startswith("linux") and not any(
        os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    )


def _headless_demo(reason: str, argv: list[str]) -> int:
    from cvrag_desktop.cli import main as cli_main

    print(f"CV RAG Desktop — {reason}; running the headless demo instead.", file=sys.stderr)
    return cli_main(["demo", *argv])


def version() -> str:
    """The installed distribution's version (``0+unknown`` in a tree that was never installed)."""
    from importlib import metadata

    try:
        return metadata.version("cvrag-desktop")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def _frozen_qt_setup() -> None:
    """A frozen build on Linux: prefer Wayland when the session is Wayland, else X11 (xcb)."""
    if getattr(sys, "frozen", False) and sys.platform.startswith("linux") and not os.environ.get("QT_QPA_PLATFORM"):
        if os.environ.get("WAYLAND_DISPLAY") and not os.environ.get("DISPLAY"):
            os.environ["QT_QPA_PLATFORM"] = "wayland"


def _rss_mb() -> float | None:
    """This process's resident memory in MB (Linux /proc; None elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            return next(int(line.split()[1]) / 1024 for line in fh if line.startswith("VmRSS:"))
    except (OSError, StopIteration, ValueError):
        return None


def _install_startup_probe(min_rows: int, idle_s: float) -> None:
    """``CVRAG_STARTUP_PROBE`` (benchmarks/cold_start.py): print one JSON line when the main window
    is interactive (shown, event loop running, ``min_rows`` candidates listed), one when start-up
    warm-up has finished and the app has then idled ``idle_s`` seconds, and quit."""
    import json
    import time

    from PySide6.QtCore import QTimer

    from cvrag_desktop.ui.app import make_application

    app = make_application(sys.argv)
    started = time.perf_counter()
    seen: dict[str, float] = {}
    timer = QTimer(app)

    def emit(event: str, **data) -> None:
        print(json.dumps({"event": event, "t_s": round(time.perf_counter() - started, 3), "rss_mb": _rss_mb(),
                          **data}), flush=True)

    def poll() -> None:
        from cvrag_desktop.ui.main_window import MainWindow

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


def main() -> int:
    """Entry point of ``cvrag-desktop``."""
    import multiprocessing

    multiprocessing.freeze_support()  # frozen builds spawn the parser pool from this executable
    argv = sys.argv[1:]
    if argv[:1] == ["--self-test"]:
        from cvrag_desktop.selftest import run_self_test

        return run_self_test()
    if argv[:1] == ["--cli"]:
        from cvrag_desktop.cli import main as cli_main

        return cli_main(argv[1:])
    if argv[:1] == ["--version"]:
        print(f"cvrag-desktop {version()}")
        return 0
    if argv[:1] in (["-h"], ["--help"]):
        print("usage: cvrag-desktop [--self-test | --cli CVRAG-ARGS... | --version]\n"
              "  (no option)   open the desktop window\n"
              "  --self-test   offline end-to-end check in a temporary data folder; exit 0 when it passes\n"
              "  --cli ...     the `cvrag` command line, e.g. `cvrag-desktop --cli doctor`")
        return 0
    _frozen_qt_setup()
    if _no_display():
        return _headless_demo("no display found (set DISPLAY, or QT_QPA_PLATFORM=offscreen)", argv)
    try:
        from cvrag_desktop.ui.app import run
    except ImportError as exc:
        return _headless_demo(f"the desktop UI cannot load ({exc})", argv)
    probe = os.environ.get("CVRAG_STARTUP_PROBE")
    if probe:  # "min_rows[,idle_seconds]"
        rows, _, idle = probe.partition(",")
        _install_startup_probe(int(rows or 1), float(idle or 5))
    return run(sys.argv)


if __name__ == "__main__":
    sys.exit(main())
