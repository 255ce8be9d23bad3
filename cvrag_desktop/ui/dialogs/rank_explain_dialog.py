"""The "Why this rank" dialog: one row's explanation (``services.explain_match`` / ``explain_search``).

Each requirement (a job match's column, or a search word) is a row: met / not met / unknown,
its points and the CV line that shows it (file, page). Clicking a cited line emits
:attr:`RankExplainDialog.citation_clicked` with the evidence; the owner (the job-match dialog,
the Candidates pane) opens its preview there (:func:`open_citation`). Below: the flags (a
missed must-have is a flag, never a rejection), the scoring rule, what a model added, and the
oversight note. "Export for the candidate…" writes the candidate-facing file in a worker
(``services.export_explanation``; nobody else named, audited). The explanation is computed
in a worker by the caller and given here as shown (redacted in blind mode).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from cvrag_desktop.app.rules import MARK, STATUS, headline, row_pseudonym
from cvrag_desktop.ui.blind_mode import blind_result, preview_boxes
from cvrag_desktop.ui.citations import resolve_pdf
from cvrag_desktop.ui.shell.errors import InlineMessage, report_error

COLUMNS = ("Requirement", "Kind", "Result", "Points", "Cited CV line")
LINE_COL = 4
EVIDENCE_ROLE = Qt.ItemDataRole.UserRole
TINT = {"met": QColor(40, 160, 90, 70), "not_met": QColor(220, 40, 60, 50), "unknown": QColor(128, 128, 128, 40)}


def where(ev: dict) -> str:
    """"file.pdf, p. 2" of a citation."""
    return f"{ev.get('file') or 'CV'}" + (f", p. {ev['page']}" if ev.get("page") else "")


class RankExplainDialog(QDialog):
    """Why one candidate has their rank; non-modal, one per explained row."""

    citation_clicked = Signal(dict)  # the evidence of a cited line (candidate_id, page 1-based, bbox, line)
    exported = Signal(str)  # the file written

    def __init__(self, services: App, runner, explanation: dict, title: str | None = None, parent=None,
                 blind: bool = False) -> None:
        super().__init__(parent)
        self.services = services
        self.runner = runner
        self.explanation = explanation
        self.title = title
        self.blind = blind  # whether the identity is hidden in what is shown
        self.raw: dict | None = None  # the explanation as computed, when the dialog follows blind screening
        self._blind_mode = None
        self._stale = False
        self.message = InlineMessage(self)
        self.headline = QLabel()
        self.headline.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.cellClicked.connect(self.open_row)
        self.flags = QLabel()
        self.flags.setWordWrap(True)
        self.rule, self.model, self.oversight = QLabel(), QLabel(), QLabel()
        for lbl in (self.rule, self.model, self.oversight):
            lbl.setWordWrap(True)
            lbl.setTextFormat(Qt.TextFormat.RichText)
        self.export_btn = QPushButton("Export for the candidate…")
        self._render()
        self.export_btn.clicked.connect(lambda: self.export())
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.export_btn)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        for w in (self.message, self.headline):
            layout.addWidget(w)
        layout.addWidget(self.table, 1)
        for w in (self.flags, self.rule, self.model, self.oversight):
            layout.addWidget(w)
        layout.addLayout(buttons)
        self.resize(900, 560)

    def _render(self) -> None:
        """Show :attr:`explanation` (as it is to be displayed: redacted when :attr:`blind`)."""
        expl, blind = self.explanation, self.blind
        self.setWindowTitle(f"Why this rank — {expl.get('name') or 'candidate'}")
        self.headline.setText(headline(expl, self.title))
        self._fill()
        self.flags.setText(self._flags_text())
        self.rule.setText("<b>How the rank is computed.</b> " + _esc(expl["rule"]))
        self.model.setText("<b>What a model added.</b> " + _esc(expl["model"]["text"]))
        self.oversight.setText("<i>" + _esc(expl["oversight"]) + "</i>")
        self.export_btn.setToolTip("Save this explanation as HTML or text for the candidate: their own "
                                   "requirements and CV lines, no other candidate, no internal ids (audited)"
                                   + (". Blind screening: the file shows the pseudonym; reveal the identity "
                                      "first to put the name in it." if blind else ""))

    # ---- blind screening ---------------------------------------------------------------------
    def follow(self, blind_mode, raw: dict) -> None:
        """Obey the window's blind screening (``ui/blind_mode.BlindMode``): ``raw`` (the explanation as computed)
        is shown again, redacted or not, when it switches or on a reveal."""
        self.raw, self._blind_mode = raw, blind_mode
        blind_mode.follow(self, self.blind_redraw)

    def blind_redraw(self) -> None:
        """Show the explanation again under the current blind state (redacted in a worker; covered at once
        when the identity is to be hidden). A closed dialog redraws when it is shown again."""
        bm, raw, svc = self._blind_mode, self.raw, self.services
        if bm is None or raw is None:
            return
        if not self.isVisible():
            self._stale = True
            return
        self._stale = False
        pid = raw.get("person_id") or raw["candidate_id"]
        if bm.hides(pid, [raw["candidate_id"]]):
            self.setWindowTitle("Why this rank")
            for lbl in (self.headline, self.flags, self.rule, self.model, self.oversight):
                lbl.setText("Blind screening: hiding the identity…")
            self.table.setRowCount(0)

        def done(out: tuple) -> None:
            self.explanation, self.blind = out
            self._render()

        self.runner.start(f"explain-redraw-{id(self):x}",
                          lambda ctx: (shown_explanation(svc, bm, raw), bm.hides(pid, [raw["candidate_id"]])),
                          on_result=done, on_error=lambda exc: report_error(exc, self.message, self, svc.paths.log_dir))

    def showEvent(self, event) -> None:
        """Shown again after a switch while it was closed: redraw first."""
        super().showEvent(event)
        if self._stale:
            self.blind_redraw()

    def _fill(self) -> None:
        expl = self.explanation
        rows = expl["requirements"]
        self.table.setRowCount(len(rows))
        for r, req in enumerate(rows):
            kind = ("must-have" if req["must"] else "nice-to-have") if expl["kind"] == "job_match" else "search word"
            status = req.get("status") or "unknown"
            cells = [req["requirement"], kind, f"{MARK.get(status, '?')} {STATUS.get(status, status)}",
                     "" if req.get("points") is None else str(req["points"]), ""]
            ev = req.get("evidence")
            if ev:
                cells[LINE_COL] = f"{where(ev)}: “{ev.get('line') or ''}”"
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == 2:
                    item.setBackground(QBrush(TINT.get(status, TINT["unknown"])))
                if c == LINE_COL and ev:
                    item.setData(EVIDENCE_ROLE, {**ev, "candidate_id": ev.get("candidate_id") or expl["candidate_id"]})
                    item.setToolTip("Click to open the CV at this line.")
                    item.setForeground(QBrush(QColor(30, 90, 200)))
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()

    def _flags_text(self) -> str:
        expl, parts = self.explanation, []
        if expl.get("flags"):
            what = "Must-haves not met" if expl["kind"] == "job_match" else "Search words the CV does not state"
            parts.append(f"⚑ {what}: {', '.join(expl['flags'])} — a flag for you to read, not a rejection.")
        if expl.get("unknown"):
            parts.append(f"? The CV does not say: {', '.join(expl['unknown'])}.")
        if expl.get("not_read"):
            parts.append(f"Not interpreted, so not checked for anyone: {', '.join(expl['not_read'])}.")
        return "\n".join(parts) or "No flag: every requirement is met."

    def evidence_at(self, row: int) -> dict | None:
        """The evidence of a row's cited line (None when the row cites nothing)."""
        item = self.table.item(row, LINE_COL)
        return item.data(EVIDENCE_ROLE) if item is not None else None

    def open_row(self, row: int, _col: int = LINE_COL) -> None:
        """A row with a cited line: ask the owner to open the CV there."""
        ev = self.evidence_at(row)
        if ev:
            self.citation_clicked.emit(ev)

    def export(self, path: Path | None = None) -> None:
        """Write the candidate-facing explanation (asks where unless ``path`` is given), in a worker."""
        if path is None:
            chosen, _ = QFileDialog.getSaveFileName(self, "Export for the candidate",
                                                    str(Path.home() / "why-this-rank.html"),
                                                    "HTML (*.html);;Text (*.txt)")
            if not chosen:
                return
            path = Path(chosen)
        svc, expl, title = self.services, self.explanation, self.title

        def done(written) -> None:
            self.message.show_message(f"Saved the explanation for the candidate to {written}.", "info")
            self.exported.emit(str(written))

        self.runner.run(lambda ctx: svc.jobs.export_explanation(expl, path, title), on_result=done,
                        on_error=lambda exc: report_error(exc, self.message, self, svc.paths.log_dir))


