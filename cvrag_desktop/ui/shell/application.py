"""Start the desktop application: ``run(argv)`` is what ``cvrag-desktop`` calls.

Order matters: logging first; then the single-instance lock, before anything opens the
catalog or the index (a second instance explains and exits without touching them);
then the window, which loads data and resumes an interrupted import in workers.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QMessageBox

from cvrag_desktop.app.assembly import App
from cvrag_desktop.app.session import AppPaths, default_paths, instance_lock
from cvrag_desktop.ui.dialogs.catalog_repair import ensure_catalog
from cvrag_desktop.ui.shell.errors import log_file

log = logging.getLogger(__name__)
APP_TITLE = "CV RAG Desktop"
QUIET_LOGGERS = ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm", "httpx", "httpcore", "openai")


def setup_logging(paths: AppPaths) -> None:
    """Rotating log file in the platform log dir (messages never include CV text)."""
    paths.log_dir.mkdir(parents=True, exist_ok=True)
    handler = logging.handlers.RotatingFileHandler(log_file(paths.log_dir), maxBytes=2_000_000, backupCount=3,
                                                   encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    if not any(isinstance(h, logging.handlers.RotatingFileHandler) for h in root.handlers):
        root.addHandler(handler)
    root.setLevel(logging.INFO)
    for name in QUIET_LOGGERS:  # their INFO/DEBUG records can carry prompts, i.e. CV excerpts
        logging.getLogger(name).setLevel(logging.WARNING)


def acquire_instance_lock(paths: AppPaths, notify: Callable[[str], None]):
    """The lock of this data folder, or None after telling the user another instance has it."""
    lock = instance_lock(paths.data_dir)
    if lock.acquire():
        return lock
    pid = lock.holder_pid()
    notify(f"{APP_TITLE} is already running{f' (process {pid})' if pid else ''} with the data in\n"
           f"{paths.data_dir}\n\nSwitch to that window, or close it before starting another.")
    return None


def make_application(argv: list[str]) -> QApplication:
    """The QApplication, configured for high-DPI screens and the system palette."""
    app = QApplication.instance()
    if app is None:
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication(argv)
    app.setApplicationName("cvrag-desktop")
    app.setApplicationDisplayName(APP_TITLE)
    app.setOrganizationName("cvrag")
    return app  # no style or palette override: Qt follows the system's light/dark scheme


def run(argv: list[str]) -> int:
    """Open the main window; returns the process exit code."""
    app = make_application(list(argv))
    paths = default_paths()
    setup_logging(paths)
    lock = acquire_instance_lock(paths, lambda text: QMessageBox.warning(None, APP_TITLE, text))
    if lock is None:
        return 1
    from cvrag_desktop.ui.shell.main_window import MainWindow

    services = App(paths)
    if not ensure_catalog(services):
        services.close()
        lock.release()
        return 1
    window = MainWindow(services)
    window.show()
    QTimer.singleShot(0, window.start)
    try:
        code = app.exec()
    finally:
        window.runner.wait(5000)
        services.close()
        lock.release()
    log.info("exit %s", code)
    return int(code)


if __name__ == "__main__":
    sys.exit(run(sys.argv))
