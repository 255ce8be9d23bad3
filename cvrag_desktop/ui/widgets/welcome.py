"""The first-run state of the Candidates pane: what to do when the library is empty."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from cvrag_desktop.ui.importing.drops import accept_local_drag, dropped_paths

TEXT = ("<h2>No CVs yet</h2>"
        "<p>Drop CV files (PDF or Word) or whole folders here,<br>"
        "or choose them with <b>Import CVs…</b>. Everything stays on this computer.</p>"
        "<p>Just looking? <b>Try with sample CVs</b> makes 20 invented CVs,<br>"
        "marked as demo, to explore the app with.</p>")


class WelcomePanel(QWidget):
    """Drop zone and three ways to start: import, sample CVs, settings."""

    import_requested = Signal()
    samples_requested = Signal()
    settings_requested = Signal()
    dropped = Signal(list)  # [Path]

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setAcceptDrops(True)
        self.text = QLabel(TEXT)
        self.text.setWordWrap(False)  # explicit line breaks: a wrapped label's height is miscomputed here
        self.text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.import_btn = QPushButton("Import CVs…")
        self.samples_btn = QPushButton("Try with sample CVs")
        self.settings_btn = QPushButton("Settings…")
        self.settings_btn.setToolTip("Where the library is kept, the optional language model, OCR for scans")
        self.import_btn.setDefault(True)
        self.import_btn.clicked.connect(self.import_requested)
        self.samples_btn.clicked.connect(self.samples_requested)
        self.settings_btn.clicked.connect(self.settings_requested)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for b in (self.import_btn, self.samples_btn, self.settings_btn):
            buttons.addWidget(b)
        buttons.addStretch(1)
        box = QWidget()
        box.setObjectName("dropzone")
        box.setStyleSheet("#dropzone{border:2px dashed palette(mid);border-radius:12px;}")
        inner = QVBoxLayout(box)
        inner.setContentsMargins(32, 32, 32, 32)
        inner.addWidget(self.text)
        inner.addLayout(buttons)
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        outer.addWidget(box, 0, Qt.AlignmentFlag.AlignHCenter)
        outer.addStretch(2)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept local files and folders."""
        accept_local_drag(event)

    def dropEvent(self, event: QDropEvent) -> None:
        """Import what was dropped."""
        if paths := dropped_paths(event):
            self.dropped.emit(paths)
