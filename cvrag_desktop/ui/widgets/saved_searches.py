"""Saved searches in the Candidates pane's sidebar: a query plus the filter values, by name."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QInputDialog, QLabel, QPushButton, QVBoxLayout, QWidget

NONE = "Saved searches…"


class SavedSearchBar(QWidget):
    """Pick a saved search (``chosen(dict)``), save the current one (``save_requested(name)``), delete one."""

    chosen = Signal(object)  # {"name", "query", "filters"}
    save_requested = Signal(str)
    delete_requested = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.searches: list[dict] = []
        self.combo = QComboBox()
        self.combo.setToolTip("Run a saved search: its words and filters")
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(8)
        self.save_btn = QPushButton("Save…")
        self.save_btn.setToolTip("Save the words in the search box and the filters under a name")
        self.delete_btn = QPushButton("Delete")
        self.delete_btn.setToolTip("Delete the saved search chosen")
        row = QHBoxLayout()
        row.addWidget(self.save_btn)
        row.addWidget(self.delete_btn)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("<b>Saved searches</b>"))
        layout.addWidget(self.combo)
        layout.addLayout(row)
        self.combo.activated.connect(self._activated)
        self.save_btn.clicked.connect(self._save)
        self.delete_btn.clicked.connect(self._delete)
        self.set_searches([])

    def set_searches(self, searches: list[dict], current: str | None = None) -> None:
        """Fill the list (``name``, ``query``, ``filters`` each)."""
        self.searches = list(searches)
        self.combo.blockSignals(True)
        self.combo.clear()
        self.combo.addItem(NONE if searches else "No saved searches yet", None)
        for s in searches:
            self.combo.addItem(s["name"], s["name"])
        self.combo.setCurrentIndex(max(0, self.combo.findData(current)) if current else 0)
        self.combo.blockSignals(False)
        self.delete_btn.setEnabled(self.current() is not None)

    def current(self) -> dict | None:
        """The saved search chosen, if any."""
        name = self.combo.currentData()
        return next((s for s in self.searches if s["name"] == name), None)

    def ask_name(self, default: str = "") -> str | None:
        """Ask for a name (tests replace this)."""
        name, ok = QInputDialog.getText(self, "Save search", "Name of this search:", text=default)
        return name if ok else None

    def _activated(self, _index: int) -> None:
        found = self.current()
        self.delete_btn.setEnabled(found is not None)
        if found is not None:
            self.chosen.emit(found)

    def _save(self) -> None:
        current = self.current()
        name = self.ask_name(current["name"] if current else "")
        if name and name.strip():
            self.save_requested.emit(name.strip())

    def _delete(self) -> None:
        current = self.current()
        if current is not None:
            self.delete_requested.emit(current["name"])
