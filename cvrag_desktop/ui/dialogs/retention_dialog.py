"""File ▸ Retention…: the library's retention period, the review list and the confirmed purge.

Shows the period chosen (a preset with its source named, or custom days) and the notice that
none of it is legal advice; lets the user choose another period; lists the people due in the
next :data:`REVIEW_DAYS` days with when and why (last activity or consent); records a person's
"consent to keep until …"; and purges a selected batch of people whose time is up — only after
a confirmation naming how many people (``services.retention_purge``, the total forget). Every
service call runs in a worker through the task runner; the GUI thread only fills widgets.
In blind mode people are shown by their pseudonym (``catalog/privacy/blind.py``), unless revealed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

from datetime import UTC, date, datetime, timedelta

from PySide6.QtCore import QDate, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDateEdit,
    QDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from cvrag_desktop.app.output import safe
from cvrag_desktop.app.rules import NOT_LEGAL_ADVICE, PRESETS, pseudonym
from cvrag_desktop.ui.shell.errors import InlineMessage, report_error
from cvrag_desktop.ui.shell.fit import remember_size
from cvrag_desktop.ui.shell.tasks import TaskRunner

REVIEW_DAYS = 30
CUSTOM = "custom"
COLUMNS = ("Person", "Due (UTC)", "Days left", "Why", "Last activity", "Consent until")
TASK = "retention-dialog"
PersonRole = Qt.ItemDataRole.UserRole


def due_now(clock: dict, now: datetime | None = None) -> bool:
    """Whether a clock's due time has come (only those may be purged)."""
    if not clock.get("due"):
        return False
    return datetime.fromisoformat(clock["due"]) <= (now or datetime.now(UTC))


def reason(clock: dict, days: int | None) -> str:
    """Why a person is due then: their consent, or their last activity plus the period."""
    until = clock.get("consent_until")
    if until and clock.get("due", "")[:10] == (date.fromisoformat(until) + timedelta(days=1)).isoformat():
        return f"consent to keep until {until} ends"
    return f"last activity {clock.get('last_activity', '')[:10]} + {days} days"


def preset_label(key: str) -> str:
    """A preset as the combo box shows it: ``DE — 183 days``."""
    return f"{key} — {PRESETS[key][0]} days" if key in PRESETS else "Custom number of days"


