"""Match a job description: paste it, rank the candidates, read the requirement × candidate matrix.

``AssistantService.match_jd`` runs in a worker. Rows are candidates in rank order,
columns the requirements read from the text (must-haves first, "nice" ones marked);
cells are ✓ met / ✗ not met / ? unknown (the CV does not say). A "met" cell always has
evidence: clicking it opens the CV at the evidence with the lines highlighted. The Flags
column names the must-haves a row misses (a flag, never a rejection) and "Why this rank"
explains a row (``job_match_explain.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from cvrag_desktop.app.rules import (
    shortlist_name,
    top_ids,
    unread_requirements,
)
from cvrag_desktop.ui.blind_mode import blind_match, preview_boxes
from cvrag_desktop.ui.citations import find_tiers, resolve_pdf
from cvrag_desktop.ui.dialogs.save_path import ask_save_path
from cvrag_desktop.ui.panes.job_match_explain import MatchExplain, flags_item
from cvrag_desktop.ui.panes.job_match_saved import SavedMatches
from cvrag_desktop.ui.panes.shortlist_bar import shortlist_store
from cvrag_desktop.ui.shell.errors import InlineMessage, report_error
from cvrag_desktop.ui.shell.fit import remember_size
from cvrag_desktop.ui.shell.tasks import TaskRunner
from cvrag_desktop.ui.widgets.pdf_preview import PdfPreview

TASK = "jobmatch"
FIXED = ("Candidate", "Score", "Met", "Flags")
CELL = {  # status → (mark, tint)
    "met": ("✓ met", QColor(40, 160, 90, 70)),
    "not_met": ("✗ not met", QColor(220, 40, 60, 50)),
    "unknown": ("? unknown", QColor(128, 128, 128, 40)),
}
EVIDENCE_ROLE = Qt.ItemDataRole.UserRole
PLACEHOLDER = ("Paste a job description, e.g.\n\nBackend engineer\nRequirements: Python, Kafka, 5+ years, "
               "a master's degree, fluent English.\nNice to have: Docker")


def requirement_columns(candidates: list[dict]) -> list[tuple[str, bool]]:
    """(label, must) of every requirement, in the matrix order of the first row."""
    cols: list[tuple[str, bool]] = []
    for c in candidates[:1]:
        cols = [(cell["requirement"], bool(cell["must"])) for cell in c["cells"]]
    return cols


class JobMatchDialog(SavedMatches, MatchExplain, QDialog):
    """Non-modal: job description on top, ranked matrix and evidence preview below."""

    matched = Signal(dict)
    exported = Signal(str, int)
    shortlisted = Signal(str, int)  # shortlist name, candidates added
    saved = Signal(dict)  # summary of a match kept in the library
    opened = Signal(int)  # a saved match shown again (its id)

    def __init__(self, services: App, runner: TaskRunner, parent=None) -> None:
        super().__init__(parent)
        self.services = services
        self.runner = runner
        self.blind = None  # the window's BlindMode (ui/blind_mode.py), when blind screening applies here
        self.result: dict | None = None  # as the core returned it (saved, exported, shortlisted)
        self.shown: dict | None = None  # as displayed: in blind mode, identities hidden
        self.unread: list[str] = []
        self.setWindowTitle("Match a job description")
        self.message = InlineMessage(self)
        self.jd = QPlainTextEdit()
        self.jd.setPlaceholderText(PLACEHOLDER)
        self.jd.setMaximumHeight(110)
        self.match_btn = QPushButton("Match candidates")
        self.match_btn.clicked.connect(self.run_match)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.all_btn = QPushButton("Show all")
        self.all_btn.setToolTip("Rank and show every candidate, not only the best")
        self.all_btn.clicked.connect(lambda: self.run_match(everyone=True))
        self.all_btn.setVisible(False)
        self.top_n = QSpinBox(minimum=1, maximum=200, value=5)
        self.top_n.setPrefix("top ")
        self.shortlist_btn = QPushButton("Make a shortlist")
        self.shortlist_btn.setToolTip("Put the best-ranked candidates on a new shortlist (the Candidates pane "
                                      "shows it), each with its score as the note")
        self.export_btn = QPushButton("Export matrix…")
        self.export_btn.setToolTip("Save the requirement × candidate matrix as a CSV file")
        self.shortlist_btn.clicked.connect(lambda: self.make_shortlist())
        self.export_btn.clicked.connect(lambda: self.export_matrix())
        self.why_btn = QPushButton("Why this rank…")
        self.why_btn.setToolTip("Explain the selected candidate's rank: each requirement with its CV line, the "
                                "scoring rule, what a model added (also: double-click a row, or right-click)")
        self.save_btn = QPushButton("Save match")
        self.save_btn.setToolTip("Keep the description and its results in the library")
        self.save_btn.clicked.connect(lambda: self.save_match())
        self.saved_combo = QComboBox()
        self.saved_combo.setMinimumWidth(260)
        self.open_btn = QPushButton("Open")
        self.delete_btn = QPushButton("Delete")
        self.open_btn.clicked.connect(lambda: self.open_saved())
        self.delete_btn.clicked.connect(lambda: self.delete_saved())
        saved_row = QHBoxLayout()
        saved_row.addWidget(QLabel("Saved matches:"))
        saved_row.addWidget(self.saved_combo, 1)
        saved_row.addWidget(self.open_btn)
        saved_row.addWidget(self.delete_btn)
        row = QHBoxLayout()
        row.addWidget(self.match_btn)
        row.addWidget(self.save_btn)
        row.addWidget(self.summary, 1)
        row.addWidget(self.all_btn)
        row.addWidget(self.top_n)
        row.addWidget(self.shortlist_btn)
        row.addWidget(self.export_btn)
        row.addWidget(self.why_btn)
        self.table = QTableWidget(0, len(FIXED))
        self.table.setHorizontalHeaderLabels(list(FIXED))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.cellClicked.connect(self.open_cell)
        self.fixed_columns = len(FIXED)
        self._setup_explain()
        self._sync()
        self.preview = PdfPreview(runner)
        self.preview.clear("Click a ✓ cell to see its evidence in the CV.")
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        split.addWidget(self.preview)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addLayout(saved_row)
        layout.addWidget(self.jd)
        layout.addLayout(row)
        self.refresh_saved()
        layout.addWidget(split, 1)
        self.sizing = remember_size(self, services, "job_match", QSize(1300, 820))  # fitted to the screen
        split.setSizes([int(self.width() * 0.62), int(self.width() * 0.38)])

    def run_match(self, everyone: bool = False) -> None:
        """Match the pasted text in a worker (a newer run supersedes an older one); ``everyone``:
        every ranked candidate, not only the best 20."""
        text = self.jd.toPlainText().strip()
        if not text:
            self.message.show_message("Paste a job description first.", "info")
            return
        self.message.clear_message()
        self.summary.setText("Matching…")
        self.match_btn.setEnabled(False)
        svc = self.services
        limit = None if everyone else 20
        self.runner.start(TASK, self._with_display(lambda: svc.jobs.match_jd(text, limit=limit)),
                          on_result=lambda pair: self.show_result(*pair),
                          on_error=self._error, on_finished=lambda: self.match_btn.setEnabled(True))

    # ---- blind screening --------------------------------------------------------------------
    def set_blind(self, blind) -> None:
        """Follow the window's blind screening: the shown matrix is redrawn when it switches or on a reveal."""
        self.blind = blind
        blind.follow(self, self._redisplay)
        self.preview.follow_blind(blind, self.services)  # the evidence shown is redrawn, boxed or not

    def _with_display(self, fetch):
        """A worker function returning (result, result as displayed): redacted in the worker in blind mode."""
        blind, svc = (self.blind if self.blind is not None and self.blind.enabled else None), self.services

        gen = self.blind.generation if self.blind is not None else 0

        def run(ctx) -> tuple[dict, dict, int]:
            result = fetch()
            if blind is None:
                return result, result, gen
            return result, blind_match(blind, result, svc.people.list_people(with_documents=True)), gen
        return run

    def _redisplay(self) -> None:
        """Show the match again under the current blind state (the matrix covered at once when hiding)."""
        if self.result is not None:
            result = self.result
            if self.blind is not None and self.blind.enabled:
                for r in range(self.table.rowCount()):
                    self.table.setItem(r, 0, QTableWidgetItem("…"))
                    for c in range(len(FIXED), self.table.columnCount()):  # evidence quotes in the tooltips
                        item = self.table.item(r, c)
                        if item is not None:
                            item.setToolTip("")
            self.runner.start(TASK + "-display", self._with_display(lambda: result),  # a running match goes on
                              on_result=lambda out: self.show_result(*out), on_error=self._error)

    def show_result(self, result: dict, shown: dict | None = None, gen: int | None = None) -> None:
        """Fill the matrix: one row per ranked candidate, one column per requirement (``shown``: as displayed;
        ``gen``: the blind state it was redacted under; an older one is shown again under the current)."""
        if gen is not None and self.blind is not None and gen != self.blind.generation:
            self.result = result
            self._redisplay()
            return
        self.result = result
        self.shown = result = shown if shown is not None else result
        cands = result.get("candidates") or []
        cols = requirement_columns(cands)
        self.table.clear()
        self.table.setRowCount(len(cands))
        self.table.setColumnCount(len(FIXED) + len(cols))
        self.table.setHorizontalHeaderLabels(list(FIXED) + [lbl if must else f"{lbl} (nice)" for lbl, must in cols])
        for r, c in enumerate(cands):
            self.table.setItem(r, 0, QTableWidgetItem(c.get("name") or c["candidate_id"]))
            for col, value in ((1, c["score"]), (2, f"{c['met']}/{c['total']}")):
                item = QTableWidgetItem(str(value))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(r, col, item)
            self.table.setItem(r, 3, flags_item(c))
            for k, cell in enumerate(c["cells"]):
                self.table.setItem(r, len(FIXED) + k, self._cell_item(cell, result.get("evidence") or {}))
        self.table.resizeColumnsToContents()
        req = result.get("requirements") or {}
        unread = result.get("unread")  # the core lists what it could not interpret; older results: read here
        if unread is None:
            unread = unread_requirements(self.jd.toPlainText(), [lbl for lbl, _m in cols])
        self.unread = unread
        mode = "rules only (no language model)" if result.get("mode") != "llm" else "rules + language model"
        ranked = result.get("ranked") or len(cands)
        shown_of = f"{len(cands)} candidates ranked" if ranked <= len(cands) else \
            f"Top {len(cands)} of {ranked} candidates ranked"
        self.all_btn.setText(f"Show all {ranked}")
        self.all_btn.setVisible(ranked > len(cands))
        cut = " ".join(n for n in result.get("notes") or [] if n.startswith("Only the first"))
        self.summary.setText(f"{shown_of} · {len(cols)} requirements · read by {mode}. "
                             "Rank = 10 × must-haves met + 3 × nice-to-haves met." + (f" {cut}" if cut else ""))
        if not cols:
            self.message.show_message("No requirement was recognised in this text (skills, years, degree, "
                                      "languages); candidates are in retrieval order.", "warning")
        elif unread:
            self.message.show_message("Not interpreted (no column for it, so it is not checked): "
                                      + ", ".join(unread[:8]) + (" …" if len(unread) > 8 else ""), "warning")
        else:
            self.message.clear_message()
        self.summary.setToolTip(str(req))
        self._sync()
        self.matched.emit(result)

    def _sync(self) -> None:
        ready = bool(self.result and self.result.get("candidates"))
        self.shortlist_btn.setEnabled(ready)
        self.save_btn.setEnabled(bool(self.result))
        self.export_btn.setEnabled(ready)
        self.top_n.setEnabled(ready)
        self._sync_why()

    def make_shortlist(self) -> None:
        """A new shortlist with the top N candidates, each noted with its score (in a worker)."""
        if not self.result:
            return
        result, n, text, svc = self.result, self.top_n.value(), self.jd.toPlainText(), self.services

        def make(ctx):
            store = shortlist_store(svc)  # in the worker: reaching the catalog may open it
            sl = store.create(shortlist_name(text, [s.name for s in store.list()]))
            by_id = {c["candidate_id"]: c for c in result["candidates"]}
            added = 0
            for cid in top_ids(result, n):
                c = by_id[cid]
                added += store.add(sl.shortlist_id, [cid], note=f"Job match: score {c['score']}, "
                                                              f"{c['met']}/{c['total']} requirements met")
            return sl.name, added

        def done(r) -> None:
            self.message.show_message(f"Shortlist “{r[0]}” made with {r[1]} candidate(s).", "info")
            self.shortlisted.emit(*r)

        self.runner.run(make, on_result=done, on_error=self._error)

    def export_matrix(self, path: Path | None = None) -> None:
        """Save the matrix as CSV (asks where unless ``path`` is given)."""
        if not self.result:
            return
        if path is None:
            path = ask_save_path(self, getattr(self, "qsettings", None), "Export the matrix", "job-match.csv",
                                 "CSV (*.csv)")
            if path is None:
                return
        result, svc = self.result, self.services
        blind = self.blind is not None and self.blind.enabled  # blind: pseudonyms in the file, even for a reveal

        def done(n: int) -> None:
            self.message.show_message(f"Exported {n} candidate(s) to {path}.", "info")
            self.exported.emit(str(path), n)

        self.runner.run(lambda ctx: svc.jobs.export_match_csv(result, path, blind), on_result=done, on_error=self._error)

    def _cell_item(self, cell: dict, evidence: dict) -> QTableWidgetItem:
        mark, tint = CELL.get(cell["status"], CELL["unknown"])
        item = QTableWidgetItem(mark)
        item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
        item.setBackground(QBrush(tint))
        ev = evidence.get(cell.get("evidence_id") or "")
        if cell["status"] == "met" and ev:
            if cell.get("kind") in ("skill", "language"):  # highlight the skill itself, else the quoted lines
                ev = {**ev, "facts": [{"kind": cell["kind"], "value": cell["requirement"]}]}
            item.setData(EVIDENCE_ROLE, ev)
            item.setToolTip(f"{ev.get('section')} · page {int(ev.get('page') or 0) + 1}: {ev.get('quote', '')[:200]}"
                            "\nClick to open the CV here.")
        elif cell["status"] == "unknown":
            item.setToolTip("The CV does not say.")
        return item

    def open_cell(self, row: int, col: int) -> None:
        """A met cell (or the name) opens the CV; met cells at their evidence."""
        item = self.table.item(row, col)
        ev = item.data(EVIDENCE_ROLE) if item is not None else None
        if ev is None and col == 0 and self.result:
            ev = {"candidate_id": self.result["candidates"][row]["candidate_id"], "page": None}
        if not ev:
            return
        svc, page = self.services, ev.get("page")
        bbox = ev.get("bbox") if page is not None else None
        find = find_tiers(ev) if page is not None else None
        cand = (self.result or {}).get("candidates", [])[row] if self.result else {}
        hide = self.blind is not None and self.blind.hides(cand.get("person_id") or ev["candidate_id"],
                                                           [ev["candidate_id"]])

        def load(ctx) -> tuple:
            return resolve_pdf(svc, ev), (preview_boxes(svc, ev["candidate_id"]) if hide else [])

        def shown(out: tuple) -> None:
            path, self.preview.redactions = out  # blind screening: black boxes over the identity
            self.preview.subject = (cand.get("person_id"), ev["candidate_id"])  # redrawn when blind switches
            self.preview.open(path, page or 0, bbox, find)

        self.runner.start("jobmatch-preview", load, on_result=shown, on_error=self._error)

    def _error(self, exc: BaseException) -> None:
        self.summary.setText("")
        report_error(exc, self.message, self, self.services.paths.log_dir)
