"""``cvrag-desktop``: start the desktop application.

Until the GUI lands this runs the headless demo: it imports the bundled real CVs
(or ``CVRAG_DEMO_DIR``) into a temporary home and prints the candidate table.
"""

from __future__ import annotations

import sys


def main() -> int:
    """Entry point of ``cvrag-desktop``."""
    import multiprocessing

    multiprocessing.freeze_support()  # frozen builds spawn the parser pool from this executable
    try:
        from cvrag_desktop.ui.app import run  # type: ignore[import-not-found]
    except ImportError:
        from cvrag_desktop.cli import main as cli_main

        print("CV RAG Desktop — headless demo (the desktop window is not built yet)")
        return cli_main(["demo", *sys.argv[1:]])
    return run(sys.argv)


if __name__ == "__main__":
    sys.exit(main())