class RetentionDialog(QDialog):
    """The retention period, the people due within 30 days, consent and a purge asked for first."""

    purged = Signal(dict)  # a purge finished (its report): the candidate list must be reloaded
    loaded = Signal()  # the status and the review list were read and shown

    def __init__(self, services: App, runner: TaskRunner, blind=None, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Retention")
        self.services, self.runner, self.blind = services, runner, blind
        if blind is not None:  # blind screening switched while it is open: the names follow at once
            blind.follow(self, self._rename)
        self.status: dict | None = None
        self.due: list[dict] | None = None
        self.last_purge: dict | None = None
        self.message = InlineMessage(self)
        notice = QLabel(f"<b>Not legal advice.</b> {NOT_LEGAL_ADVICE}")
        notice.setWordWrap(True)
        notice.setObjectName("not-legal-advice")
        self.notice = notice
        self.current = QLabel("Reading the retention period…")
        self.current.setWordWrap(True)
        self.preset = QComboBox()
        for key in PRESETS:
            self.preset.addItem(preset_label(key), key)
            self.preset.setItemData(self.preset.count() - 1, PRESETS[key][1], Qt.ItemDataRole.ToolTipRole)
        self.preset.addItem(preset_label(CUSTOM), CUSTOM)
        self.days = QSpinBox()
        self.days.setRange(1, 3650)
        self.days.setSuffix(" days")
        self.source = QLabel("")
        self.source.setWordWrap(True)
        self.apply_btn = QPushButton("Use this period")
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setVisible(False)
        self.due_label = QLabel("")
        self.until = QDateEdit(QDate.currentDate().addYears(1), calendarPopup=True)
        self.until.setDisplayFormat("yyyy-MM-dd")
        self.until.setMinimumDate(QDate.currentDate())
        self.consent_btn = QPushButton("Consent to keep until")
        self.withdraw_btn = QPushButton("Withdraw consent")
        self.purge_btn = QPushButton("Purge selected…")
        self.refresh_btn = QPushButton("Refresh")
        self._layout()
        self.preset.currentIndexChanged.connect(self._preset_chosen)
        self.apply_btn.clicked.connect(self.apply_period)
        self.consent_btn.clicked.connect(lambda: self.record_consent())
        self.withdraw_btn.clicked.connect(self.withdraw_consent)
        self.purge_btn.clicked.connect(self.purge_selected)
        self.refresh_btn.clicked.connect(self.reload)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self._preset_chosen()
        self._selection_changed()
        self.sizing = remember_size(self, services, "retention", QSize(900, 560))  # fitted to the screen

    def _layout(self) -> None:
        period = QGroupBox("Retention period of this library")
        p = QVBoxLayout(period)
        p.addWidget(self.current)
        row = QHBoxLayout()
        row.addWidget(QLabel("Period"))
        row.addWidget(self.preset, 1)
        row.addWidget(self.days)
        row.addWidget(self.apply_btn)
        p.addLayout(row)
        p.addWidget(self.source)
        review = QGroupBox(f"People due for deletion in the next {REVIEW_DAYS} days")
        r = QVBoxLayout(review)
        r.addWidget(self.due_label)
        r.addWidget(self.table, 1)
        actions = QHBoxLayout()
        actions.addWidget(self.consent_btn)
        actions.addWidget(self.until)
        actions.addWidget(self.withdraw_btn)
        actions.addStretch(1)
        actions.addWidget(self.refresh_btn)
        actions.addWidget(self.purge_btn)
        r.addLayout(actions)
        intro = QLabel("Applicants' data is kept for a limited time. Each person's clock runs from their last "
                       "activity (import, screening change, shortlist, job match, reveal, consent); hired people "
                       "are never listed.")
        intro.setWordWrap(True)
        self.due_label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.notice)
        layout.addWidget(self.message)
        layout.addWidget(period)
        layout.addWidget(review, 1)

    # ---- the period ------------------------------------------------------------------------
    def _preset_chosen(self) -> None:
        key = self.preset.currentData()
        custom = key == CUSTOM
        self.days.setEnabled(custom)
        if not custom:
            self.days.setValue(PRESETS[key][0])
        self.source.setText(f"Source: {PRESETS[key][1]}." if not custom
                            else "Source: your own choice (a number of days).")

    def choose(self, preset: str, days: int | None = None) -> None:
        """Set the combo box (and the days, for ``custom``) as a user would."""
        self.preset.setCurrentIndex(self.preset.findData(preset))
        if days is not None and preset == CUSTOM:
            self.days.setValue(days)

    def apply_period(self) -> None:
        """Save the chosen period (in a worker), then read the list again."""
        key = self.preset.currentData()
        days = self.days.value() if key == CUSTOM else None
        svc = self.services

        def saved(policy: dict) -> None:
            self.message.show_message(f"Retention period set: {self._policy_text(policy)}.", "info")
            self.reload()

        self.runner.run(lambda ctx: svc.compliance.set_retention(key, days), on_result=saved, on_error=self._error)

    @staticmethod
    def _policy_text(policy: dict) -> str:
        if policy.get("days") is None:
            return "none chosen yet — nobody is due until a period is set"
        name = policy["preset"] if policy.get("preset") in PRESETS else "custom"
        return f"{name}, {policy['days']} days"

    # ---- reading -----------------------------------------------------------------------------
    def reload(self) -> None:
        """Read the policy and the review list (in a worker)."""
        svc = self.services
        self.runner.start(TASK, lambda ctx: (svc.compliance.retention_status(), svc.compliance.retention_due(within_days=REVIEW_DAYS)),
                          on_result=self._show, on_error=self._error)

    def _name(self, clock: dict) -> str:
        pid = clock["person_id"]
        if self.blind is not None and self.blind.hides(pid, clock.get("documents")):
            return pseudonym(pid)
        return safe(clock.get("name") or pid)

    def _rename(self) -> None:
        """Name the listed people again under the current blind state (pseudonym or name)."""
        for r, c in enumerate(self.due or []):
            item = self.table.item(r, 0)
            if item is not None:
                item.setText(self._name(c))

    def _show(self, result: tuple[dict, list[dict]]) -> None:
        status, due = result
        self.status, self.due = status, due
        policy = status["policy"]
        self.current.setText(f"Current period: <b>{safe(self._policy_text(policy))}</b>. "
                             f"Source: {safe(policy.get('source') or '')}.")
        if policy.get("preset") in PRESETS or policy.get("preset") == CUSTOM:
            self.preset.blockSignals(True)
            self.choose(policy["preset"], policy.get("days"))
            self.preset.blockSignals(False)
            self._preset_chosen()
        now = datetime.now(UTC)
        self.table.setRowCount(len(due))
        for r, c in enumerate(due):
            left = "due now" if due_now(c, now) else str(c.get("days_left"))
            values = (self._name(c), (c.get("due") or "")[:16].replace("T", " "), left, reason(c, policy.get("days")),
                      (c.get("last_activity") or "")[:10], c.get("consent_until") or "")
            for col, v in enumerate(values):
                item = QTableWidgetItem(v)
                if col == 0:
                    item.setData(PersonRole, c["person_id"])
                self.table.setItem(r, col, item)
        self.table.resizeColumnsToContents()
        n_now = sum(due_now(c, now) for c in due)
        self.due_label.setText(f"{len(due)} person(s) due within {REVIEW_DAYS} days, {n_now} of them due now. "
                               "Only people due now can be purged." if due else
                               f"Nobody is due within {REVIEW_DAYS} days.")
        self._selection_changed()
        self.loaded.emit()

    # ---- selection, consent, purge -----------------------------------------------------------
    def selected(self) -> list[dict]:
        """The clocks of the selected rows."""
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        return [self.due[r] for r in rows if self.due and r < len(self.due)]

    def select_people(self, person_ids: list[str]) -> None:
        """Select the rows of these people (tests, keyboard users)."""
        self.table.clearSelection()
        mode = self.table.selectionMode()
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
        for r in range(self.table.rowCount()):
            if self.table.item(r, 0).data(PersonRole) in person_ids:
                self.table.selectRow(r)
        self.table.setSelectionMode(mode)

    def _selection_changed(self) -> None:
        chosen = self.selected()
        self.consent_btn.setEnabled(bool(chosen))
        self.withdraw_btn.setEnabled(any(c.get("consent_until") for c in chosen))
        self.purge_btn.setEnabled(any(due_now(c) for c in chosen))

    def record_consent(self, until: str | None = None) -> None:
        """Record each selected person's consent to be kept until the chosen day (in a worker)."""
        day = until or self.until.date().toString("yyyy-MM-dd")
        self._consent(day, f"Consent recorded for {{n}} person(s): kept until {day}.")

    def withdraw_consent(self) -> None:
        """Withdraw the selected people's consent: their clock runs from their last activity again."""
        self._consent(None, "Consent withdrawn for {n} person(s).")

    def _consent(self, day: str | None, said: str) -> None:
        chosen = self.selected()
        if not chosen:
            self.message.show_message("Select a person first.", "info")
            return
        ids, svc = [c["person_id"] for c in chosen], self.services

        def done(_r) -> None:
            self.message.show_message(said.format(n=len(ids)), "info")
            self.reload()

        self.runner.run(lambda ctx: [svc.compliance.set_consent(p, day) for p in ids], on_result=done, on_error=self._error)

    def confirm(self, title: str, text: str) -> bool:
        """Ask a yes/no question, No by default (tests replace ``QMessageBox.question``)."""
        answer = QMessageBox.question(self, title, text, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def purge_selected(self) -> None:
        """Forget the selected people whose time is up, after a confirmation naming how many."""
        chosen = self.selected()
        batch = [c for c in chosen if due_now(c)]
        later = len(chosen) - len(batch)
        if not batch:
            self.message.show_message("None of the selected people is due now; nothing was purged.", "info")
            return
        docs = sum(len(c.get("documents") or []) for c in batch)
        note = f"\n\n{later} selected person(s) not due yet are left out." if later else ""
        if not self.confirm("Purge people", f"Purge {len(batch)} person(s) ({docs} document(s))?\n\nEverything "
                            "held about them is forgotten: records, stored CV copies, notes, shortlist entries, "
                            f"chat conversations naming them. This cannot be undone.{note}"):
            self.message.show_message("Purge cancelled: nothing was deleted.", "info")
            return
        ids, svc = [c["person_id"] for c in batch], self.services

        def done(report: dict) -> None:
            self.last_purge = report
            text = f"Purged {report['purged']} person(s), {report['documents']} document(s)."
            if report.get("threads_removed"):
                text += f" Removed {len(report['threads_removed'])} chat conversation(s) naming them."
            if report.get("pending"):
                text += f" Still pending: {', '.join(report['pending'])} (finished at the next start)."
            self.message.show_message(text, "info")
            self.purged.emit(report)
            self.reload()

        self.runner.run(lambda ctx: svc.compliance.retention_purge(ids), on_result=done, on_error=self._error)

    def _error(self, exc: BaseException) -> None:
        report_error(exc, self.message, self, self.services.paths.log_dir)
