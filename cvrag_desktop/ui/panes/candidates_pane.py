"""Candidates pane: one row per person; filter and search the table, read a record with provenance,
open each of a person's documents in the PDF preview, merge people and split documents out,
manage shortlists, export to CSV and forget people or single documents.

Everything that touches the catalog runs in a worker through the application layer (and the
shortlist store); the GUI thread only updates models and widgets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from cvrag_desktop.ui.models.candidate_filter import CandidateFilterProxy
from cvrag_desktop.ui.models.candidates import (
    COLUMNS,
    IMPORTED_COL,
    NAME_COL,
    RATING_COL,
    REL_COL,
    SEARCH_COLS,
    SNIPPET_COL,
    STATUS_COL,
    CandidateTableModel,
    enrich_row,
)
from cvrag_desktop.ui.panes.candidate_actions import CandidateActions, forget_note  # noqa: F401 (re-export)
from cvrag_desktop.ui.panes.candidate_screening import ScreeningActions
from cvrag_desktop.ui.panes.candidate_search import SEARCH_TIP, TEXT_TIP, RankedSearch, has_search
from cvrag_desktop.ui.panes.shortlist_bar import ShortlistBar, shortlist_store
from cvrag_desktop.ui.shell.errors import InlineMessage, report_error
from cvrag_desktop.ui.shell.tasks import TaskRunner
from cvrag_desktop.ui.widgets.column_chooser import ColumnChooser
from cvrag_desktop.ui.widgets.detail import CandidateDetail
from cvrag_desktop.ui.widgets.facets import FacetPanel
from cvrag_desktop.ui.widgets.pdf_preview import PdfPreview
from cvrag_desktop.ui.widgets.relevance import RelevanceBarDelegate, SnippetDelegate
from cvrag_desktop.ui.widgets.saved_searches import SavedSearchBar
from cvrag_desktop.ui.widgets.screening_editor import ScreeningEditor
from cvrag_desktop.ui.widgets.welcome import WelcomePanel

# name, title, company, years, skills, degree, languages, imported, documents, (search), status, rating, tags
WIDTHS = (170, 170, 140, 55, 220, 150, 130, 120, 95, 70, 320, 90, 80, 140)
HIDDEN_BY_DEFAULT = (5, 6, 8)  # degree, languages, documents: the column chooser brings them back


class CandidatesPane(RankedSearch, ScreeningActions, CandidateActions, QWidget):
    """Table + facets + detail + preview + shortlists."""

    candidates_changed = Signal()
    loaded = Signal(int)  # number of candidates
    search_done = Signal(int)  # rows visible after a search
    exported = Signal(str, int)
    screening_saved = Signal(object)  # person id -> new state

    blind = None  # the main window's BlindMode (ui/blind_mode.py): identities hidden when it is on

    def __init__(self, services: App, runner: TaskRunner, qsettings: QSettings | None = None, parent=None) -> None:
        super().__init__(parent)
        self.services = services
        self.runner = runner
        self.qsettings = qsettings
        self.store = shortlist_store(services)
        self.current_id: str | None = None
        self._restoring = False
        self._filtering = False
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
        self.weaker_btn = QPushButton("")  # "Show weaker matches (N)": the people below the relevance floor
        self.weaker_btn.setCheckable(True)
        self.weaker_btn.setVisible(False)
        self.weaker_btn.setToolTip("People whose CVs state too little of the search words are hidden; "
                                   "tick to show them after the main matches.")
        self.weaker_btn.toggled.connect(self._weaker_toggled)
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.weaker_btn)
        top.addWidget(self.count_label)
        self.facets = FacetPanel(self)
        self.facets.changed.connect(self._facets_changed)
        self.saved_bar = SavedSearchBar(self)
        self.saved_bar.chosen.connect(self.apply_saved_search)
        self.saved_bar.save_requested.connect(self.save_search)
        self.saved_bar.delete_requested.connect(self.delete_search)
        self.screening_editor = ScreeningEditor(self)
        self.screening_editor.save_requested.connect(self._save_screening)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(IMPORTED_COL, Qt.SortOrder.DescendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)  # more rows on a laptop
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        for col, width in enumerate(WIDTHS):
            self.table.setColumnWidth(col, width)
        self.table.horizontalHeader().setToolTip("Right-click a column title to choose the columns")
        self.table.setItemDelegateForColumn(REL_COL, RelevanceBarDelegate(self.table))
        self.table.setItemDelegateForColumn(SNIPPET_COL, SnippetDelegate(self.table))
        self._setup_search_columns()
        self.columns = ColumnChooser(self.table, [t for t, _k in COLUMNS], fixed=(NAME_COL,),
                                     managed_elsewhere=SEARCH_COLS, qsettings=self.qsettings,
                                     key="candidates/hidden_columns", hidden_by_default=HIDDEN_BY_DEFAULT)
        header = self.table.horizontalHeader()
        for col, after in ((STATUS_COL, 2), (RATING_COL, STATUS_COL)):  # the recruiter's decisions near the name
            header.moveSection(header.visualIndex(col), header.visualIndex(after) + 1)
        self.detail = CandidateDetail()
        self.preview = PdfPreview(self.runner)
        self.detail.provenance_clicked.connect(self._open_provenance)
        self.detail.document_clicked.connect(self.open_document)
        self.detail.link_clicked.connect(lambda url: QDesktopServices.openUrl(url))
        record = QWidget()
        record_layout = QVBoxLayout(record)
        record_layout.setContentsMargins(0, 0, 0, 0)
        record_layout.addWidget(self.screening_editor)
        record_layout.addWidget(self.detail, 1)
        center = QSplitter(Qt.Orientation.Vertical)
        center.addWidget(self.table)
        center.addWidget(record)
        center.setSizes([420, 300])
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.saved_bar)
        side_layout.addWidget(self.facets, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(side)
        self.splitter.addWidget(center)
        self.splitter.addWidget(self.preview)
        self.splitter.setSizes([200, 560, 450])  # fits a 1366-pixel window; more width is shared by table and preview
        self.splitter.setStretchFactor(1, 1)  # extra width goes to the table and record, and the preview
        self.splitter.setStretchFactor(2, 1)
        self.main_view = QWidget()
        main = QVBoxLayout(self.main_view)
        main.setContentsMargins(0, 0, 0, 0)
        main.addLayout(top)
        main.addWidget(self.shortlists)
        main.addWidget(self.splitter, 1)
        self.welcome = WelcomePanel(self)
        self.views = QStackedWidget()
        self.views.addWidget(self.main_view)
        self.views.addWidget(self.welcome)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.views, 1)
        if self.qsettings is not None and self.qsettings.value("candidates/splitter"):
            self.splitter.restoreState(self.qsettings.value("candidates/splitter"))

    def save_state(self) -> None:
        """Persist splitter sizes."""
        if self.qsettings is not None:
            self.qsettings.setValue("candidates/splitter", self.splitter.saveState())

    # ---- loading -------------------------------------------------------------------------
    def reload(self) -> None:
        """Fetch the candidate rows (and import times) in a worker; a newer reload supersedes."""
        svc, blind = self.services, self.blind

        def load(ctx):
            rows = svc.people.list_people(with_documents=True)
            states = svc.screening.states({r["id"]: r["document_ids"] for r in rows})
            for r in rows:
                r["screening"] = states[r["id"]].as_dict()
            imported = {f["candidate_id"]: f.get("finished_at") or f.get("created_at")
                        for f in svc.library.files() if f.get("candidate_id")}
            # a person was last imported when their newest-imported document was
            rows = [enrich_row(r, max((imported.get(d) or 0 for d in r["document_ids"]), default=0) or None)
                    for r in rows]
            return blind.table_rows(rows) if blind is not None else rows  # blind: redacted here, off the GUI

        self.runner.start("candidates-load", load, on_result=self._loaded, on_error=self._error)
        self.shortlists.reload()
        self.load_saved_searches(self.saved_bar.combo.currentData())

    def _loaded(self, rows: list[dict]) -> None:
        keep, docs = self.current_id, list(self._current_docs)
        self._restoring = True
        try:
            self.model.set_rows(rows)
            self.facets.set_rows(rows)
        finally:
            self._restoring = False
        self.views.setCurrentWidget(self.main_view if rows else self.welcome)  # first run: what to do
        self.loaded.emit(len(rows))
        # the person shown stays shown, though a merge, split or forget may have changed its id
        target = next((p for d in [keep, *docs] if d and (p := self.model.person_of(d))), None)
        if target:
            self.current_id = target
            self.select_candidate(target)
            self._refresh_detail()  # its documents may have changed
        elif keep:
            self.clear_detail()
        self._filters_changed()
        if self.search.text().strip():
            self._run_search()

    def blind_changed(self, *_args) -> None:
        """Blind screening switched (or someone revealed): the table, the record and the search snippets
        are read and shown again under the new state, the selection kept; the record shown is covered at
        once when identities are to be hidden (the preview redraws itself: ``PdfPreview.follow_blind``)."""
        if self.blind is not None and self.blind.enabled:
            self.model.cover_identity()
            if self.detail.record is not None:
                self.detail.cover("Blind screening: hiding the identity…")
        self.reload()

    def clear_detail(self, text: str = "Select a candidate to see the record.") -> None:
        """Nothing selected: no record, no preview, no shortlist note (a hidden person's data must not linger)."""
        self.current_id = None
        self._current_docs = []
        self.runner.cancel("candidate-detail")
        self.table.selectionModel().clearSelection()
        self.table.selectionModel().setCurrentIndex(QModelIndex(), QItemSelectionModel.SelectionFlag.NoUpdate)
        self.detail.show_placeholder(text)
        self.preview.clear("Select a candidate to preview the CV.")
        self.shortlists.set_candidate(None)
        self.screening_editor.set_person(None)

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
        if not current.isValid() or self._filtering:  # a filter moved the cursor, not the user
            return
        cid = self.proxy.data(current, CandidateTableModel.IdRole)
        if cid != self.current_id:
            self.current_id = cid
            self._refresh_detail()

    def _refresh_detail(self) -> None:
        cid = self.current_id
        self.shortlists.set_candidate(cid)
        self._show_screening()
        if not cid:
            return
        svc, store = self.services, self.store

        row = self.model.row(cid) or {}
        doc_ids = row.get("document_ids") or [cid]
        self._current_docs = list(doc_ids)

        def load(ctx):
            rec = svc.people.get_candidate(cid)
            documents = svc.people.person_documents(cid) if len(doc_ids) > 1 else []
            names = list(dict.fromkeys(s.name for d in doc_ids for s in store.memberships(d)))
            return rec, names, documents

        def show(result) -> None:
            rec, memberships, documents = result
            if rec["id"] != self.current_id:
                return
            first_change = self.detail.record is None or self.detail.record.get("id") != rec["id"]
            if self.blind is not None:  # blind screening: redacted record, black boxes over the identity
                rec, documents, boxes = self.blind.detail(rec, documents, self.current_id)
                if first_change:  # a page already shown is redrawn by the preview itself (follow_blind)
                    self.preview.redactions = boxes
            self.detail.show_record(rec, memberships, documents)
            if first_change:
                self._preview_first(rec)

        self.runner.start("candidate-detail", load, on_result=show, on_error=self._error)

    def _preview_first(self, rec: dict) -> None:
        """The CV of a newly selected person: at the best passage during a search, else page 1."""
        self._preview_rec = rec  # a newer search re-lights this CV with its own words (_after_search)
        hit = self.best_hit(rec["id"])
        self.preview.subject = (self.current_id, hit.document_id if hit is not None else rec["id"])
        if hit is None:
            self.preview.open(rec.get("stored_path"), 0)
            return
        docs = (self.model.row(rec["id"]) or {}).get("document_rows") or []
        path = next((d.get("stored_path") for d in docs if d.get("id") == hit.document_id), rec.get("stored_path"))
        name_words = set(str(rec.get("name") or "").casefold().split())
        at_name = bool(hit.terms) and all(t.casefold() in name_words for t in hit.terms)
        page = 0 if at_name else (hit.page or 0)  # a name search opens where the name is, not at a footer
        self.preview.open(path, page, None, [hit.terms] if hit.terms else None)
        if hit.document_id != rec["id"]:
            self.detail.mark_shown(hit.document_id)

    def _open_provenance(self, page: int, bbox) -> None:
        rec = self.detail.record
        if rec:
            self.preview.open(rec.get("stored_path"), page, bbox)

    def open_document(self, candidate_id: str) -> None:
        """Show one of the current person's documents in the PDF preview."""
        doc = next((d for d in self.detail.documents if d["id"] == candidate_id), None)
        if doc is None:
            return
        if self.preview.redactions and candidate_id != (self.detail.record or {}).get("id"):
            self.preview.clear("Blind screening: only the person's main CV is previewed (with redactions).")
            return
        self.preview.subject = (self.current_id, candidate_id)
        self.preview.open(doc.get("stored_path"), 0)
        self.detail.mark_shown(candidate_id)

    def _error(self, exc: BaseException) -> None:
        report_error(exc, self.message, self, self.services.paths.log_dir)


