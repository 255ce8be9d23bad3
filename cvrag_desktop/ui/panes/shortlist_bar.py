"""The shortlist bar of the Candidates pane: pick, create, rename, delete shortlists;
add and remove candidates; edit the note of the current candidate; view one shortlist.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from cvrag_desktop.errors import InvalidInput
from cvrag_desktop.ui.shell.tasks import TaskRunner


def shortlist_store(app: App):
    """The library's shortlists (``app.screening.shortlists``)."""
    return app.screening.shortlists


class ShortlistBar(QWidget):
    """Shortlist controls; every catalog access runs in a worker."""

    view_changed = Signal(object)  # set of ids shown, or None for all candidates
    changed = Signal()  # membership or note changed
    error = Signal(object)
    loaded = Signal()

    def __init__(self, store, runner: TaskRunner, parent=None) -> None:
        super().__init__(parent)
        self.store = store
        self.runner = runner
        self.candidate_id: str | None = None
        self._ids: set[str] = set()
        self.combo = QComboBox()
        self.combo.setMinimumWidth(200)
        self.combo.setToolTip("Shortlist to add to, view and export")
        self.only = QCheckBox("Only this list")
        self.new_btn = QPushButton("New…")
        self.rename_btn = QPushButton("Rename…")
        self.delete_btn = QPushButton("Delete")
        self.add_btn = QPushButton("Add to list")
        self.remove_btn = QPushButton("Remove")
        self.note = QLineEdit(placeholderText="Note on this list")
        self.save_note_btn = QPushButton("Save note")
        self.export_btn = QPushButton("Export CSV…")
        self.export_btn.setToolTip("Export the list shown (with notes) or the filtered table (Ctrl+E)")
        self.forget_btn = QPushButton("Forget…")
        rows = QVBoxLayout(self)
        rows.setContentsMargins(0, 0, 0, 0)
        first, second = QHBoxLayout(), QHBoxLayout()
        first.addWidget(QLabel("Shortlist:"))
        for w in (self.combo, self.only, self.new_btn, self.rename_btn, self.delete_btn):
            first.addWidget(w)
        first.addStretch(1)
        first.addWidget(self.export_btn)
        for w in (self.add_btn, self.remove_btn):
            second.addWidget(w)
        second.addWidget(self.note, 1)
        second.addWidget(self.save_note_btn)
        second.addWidget(self.forget_btn)
        rows.addLayout(first)
        rows.addLayout(second)
        self.combo.currentIndexChanged.connect(lambda _i: self._selection_changed())
        self.only.toggled.connect(lambda _b: self._emit_view())
        self.new_btn.clicked.connect(lambda: self.create(self.ask_name("New shortlist", "")))
        self.rename_btn.clicked.connect(lambda: self.rename(self.ask_name("Rename shortlist", self.current_name())))
        self.delete_btn.clicked.connect(self.delete_current)
        self.save_note_btn.clicked.connect(self.save_note)
        self.note.returnPressed.connect(self.save_note)
        self._sync()

    # ---- state -------------------------------------------------------------------------
    def current_id(self) -> int | None:
        """The shortlist picked in the combo."""
        return self.combo.currentData()

    def current_name(self) -> str:
        """Its name (without the size)."""
        sid = self.current_id()
        return self.combo.currentText().rsplit(" (", 1)[0] if sid else ""

    def viewing_id(self) -> int | None:
        """The shortlist the table is restricted to, if any."""
        return self.current_id() if self.only.isChecked() else None

    def ask_name(self, title: str, default: str) -> str | None:
        """Prompt for a shortlist name (tests replace this)."""
        text, ok = QInputDialog.getText(self, title, "Name:", text=default)
        return text if ok else None

    # ---- loading -----------------------------------------------------------------------
    def reload(self, select: int | None = None) -> None:
        """Re-read the shortlists (and the members of the current one)."""
        store = self.store
        self.runner.start("shortlists-load", lambda ctx: store.list(),
                          on_result=lambda lists: self._fill(lists, select), on_error=self.error.emit)

    def _fill(self, lists, select: int | None) -> None:
        keep = select if select is not None else self.current_id()
        self.combo.blockSignals(True)
        self.combo.clear()
        for s in lists:
            self.combo.addItem(f"{s.name} ({s.size})", s.shortlist_id)
        idx = self.combo.findData(keep) if keep is not None else 0
        self.combo.setCurrentIndex(max(idx, 0) if lists else -1)
        self.combo.blockSignals(False)
        self._selection_changed()
        self.loaded.emit()

    def _selection_changed(self) -> None:
        sid = self.current_id()
        store = self.store
        if sid is None:
            self._ids = set()
            self._emit_view()
            self._sync()
            return
        self.runner.start("shortlist-items", lambda ctx: store.items(sid),
                          on_result=self._items_loaded, on_error=self.error.emit)

    def _items_loaded(self, items) -> None:
        self._ids = {i.candidate_id for i in items}
        self._notes = {i.candidate_id: i.note for i in items}
        self._emit_view()
        self._show_note()
        self._sync()

    def _emit_view(self) -> None:
        self.view_changed.emit(set(self._ids) if self.only.isChecked() and self.current_id() is not None else None)

    def set_candidate(self, candidate_id: str | None) -> None:
        """The candidate whose note the bar edits."""
        self.candidate_id = candidate_id
        self._show_note()
        self._sync()

    def _show_note(self) -> None:
        notes = getattr(self, "_notes", {})
        self.note.setText(notes.get(self.candidate_id, "") if self.candidate_id else "")

    def _sync(self) -> None:
        has_list = self.current_id() is not None
        on_list = has_list and self.candidate_id in self._ids
        for w in (self.rename_btn, self.delete_btn, self.add_btn, self.remove_btn, self.only):
            w.setEnabled(has_list)
        self.note.setEnabled(on_list)
        self.save_note_btn.setEnabled(on_list)

    # ---- changes (workers) -------------------------------------------------------------
    def _write(self, fn, then=None) -> None:
        def ok(result) -> None:
            if then:
                then(result)
            self.changed.emit()

        self.runner.run(lambda ctx: fn(), on_result=ok, on_error=self.error.emit)

    def create(self, name: str | None) -> None:
        """Make a new shortlist and select it."""
        if name is None:
            return
        self._write(lambda: self.store.create(name), lambda s: self.reload(select=s.shortlist_id))

    def rename(self, name: str | None) -> None:
        """Rename the current shortlist."""
        sid = self.current_id()
        if name is None or sid is None:
            return
        self._write(lambda: self.store.rename(sid, name), lambda s: self.reload(select=sid))

    def delete_current(self) -> None:
        """Delete the current shortlist (the candidates stay)."""
        sid = self.current_id()
        if sid is not None:
            self._write(lambda: self.store.delete(sid), lambda _r: self.reload())

    def add(self, ids: list[str]) -> None:
        """Put candidates on the current shortlist."""
        sid = self.current_id()
        if sid is None:
            self.error.emit(InvalidInput("Create a shortlist first (New…)."))
            return
        if ids:
            self._write(lambda: self.store.add(sid, ids), lambda _n: self.reload(select=sid))

    def remove(self, ids: list[str]) -> None:
        """Take candidates off the current shortlist."""
        sid = self.current_id()
        if sid is not None and ids:
            self._write(lambda: self.store.remove(sid, ids), lambda _n: self.reload(select=sid))

    def save_note(self) -> None:
        """Store the note of the current candidate on the current shortlist."""
        sid, cid, text = self.current_id(), self.candidate_id, self.note.text()
        if sid is None or not cid:
            return
        self._write(lambda: self.store.set_note(sid, cid, text), lambda _r: self.reload(select=sid))