def _esc(text: str) -> str:
    import html

    return html.escape(text or "")


def shown_explanation(services: App, blind, expl: dict) -> dict:
    """The explanation as displayed (call in a worker): in blind mode a hidden person's name becomes
    their pseudonym, names or contacts are cut from every cited line, and file names are left out."""
    if blind is None or not blind.enabled or not blind.hides(expl.get("person_id") or expl["candidate_id"],
                                                             [expl["candidate_id"]]):
        return expl
    shown = blind_result(blind, expl, services.people.list_people(with_documents=True))
    shown["name"] = row_pseudonym(expl)  # the person's pseudonym, as in the table and the matrix
    for ev in [r.get("evidence") for r in shown.get("requirements") or []] + [shown.get("best_passage")]:
        if ev:
            ev["file"] = "CV"  # a file name often carries the person's name
    return shown


def open_citation(preview, runner, services: App, ev: dict, hide: bool, on_error, key: str = "explain-preview") -> None:
    """Open ``preview`` at a cited line (the library copy; the page and line highlighted), resolved in a
    worker; ``hide``: blind screening, black boxes over the identity."""
    page = (ev.get("page") or 1) - 1
    words = (ev.get("line") or "").split()
    find = [[" ".join(words[i:i + 4]) for i in range(0, len(words), 4)][:8]] if words else None

    def load(ctx) -> tuple:
        return resolve_pdf(services, ev), (preview_boxes(services, ev["candidate_id"]) if hide else [])

    def shown(out: tuple) -> None:
        path, preview.redactions = out
        preview.subject = (ev.get("person_id"), ev["candidate_id"])  # a following preview redraws on a switch
        preview.open(path, page, ev.get("bbox"), find)

    runner.start(key, load, on_result=shown, on_error=on_error)
