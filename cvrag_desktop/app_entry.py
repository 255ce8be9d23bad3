"""``cvrag-desktop``: start the desktop application.

Opens the PySide6 window. Where no window can be shown — Qt not installed, or a Linux
machine with no display — it says so and runs the headless demo instead: the bundled
real CVs (or ``CVRAG_DEMO_DIR``) imported into a temporary home, candidate table printed.
"""

from __future__ import annotations

import os
import sys


def _no_display() -> bool:
    """True on a Linux box with no X11/Wayland display and no Qt platform override."""
    return sys.platform.startswith("linux") and not any(
        os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    )


def _headless_demo(reason: str) -> int:
    from cvrag_desktop.cli import main as cli_main

    print(f"CV RAG Desktop — {reason}; running the headless demo instead.", file=sys.stderr)
    return cli_main(["demo", *sys.argv[1:]])


def main() -> int:
    """Entry point of ``cvrag-desktop``."""
    import multiprocessing

    multiprocessing.freeze_support()  # frozen builds spawn the parser pool from this executable
    if _no_display():
        return _headless_demo("no display found (set DISPLAY, or QT_QPA_PLATFORM=offscreen)")
    try:
        from cvrag_desktop.ui.app import run
    except ImportError as exc:
        return _headless_demo(f"the desktop UI cannot load ({exc})")
    return run(sys.argv)


if __name__ == "__main__":
    sys.exit(main())
