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

from cvrag_desktop.ui.shell.startup_probe import install_startup_probe


def _no_display() -> bool:
    """True on a Linux box with no X11/Wayland display and no Qt platform override."""
    return sys.platform.startswith("linux") and not any(
        os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    )


def _headless_demo(reason: str, argv: list[str]) -> int:
    from cvrag_desktop.cli.entry import main as cli_main

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


def main() -> int:
    """Entry point of ``cvrag-desktop``."""
    import multiprocessing

    multiprocessing.freeze_support()  # frozen builds spawn the parser pool from this executable
    argv = sys.argv[1:]
    if argv[:1] == ["--self-test"]:
        from cvrag_desktop.selftest import run_self_test

        return run_self_test()
    if argv[:1] == ["--cli"]:
        from cvrag_desktop.cli.entry import main as cli_main

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
        from cvrag_desktop.ui.shell.application import run
    except ImportError as exc:
        return _headless_demo(f"the desktop UI cannot load ({exc})", argv)
    probe = os.environ.get("CVRAG_STARTUP_PROBE")
    if probe:  # "min_rows[,idle_seconds]"
        rows, _, idle = probe.partition(",")
        install_startup_probe(int(rows or 1), float(idle or 5))
    return run(sys.argv)


if __name__ == "__main__":
    sys.exit(main())
