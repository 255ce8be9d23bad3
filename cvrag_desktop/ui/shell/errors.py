"""How the GUI shows errors: typed ones inline in the pane, unexpected ones in a dialog.

A :class:`~cvrag_desktop.errors.CvragError` carries a message a recruiter can act on,
so it goes into the pane's :class:`InlineMessage`. Anything else is a bug: a dialog
says so, offers the details, and names the log file (logs never contain CV text).
"""

from __future__ import annotations

import logging
import traceback
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox, QWidget

from cvrag_desktop.errors import CvragError
from cvrag_desktop.ui.shell.tasks import loggable

log = logging.getLogger(__name__)
LOG_FILE_NAME = "cvrag-desktop.log"
# translucent tints over the system palette, so the banner reads in light and dark themes
FLASH_MS = 4000  # how long a confirmation stays
_STYLES = {
    "error": "background:rgba(220,40,60,0.16);border:1px solid rgba(220,40,60,0.55);",
    "warning": "background:rgba(230,170,0,0.18);border:1px solid rgba(230,170,0,0.6);",
    "info": "background:rgba(40,120,220,0.14);border:1px solid rgba(40,120,220,0.5);",
}


class InlineMessage(QLabel):
    """A one-line banner at the top of a pane for typed errors, warnings and notices."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.kind = ""
        self.hide()

    def show_message(self, text: str, kind: str = "info") -> None:
        """Show ``text`` styled as ``error``, ``warning`` or ``info``."""
        self.kind = kind
        self.setText(text)
        self.setStyleSheet(f"QLabel{{{_STYLES.get(kind, _STYLES['info'])}padding:6px;border-radius:4px;}}")
        self.show()

    def flash(self, text: str, ms: int = FLASH_MS) -> None:
        """A confirmation that needs no answer ("Saved."): shown in the window's status bar, where it
        goes away by itself and moves nothing; a banner already showing (an error) is cleared, as it
        is out of date. Without a status bar (a dialog) the banner shows it and hides after ``ms``."""
        window = self.window()
        bar = window.statusBar() if isinstance(window, QMainWindow) else None
        self.clear_message()
        if bar is not None:
            bar.showMessage(text, ms)
            return
        self.show_message(text, "info")
        QTimer.singleShot(ms, self, lambda: self.text() == text and self.clear_message())

    def clear_message(self) -> None:
        """Hide the banner."""
        self.kind = ""
        self.setText("")
        self.hide()


def log_file(log_dir: Path) -> Path:
    """Where the application log is written."""
    return Path(log_dir) / LOG_FILE_NAME


def report_error(exc: BaseException, inline: InlineMessage, parent: QWidget | None, log_dir: Path) -> None:
    """Typed error → inline message; anything else → a details dialog naming the log file."""
    if isinstance(exc, CvragError):
        inline.show_message(exc.message, "error")
        return
    show_unexpected(exc, parent, log_dir)


def show_unexpected(exc: BaseException, parent: QWidget | None, log_dir: Path) -> QMessageBox:
    """A non-blocking dialog for a bug: summary, details (traceback) and the log path."""
    log.error("unexpected error: %s", loggable(exc))
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Critical)
    box.setWindowTitle("Unexpected error")
    box.setText("Something went wrong. Your data is safe; the operation was not completed.")
    box.setInformativeText(f"Details are in the log file:\n{log_file(log_dir)}")
    box.setDetailedText("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    box.setModal(False)
    box.show()
    return box
