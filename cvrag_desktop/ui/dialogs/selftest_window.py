"""The self-test's window step (``cvrag-desktop --self-test``): Qt lives here, not in :mod:`cvrag_desktop.selftest`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

import sys
import time
from pathlib import Path

from cvrag_desktop.errors import SelfTestFailure


def build_main_window(svc: App) -> str:
    """Build, show and close the main window over ``svc``; say which Qt platform ran and which
    display plugins the build carries (a frozen app without them cannot open on a real screen)."""
    from PySide6.QtWidgets import QApplication

    from cvrag_desktop.ui.shell.application import make_application
    from cvrag_desktop.ui.shell.main_window import MainWindow

    app = make_application([sys.argv[0]])
    window = MainWindow(svc)
    window.show()
    window.candidates.reload()
    deadline = time.perf_counter() + 10
    while time.perf_counter() < deadline:
        QApplication.processEvents()
        if window.isVisible():
            break
    platform = app.platformName()
    window.runner.cancel_all()
    window.runner.wait(5000)
    window.close()
    QApplication.processEvents()
    native = _native_platform_plugins()
    return f"main window built on the {platform!r} Qt platform; display plugins present: {', '.join(native)}"


NATIVE_PLUGINS = {"linux": ("xcb", "wayland"), "darwin": ("cocoa",), "win32": ("windows",)}


def _native_platform_plugins() -> list[str]:
    """The Qt platform plugins a real screen needs on this OS, checked present in the build."""
    from PySide6.QtCore import QLibraryInfo

    folder = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms"
    names = [p.name for p in folder.glob("*")] if folder.is_dir() else []
    wanted = next((v for k, v in NATIVE_PLUGINS.items() if sys.platform.startswith(k)), ())
    found = [w for w in wanted if any(f"q{w}." in n for n in names)]
    if wanted and not found:
        raise SelfTestFailure(f"no Qt platform plugin for a real screen ({' or '.join(wanted)}) in {folder}")
    return found
