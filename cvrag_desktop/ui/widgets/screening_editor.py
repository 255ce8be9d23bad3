"""The screening strip above the record: status, rating, tags and a note for the person shown.

It edits one person; bulk changes on a selection go through the table's context menu.
Saving runs ``services.set_screening`` in a worker (see :class:`CandidatesPane`); the
editor only collects the values and shows the person's current state.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from cvrag_desktop.app.rules import STATUS_LABELS, STATUSES

RATING_CHOICES = (("No rating", None), ("★", 1), ("★★", 2), ("★★★", 3), ("★★★★", 4), ("★★★★★", 5))


def split_tags(text: str) -> list[str]:
    """Tags typed as "a, b, c"."""
    return [t.strip() for t in text.split(",") if t.strip()]


class ScreeningEditor(QWidget):
    """Status / rating / tags / note of the current person; ``save_requested(dict)`` with the changes."""

    save_requested = Signal(dict)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.person_id: str | None = None
        self._shown: dict = {}
        self.status = QComboBox()
        for s in STATUSES:
            self.status.addItem(STATUS_LABELS[s], s)
        self.status.setToolTip("Where this person is in your process")
        self.rating = QComboBox()
        for label, value in RATING_CHOICES:
            self.rating.addItem(label, value)
        self.rating.setToolTip("Your rating, 1 to 5 stars")
        self.tags = QLineEdit(placeholderText="Tags, separated by commas")
        self.tags.setToolTip("Your own labels, e.g. 'backend, relocate, Q4'")
        self._completer_words: list[str] = []
        self.note = QLineEdit(placeholderText="Note on this person (kept with the person, not with a list)")
        self.save_btn = QPushButton("Save")
        self.save_btn.setToolTip("Save status, rating, tags and note for this person")
        first, second = QHBoxLayout(), QHBoxLayout()
        first.addWidget(QLabel("Status:"))
        first.addWidget(self.status)
        first.addWidget(self.rating)
        first.addWidget(self.tags, 1)
        second.addWidget(self.note, 1)
        second.addWidget(self.save_btn)
        rows = QVBoxLayout(self)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.addLayout(first)
        rows.addLayout(second)
        self.save_btn.clicked.connect(self.save)
        self.note.returnPressed.connect(self.save)
        self.tags.returnPressed.connect(self.save)
        # a status or rating choice is a decision on its own: saved at once
        self.status.activated.connect(lambda _i: self.save())
        self.rating.activated.connect(lambda _i: self.save())
        self.set_person(None)

    def set_known_tags(self, tags: list[str]) -> None:
        """Offer the tags in use as completions."""
        if tags != self._completer_words:
            self._completer_words = list(tags)
            completer = QCompleter(self._completer_words, self)
            completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
            self.tags.setCompleter(completer)

    def set_person(self, person_id: str | None, state: dict | None = None) -> None:
        """Show a person's state (or disable the editor when nobody is selected)."""
        self.person_id = person_id
        state = state or {}
        self._shown = {"status": state.get("status") or "new", "rating": state.get("rating"),
                       "tags": list(state.get("tags") or []), "note": state.get("note") or ""}
        self.status.setCurrentIndex(max(0, self.status.findData(self._shown["status"])))
        reason = state.get("reason") or ""
        self.status.setToolTip(f"{STATUS_LABELS.get(self._shown['status'], '')}: {reason}" if reason
                               else "Where this person is in your process")
        self.rating.setCurrentIndex(self._shown["rating"] or 0)
        self.tags.setText(", ".join(self._shown["tags"]))
        self.note.setText(self._shown["note"])
        for w in (self.status, self.rating, self.tags, self.note, self.save_btn):
            w.setEnabled(person_id is not None)

    def changes(self) -> dict:
        """The fields that differ from the person's shown state."""
        values = {"status": self.status.currentData(), "rating": self.rating.currentData(),
                  "tags": split_tags(self.tags.text()), "note": self.note.text().strip()}
        return {k: v for k, v in values.items() if v != self._shown.get(k)}

    def save(self) -> None:
        """Ask to save what changed (nothing when nothing changed)."""
        if self.person_id is None:
            return
        changes = self.changes()
        if changes:
            self.save_requested.emit(changes)
