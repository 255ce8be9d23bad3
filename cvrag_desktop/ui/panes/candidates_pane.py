"""Candidates pane: one row per person; filter and search the table, read a record with provenance,
open each of a person's documents in the PDF preview, merge people and split documents out,
manage shortlists, export to CSV and forget people or single documents.

Everything that touches the catalog runs in a worker through ``services`` (and the
shortlist store); the GUI thread only updates models and widgets.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, QSettings, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from cvrag_desktop.cli_output import safe
from cvrag_desktop.export import export_candidates_csv
from cvrag_desktop.ui.errors import InlineMessage, report_error
from cvrag_desktop.ui.models.candidates import CandidateFilterProxy, CandidateTableModel, enrich_row
from cvrag_desktop.ui.panes.shortlist_bar import ShortlistBar, shortlist_store
from cvrag_desktop.ui.tasks import TaskRunner
from cvrag_desktop.ui.widgets.detail import CandidateDetail
from cvrag_desktop.ui.widgets.facets import FacetPanel
from cvrag_desktop.ui.widgets.pdf_preview import PdfPreview

SEARCH_K = 200
TEXT_TIP = ("Filters the table by the words typed (name, title, employers, skills, degrees, languages). "
            "Hybrid search is not available in this build yet, so this is a plain text filter.")
SEARCH_TIP = "Hybrid search (meaning + keywords) over the CVs; results keep the facet filters."


def has_search(services) -> bool:
    """True when the services facade offers hybrid search."""
    return callable(getattr(services, "search", None))


class CandidatesPane(QWidget):
    """Table + facets + detail + preview + shortlists."""

    candidates_changed = Signal()
    loaded = Signal(int)  # number of candidates
    search_done = Signal(int)  # rows visible after a search
    exported = Signal(str, int)

    def __init__(self, services, runner: TaskRunner, qsettings: QSettings | None = None, parent=None) -> None:
        super().__init__(parent)
        self.services = services
        self.runner = runner
        self.qsettings = qsettings
        self.store = shortlist_store(services)
        self.current_id: str | None = None
        self._current_docs: list[str] = []  # the shown person's documents (to find it again after a change)
        self.model = CandidateTableModel(self)
        self.proxy = CandidateFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self._search_timer = QTimer(self, singleShot=True, interval=300)
        self._search_timer.timeout.connect(self._run_search)
        self._build()

    # ---- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        self.message = InlineMessage(self)
        self.search = QLineEdit(placeholderText="Search candidates (Ctrl+F)…", clearButtonEnabled=True)
        self.search.setToolTip(SEARCH_TIP if has_search(self.services) else TEXT_TIP)
        self.search.textChanged.connect(lambda _t: self._search_timer.start())
        self.count_label = QLabel("")
        self.shortlists = ShortlistBar(self.store, self.runner, self)
        self.shortlists.view_changed.connect(self._shortlist_view_changed)
        self.shortlists.error.connect(self._error)
        self.shortlists.changed.connect(self._refresh_detail)
        self.shortlists.add_btn.clicked.connect(lambda: self.shortlists.add(self.selected_ids()))
        self.shortlists.remove_btn.clicked.connect(lambda: self.shortlists.remove(self.selected_ids()))
        self.shortlists.export_btn.clicked.connect(lambda: self.export_view())
        self.shortlists.forget_btn.clicked.connect(self.forget_selected)
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.count_label)
        self.facets = FacetPanel(self)
        self.facets.changed.connect(lambda v: self.proxy.set_filters(**v) or self._update_count())
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(7, Qt.SortOrder.DescendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        for col, width in enumerate((170, 170, 140, 55, 220, 150, 130)):
            self.table.setColumnWidth(col, width)
        self.detail = CandidateDetail()
        self.preview = PdfPreview(self.runner)
        self.detail.provenance_clicked.connect(self._open_provenance)
        self.detail.document_clicked.connect(self.open_document)
        center = QSplitter(Qt.Orientation.Vertical)
        center.addWidget(self.table)
        center.addWidget(self.detail)
        center.setSizes([420, 300])
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.facets)
        self.splitter.addWidget(center)
        self.splitter.addWidget(self.preview)
        self.splitter.setSizes([210, 760, 430])
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addLayout(top)
        layout.addWidget(self.shortlists)
        layout.addWidget(self.splitter, 1)
        if self.qsettings is not None and self.qsettings.value("candidates/splitter"):
            self.splitter.restoreState(self.qsettings.value("candidates/splitter"))

    def save_state(self) -> None:
        """Persist splitter sizes."""
        if self.qsettings is not None:
            self.qsettings.setValue("candidates/splitter", self.splitter.saveState())

    # ---- loading -------------------------------------------------------------------------
    def reload(self) -> None:
        """Fetch the candidate rows (and import times) in a worker; a newer reload supersedes."""
        svc = self.services

        def load(ctx):
            rows = svc.list_people(with_documents=True)
            imported = {f["candidate_id"]: f.get("finished_at") or f.get("created_at")
                        for f in svc.files() if f.get("candidate_id")}
            # a person was last imported when their newest-imported document was
            return [enrich_row(r, max((imported.get(d) or 0 for d in r["document_ids"]), default=0) or None)
                    for r in rows]

        self.runner.start("candidates-load", load, on_result=self._loaded, on_error=self._error)
        self.shortlists.reload()

    def _loaded(self, rows: list[dict]) -> None:
        keep = self.current_id
        self.model.set_rows(rows)
        self.facets.set_rows(rows)
        self._update_count()
        self.loaded.emit(len(rows))
        # the person shown stays shown, though a merge, split or forget may have changed its id
        target = next((p for d in [keep, *self._current_docs] if d and (p := self.model.person_of(d))), None)
        if target:
            self.current_id = target
            self.select_candidate(target)
            self._refresh_detail()  # its documents may have changed
        elif keep:
            self.current_id = None
            self.detail.show_placeholder()
            self.preview.clear()
        if self.search.text().strip():
            self._run_search()

    def _update_count(self) -> None:
        shown, total = self.proxy.rowCount(), self.model.rowCount()
        self.count_label.setText(f"{shown} of {total} candidates" if shown != total else f"{total} candidates")

    # ---- search ------------------------------------------------------------------------
    def focus_search(self) -> None:
        """Ctrl+F."""
        self.search.setFocus()
        self.search.selectAll()

    def _run_search(self) -> None:
        query = self.search.text().strip()
        if not query:
            self.runner.cancel("search")
            self.proxy.set_filters(restrict_ids=None, text="")
            self._after_search()
            return
        if not has_search(self.services):
            self.proxy.set_filters(text=query, restrict_ids=None)
            self._after_search()
            return
        svc = self.services

        def search(ctx):
            hits = svc.search(query, None, SEARCH_K, "hybrid")
            ids = []
            for h in hits:
                cid = h.get("candidate_id") if isinstance(h, dict) else getattr(h, "candidate_id", None)
                if cid and cid not in ids:
                    ids.append(cid)
            return ids

        def failed(exc: BaseException) -> None:  # index missing or broken: fall back honestly
            self.message.show_message(f"Search is unavailable ({exc}); filtering by text instead.", "warning")
            self.proxy.set_filters(text=query, restrict_ids=None)
            self._after_search()

        self.runner.start("search", search, on_result=lambda ids: self._apply_search(ids), on_error=failed)

    def _apply_search(self, ids: list[str]) -> None:
        self.proxy.set_filters(restrict_ids=set(ids), text="")
        self._after_search()

    def _after_search(self) -> None:
        self._update_count()
        self.search_done.emit(self.proxy.rowCount())

    # ---- selection and detail ----------------------------------------------------------
    def selected_ids(self) -> list[str]:
        """Ids of the selected rows (or the current one)."""
        rows = self.table.selectionModel().selectedRows()
        ids = [self.proxy.data(i, CandidateTableModel.IdRole) for i in rows]
        if not ids and self.current_id:
            ids = [self.current_id]
        return ids

    def select_candidate(self, candidate_id: str) -> bool:
        """Select the person a document (or person id) belongs to in the table (if visible)."""
        candidate_id = self.model.person_of(candidate_id) or candidate_id
        for r in range(self.proxy.rowCount()):
            idx = self.proxy.index(r, 0)
            if self.proxy.data(idx, CandidateTableModel.IdRole) == candidate_id:
                self.table.selectionModel().setCurrentIndex(
                    idx, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
                return True
        return False

    def _current_changed(self, current, _previous) -> None:
        if not current.isValid():
            return
        cid = self.proxy.data(current, CandidateTableModel.IdRole)
        if cid != self.current_id:
            self.current_id = cid
            self._refresh_detail()

    def _refresh_detail(self) -> None:
        cid = self.current_id
        self.shortlists.set_candidate(cid)
        if not cid:
            return
        svc, store = self.services, self.store

        row = self.model.row(cid) or {}
        doc_ids = row.get("document_ids") or [cid]
        self._current_docs = list(doc_ids)

        def load(ctx):
            rec = svc.get_candidate(cid)
            documents = svc.person_documents(cid) if len(doc_ids) > 1 else []
            names = list(dict.fromkeys(s.name for d in doc_ids for s in store.memberships(d)))
            return rec, names, documents

        def show(result) -> None:
            rec, memberships, documents = result
            if rec["id"] != self.current_id:
                return
            first_change = self.detail.record is None or self.detail.record.get("id") != rec["id"]
            self.detail.show_record(rec, memberships, documents)
            if first_change:
                self.preview.open(rec.get("stored_path"), 0)

        self.runner.start("candidate-detail", load, on_result=show, on_error=self._error)

    def _open_provenance(self, page: int, bbox) -> None:
        rec = self.detail.record
        if rec:
            self.preview.open(rec.get("stored_path"), page, bbox)

    def open_document(self, candidate_id: str) -> None:
        """Show one of the current person's documents in the PDF preview."""
        doc = next((d for d in self.detail.documents if d["id"] == candidate_id), None)
        if doc is None:
            return
        self.preview.open(doc.get("stored_path"), 0)
        self.detail.mark_shown(candidate_id)

    def _shortlist_view_changed(self, ids: object) -> None:
        self.proxy.set_filters(shortlist_ids=ids)
        self._update_count()

    # ---- actions -------------------------------------------------------------------------
    def _context_menu(self, pos) -> None:
        menu = QMenu(self)
        menu.addAction("Add to shortlist", lambda: self.shortlists.add(self.selected_ids()))
        menu.addAction("Remove from shortlist", lambda: self.shortlists.remove(self.selected_ids()))
        menu.addSeparator()
        merge = menu.addAction("Merge selected into one person", self.merge_selected)
        merge.setEnabled(len(self.selected_ids()) >= 2)
        docs = self.detail.documents if self.detail.record and self.detail.record.get("id") == self.current_id else []
        split = menu.addMenu("Split this document out")
        forget_doc = menu.addMenu("Forget this document…")
        for d in docs:
            text = f"{d.get('cv_date') or d.get('newest_date') or 'undated'} · {d.get('file_name') or d['id']}"
            split.addAction(text, lambda cid=d["id"]: self.split_document(cid))
            forget_doc.addAction(text, lambda cid=d["id"]: self.forget_document(cid))
        split.setEnabled(len(docs) > 1)
        forget_doc.setEnabled(len(docs) > 1)
        menu.addSeparator()
        menu.addAction("Forget person…", self.forget_selected)
        menu.popup(self.table.viewport().mapToGlobal(pos))

    def confirm(self, title: str, text: str) -> bool:
        """Ask a yes/no question (tests replace this)."""
        answer = QMessageBox.question(self, title, text, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def _names(self, ids: list[str]) -> str:
        names = [(self.model.row(i) or {}).get("label") or (self.model.row(i) or {}).get("name") or i for i in ids]
        return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")

    def _changed(self, text: str):
        def done(_result) -> None:
            self.message.show_message(text, "info")
            self.reload()
            self.candidates_changed.emit()

        return done

    def forget_selected(self) -> None:
        """Forget the selected people (every document of each) everywhere, after confirmation."""
        ids = self.selected_ids()
        if not ids:
            self.message.show_message("Select a candidate to forget.", "info")
            return
        n_docs = sum((self.model.row(i) or {}).get("documents") or 1 for i in ids)
        if not self.confirm("Forget people", f"Forget {self._names(ids)} ({n_docs} document(s))?\n\nTheir records, "
                            "stored CV copies and shortlist entries are deleted. This cannot be undone."):
            return
        svc = self.services

        def forget(ctx):
            n, threads = 0, []
            for pid in ids:
                n += len(svc.delete_person(pid))
                threads += svc.last_forget.get("threads_removed") or []
            return n, threads

        self.runner.run(forget, on_result=lambda r: self._changed(
            f"Forgot {len(ids)} person(s), {r[0]} document(s).{forget_note(r[1])}")(r), on_error=self._error)

    def forget_document(self, candidate_id: str) -> None:
        """Forget one document of a person (the person stays with the others), after confirmation."""
        doc = next((d for d in self.detail.documents if d["id"] == candidate_id), {})
        shown = doc.get("file_name") or candidate_id
        if not self.confirm("Forget document", f"Forget the document {shown}?\n\nIts record, stored copy and "
                            "shortlist entries are deleted; the person keeps the other documents. "
                            "This cannot be undone."):
            return
        svc = self.services
        self.runner.run(lambda ctx: svc.delete_candidate(candidate_id),
                        on_result=lambda r: self._changed(
                            f"Forgot the document {safe(shown)}.{forget_note(r.get('threads_removed') or [], r)}")(r),
                        on_error=self._error)

    def merge_selected(self) -> None:
        """Make the selected people one person (remembered), after confirmation."""
        ids = self.selected_ids()
        if len(ids) < 2:
            self.message.show_message("Select two or more people to merge.", "info")
            return
        if not self.confirm("Merge people", f"Merge {self._names(ids)} into one person?\n\nTheir documents are "
                            "shown as one person from now on; split a document out to undo."):
            return
        svc = self.services

        def merge(ctx):
            return svc.merge_people(ids)

        def done(result: dict) -> None:
            self.current_id = result["person_id"]
            self._changed(f"Merged into one person with {len(result['documents'])} documents.")(result)

        self.runner.run(merge, on_result=done, on_error=self._error)

    def split_document(self, candidate_id: str) -> None:
        """Take one document out of its person: it becomes a person of its own (remembered)."""
        svc = self.services
        self.runner.run(lambda ctx: svc.split_document(candidate_id),
                        on_result=self._changed("The document is now a person of its own."), on_error=self._error)

    def export_view(self, path: Path | None = None) -> None:
        """Ctrl+E: the shortlist shown (with notes), or else the current filtered view, to CSV."""
        ids = self.proxy.visible_ids()
        sid = self.shortlists.viewing_id()
        if not ids:
            self.message.show_message("Nothing to export: no candidate is shown.", "info")
            return
        if path is None:
            default = self.shortlists.current_name() if sid else "candidates"
            start = str(self.qsettings.value("export/last_dir", str(Path.home()))) if self.qsettings else ""
            chosen, _ = QFileDialog.getSaveFileName(self, "Export to CSV", str(Path(start) / f"{default}.csv"),
                                                    "CSV (*.csv)")
            if not chosen:
                return
            path = Path(chosen)
            if self.qsettings is not None:
                self.qsettings.setValue("export/last_dir", str(path.parent))
        rows = [self.model.row(i) for i in ids]
        store = self.store

        def write(ctx):
            notes = store.notes(sid) if sid else None
            return str(path), export_candidates_csv(rows, path, notes)

        def done(result) -> None:
            written, n = result
            self.message.show_message(f"Exported {n} candidate(s) to {written}.", "info")
            self.exported.emit(written, n)

        self.runner.run(write, on_result=done, on_error=self._error)

    def _error(self, exc: BaseException) -> None:
        report_error(exc, self.message, self, self.services.paths.log_dir)


def forget_note(threads: list[dict], report: dict | None = None) -> str:
    """What a forget also removed (chat threads) or left pending, for the inline message."""
    note = ""
    if threads:
        titles = "; ".join(safe(t["title"])[:40] for t in threads[:3]) + (" …" if len(threads) > 3 else "")
        note += f" Removed {len(threads)} chat conversation(s) that cited or named them: {titles}."
    if report and report.get("pending"):
        note += f" Pending: {safe(report.get('pending_reason'))}"
    return note
