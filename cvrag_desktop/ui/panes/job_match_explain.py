"""Flags and "Why this rank" in the job-match dialog (a mixin of
:class:`~cvrag_desktop.ui.panes.job_match.JobMatchDialog`).

The Flags column names a row's missed must-haves: a flag for the recruiter to read, never a
rejection (a match removes nobody; a rejection is a status change in the Candidates pane).
"Why this rank" (the button, a row's context menu, or a double-click on the name, score, met
or flags cell) computes ``services.explain_match`` in a worker and opens
:class:`~cvrag_desktop.ui.dialogs.rank_explain_dialog.RankExplainDialog`; a cited line clicked there
opens this dialog's preview at it. Uses the dialog's ``services``, ``runner``, ``table``,
``result``, ``jd``, ``blind``, ``preview``, ``message`` and ``_error``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QMenu, QTableWidgetItem

from cvrag_desktop.app.rules import missed_must_haves
from cvrag_desktop.ui.dialogs.rank_explain_dialog import RankExplainDialog, open_citation, shown_explanation

FLAG_TINT = QColor(230, 150, 20, 60)
FLAG_TIP = ("Must-haves this CV does not show: a flag for you to read, not a rejection. A job match never "
            "removes or rejects anyone; any rejection is your status change.")


def flags_item(row: dict) -> QTableWidgetItem:
    """The Flags cell of a row: "⚑ Kafka, Python" (the must-haves not met), empty when none."""
    missed = row.get("must_missed")
    if missed is None:  # a match saved before rows carried it
        missed = missed_must_haves(row)
    item = QTableWidgetItem(("⚑ " + ", ".join(missed)) if missed else "")
    if missed:
        item.setBackground(QBrush(FLAG_TINT))
        item.setToolTip(f"Not met: {', '.join(missed)}.\n{FLAG_TIP}")
    return item


class MatchExplain:
    """The Flags column's companion actions: "Why this rank" for a row of the matrix."""

    explain_dialog = None  # the last "Why this rank" dialog opened (tests read it)

    def _setup_explain(self) -> None:
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._row_menu)
        self.table.cellDoubleClicked.connect(self._double_clicked)
        self.why_btn.clicked.connect(lambda: self.explain_row())
        self.table.itemSelectionChanged.connect(self._sync_why)
        self.table.currentCellChanged.connect(lambda *_a: self._sync_why())
        self._sync_why()

    def _chosen_row(self) -> int:
        """The selected row of the matrix (else the current one), -1 when none."""
        rows = self.table.selectionModel().selectedRows() or self.table.selectedIndexes()
        return rows[0].row() if rows else self.table.currentRow()

    def _sync_why(self) -> None:
        self.why_btn.setEnabled(bool(self.result and self.result.get("candidates")) and self._chosen_row() >= 0)

    def _double_clicked(self, row: int, col: int) -> None:
        if col < self.fixed_columns:  # a requirement cell's click opens its evidence instead
            self.explain_row(row)

    def _row_menu(self, pos) -> None:
        row = self.table.rowAt(pos.y())
        if row < 0 or not self.result:
            return
        menu = QMenu(self)
        menu.addAction("Why this rank…", lambda: self.explain_row(row))
        menu.popup(self.table.viewport().mapToGlobal(pos))

    def explain_row(self, row: int | None = None) -> None:
        """Explain a row's rank (the current row by default) in a worker, then show the dialog."""
        row = self._chosen_row() if row is None else row
        cands = (self.result or {}).get("candidates") or []
        if not 0 <= row < len(cands):
            self.message.show_message("Select a candidate of the match first.", "info")
            return
        result, cid, text, svc, blind = self.result, cands[row]["candidate_id"], self.jd.toPlainText(), \
            self.services, self.blind

        def explain(ctx) -> tuple[dict, dict]:
            expl = svc.jobs.explain_match(result, cid, text or None)
            return expl, shown_explanation(svc, blind, expl)

        self.runner.start("jobmatch-explain", explain, on_result=lambda pair: self._show_explanation(*pair),
                          on_error=self._error)

    def _show_explanation(self, raw: dict, expl: dict) -> None:
        title = (self.jd.toPlainText().strip().splitlines() or [""])[0][:80] or None
        hide = self.blind is not None and self.blind.hides(expl.get("person_id") or expl["candidate_id"],
                                                           [expl["candidate_id"]])
        dlg = RankExplainDialog(self.services, self.runner, expl, title, self, blind=hide)
        dlg.citation_clicked.connect(lambda ev: open_citation(self.preview, self.runner, self.services, ev,
                                                              dlg.blind, self._error, "jobmatch-preview"))
        if self.blind is not None:  # blind screening switched while it is open: the dialog redraws itself
            dlg.follow(self.blind, raw)
        self.explain_dialog = dlg
        dlg.show()
