"""The list of saved conversations with New / Rename / Delete buttons."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

ID_ROLE = Qt.ItemDataRole.UserRole


class ThreadList(QWidget):
    """Conversations, most recent first; emits the id of the one the user opens."""

    thread_selected = Signal(str)
    new_requested = Signal()
    rename_requested = Signal(str)
    delete_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.new_btn = QPushButton("New chat")
        self.new_btn.setToolTip("Start a new conversation (Ctrl+N)")
        self.rename_btn = QPushButton("Rename")
        self.delete_btn = QPushButton("Delete")
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.list.itemClicked.connect(lambda item: self.thread_selected.emit(item.data(ID_ROLE)))
        self.list.currentItemChanged.connect(lambda *_: self._sync())
        self.new_btn.clicked.connect(self.new_requested)
        self.rename_btn.clicked.connect(lambda: self._emit(self.rename_requested))
        self.delete_btn.clicked.connect(lambda: self._emit(self.delete_requested))
        buttons = QHBoxLayout()
        buttons.addWidget(self.rename_btn)
        buttons.addWidget(self.delete_btn)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("<b>Conversations</b>"))
        layout.addWidget(self.new_btn)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        self._sync()

    def _emit(self, signal) -> None:
        tid = self.current_id()
        if tid:
            signal.emit(tid)

    def _sync(self) -> None:
        has = self.current_id() is not None
        self.rename_btn.setEnabled(has)
        self.delete_btn.setEnabled(has)

    def set_threads(self, threads: list[dict], current: str | None) -> None:
        """Replace the list (``threads()`` rows) and select ``current`` when listed."""
        self.list.blockSignals(True)
        self.list.clear()
        for t in threads:
            item = QListWidgetItem(t.get("title") or t["thread_id"])
            item.setData(ID_ROLE, t["thread_id"])
            item.setToolTip(t.get("title") or "")
            self.list.addItem(item)
        self.list.blockSignals(False)
        self.select(current)

    def cover(self, text: str = "…") -> None:
        """Hide the titles (they may name people) until the list is read again (blind screening switching on)."""
        for i in range(self.list.count()):
            self.list.item(i).setText(text)
            self.list.item(i).setToolTip("")

    def select(self, thread_id: str | None) -> None:
        """Highlight a thread without emitting ``thread_selected`` (None clears)."""
        self.list.blockSignals(True)
        self.list.setCurrentItem(None)
        self.list.clearSelection()
        for i in range(self.list.count()):
            if self.list.item(i).data(ID_ROLE) == thread_id:
                self.list.setCurrentRow(i)
                break
        self.list.blockSignals(False)
        self._sync()

    def current_id(self) -> str | None:
        """The selected thread id."""
        item = self.list.currentItem()
        return item.data(ID_ROLE) if item is not None and item.isSelected() else None

    def ids(self) -> list[str]:
        """Thread ids in list order."""
        return [self.list.item(i).data(ID_ROLE) for i in range(self.list.count())]

    def titles(self) -> list[str]:
        """Thread titles in list order."""
        return [self.list.item(i).text() for i in range(self.list.count())]
