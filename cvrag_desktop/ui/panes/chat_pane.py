"""Chat pane placeholder: the assistant (cited answers) is being built; this pane says so honestly."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget


class ChatPane(QWidget):
    """Shows what the chat will do and that it is not available in this build yet."""

    def __init__(self, services, parent=None) -> None:
        super().__init__(parent)
        self.services = services
        available = callable(getattr(services, "ask", None))
        text = ("<h2>Chat</h2><p>Ask questions about your candidates (“who has Kafka and 5+ years?”) and get "
                "answers where every claim cites a CV, with a click that opens the PDF at the cited lines.</p>"
                "<p><b>Coming soon:</b> the assistant is not part of this build yet. Meanwhile, use the "
                "Candidates pane to search, filter and open records at their source.</p>")
        if available:
            text += "<p>The assistant service is present; its chat view is not wired in this build.</p>"
        self.label = QLabel(text)
        self.label.setWordWrap(True)
        self.label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addStretch(1)

    def new_chat(self) -> None:
        """Ctrl+N: starts a new thread once the assistant lands; today it only brings the pane forward."""
        self.label.setFocus()
