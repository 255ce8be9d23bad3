"""File ▸ Audit trail…: a read-only viewer of the audit trail (``catalog/compliance/audit.py``).

Filters by date, action and person (any document id), checks the chain and exports the
shown entries as CSV. Every read runs in a worker through the application layer; the GUI thread
only fills the table. Nothing here changes an entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

import json
from pathlib import Path

from PySide6.QtCore import QDate, QSize, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from cvrag_desktop.app.output import safe
from cvrag_desktop.ui.dialogs.save_path import ask_save_path
from cvrag_desktop.ui.shell.errors import InlineMessage, report_error
from cvrag_desktop.ui.shell.fit import remember_size
from cvrag_desktop.ui.shell.tasks import TaskRunner

COLUMNS = ("#", "Time (UTC)", "Who", "Action", "Person", "Details")
ACTIONS = ("All", "screening.", "shortlist.", "job_match.", "export.", "blind.", "people.", "settings.",
           "forget", "retention.", "audit.")
TASK = "audit-viewer"


class AuditDialog(QDialog):
    """The audit entries in a table, newest last, with filters, a chain check and CSV export."""

    def __init__(self, services: App, runner: TaskRunner, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Audit trail")
        self.services, self.runner = services, runner
        self.entries: list[dict] | None = None
        self.verified: dict | None = None
        self.message = InlineMessage(self)
        self.use_since = QCheckBox("From")
        self.since = QDateEdit(QDate.currentDate().addMonths(-1), calendarPopup=True)
        self.since.setDisplayFormat("yyyy-MM-dd")
        self.action = QComboBox()
        self.action.addItems(ACTIONS)
        self.person = QLineEdit()
        self.person.setPlaceholderText("person or document id")
        self.apply_btn = QPushButton("Show")
        self.verify_btn = QPushButton("Check the chain")
        self.export_btn = QPushButton("Export CSV…")
        self.chain = QLabel("")
        self.chain.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setStretchLastSection(True)
        filters = QHBoxLayout()
        for w in (self.use_since, self.since, QLabel("Action"), self.action, QLabel("Person"), self.person,
                  self.apply_btn):
            filters.addWidget(w)
        bottom = QHBoxLayout()
        bottom.addWidget(self.chain, 1)
        bottom.addWidget(self.verify_btn)
        bottom.addWidget(self.export_btn)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Every screening decision and machine output shown, with who and when. Entries "
                                "hold ids and pseudonymous references, never CV or note text."))
        layout.addWidget(self.message)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addLayout(bottom)
        self.apply_btn.clicked.connect(self.reload)
        self.person.returnPressed.connect(self.reload)
        self.verify_btn.clicked.connect(self.verify)
        self.export_btn.clicked.connect(lambda: self.export())
        self.sizing = remember_size(self, services, "audit", QSize(980, 560))  # fitted to the screen

    def filters(self) -> dict:
        """The filter values as ``services.audit_entries`` takes them."""
        action = self.action.currentText()
        return {"since": self.since.date().toString("yyyy-MM-dd") if self.use_since.isChecked() else None,
                "action": None if action == "All" else action,
                "person": self.person.text().strip() or None}

    def reload(self) -> None:
        """Read the entries matching the filters (in a worker)."""
        svc, f = self.services, self.filters()
        self.message.clear_message()
        self.runner.start(TASK, lambda ctx: svc.compliance.audit_entries(**f), on_result=self._show, on_error=self._error)

    def _show(self, entries: list[dict]) -> None:
        self.entries = entries
        self.table.setRowCount(len(entries))
        for r, e in enumerate(entries):
            values = (str(e["seq"]), e["at"][:19].replace("T", " "), e["actor"], e["action"],
                      " · ".join(v for v in (e["person"], e.get("pseudonym")) if v),
                      json.dumps(e["details"], ensure_ascii=False, sort_keys=True))
            for c, v in enumerate(values):
                item = QTableWidgetItem(safe(v))
                if c == 0:
                    item.setData(Qt.ItemDataRole.UserRole, e["seq"])
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()

    def verify(self) -> None:
        """Recompute the chain (in a worker) and say whether it is intact or where it breaks."""
        svc = self.services

        def shown(report: dict) -> None:
            self.verified = report
            if report["ok"]:
                self.chain.setText(f"Chain intact: {report['entries']} entries checked.")
            else:
                b = report["first_broken"]
                self.chain.setText(f"Chain BROKEN at entry {b['seq']}: {b['reason']}.")
            notes = report.get("notes") or []
            if notes:  # not a break, but worth knowing (a restored catalog backup, an anchor from another trail)
                self.chain.setText(self.chain.text() + "\nNote: " + "\nNote: ".join(notes))

        self.runner.run(lambda ctx: svc.compliance.audit_verify(), on_result=shown, on_error=self._error)

    def export(self, path: Path | None = None) -> None:
        """Write the entries matching the filters to CSV (asks where, unless given)."""
        if path is None:
            path = ask_save_path(self, getattr(self, "qsettings", None), "Export the audit trail", "audit.csv",
                                 "CSV (*.csv)")
            if path is None:
                return
        svc, f = self.services, self.filters()
        self.runner.run(lambda ctx: svc.compliance.audit_export(path, **f),
                        on_result=lambda n: self.message.show_message(f"Exported {n} entries to {path}.", "info"),
                        on_error=self._error)

    def _error(self, exc: BaseException) -> None:
        report_error(exc, self.message, self, self.services.paths.log_dir)
