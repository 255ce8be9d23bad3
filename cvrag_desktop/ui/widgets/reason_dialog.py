"""The optional reason of a rejection: a preset kind and/or the recruiter's own words.

A rejection is always a human status change; the reason is optional and kept with the
status on the screening row (the audit trail records only its preset kind, or "other", and
its length — ``catalog/screening.py``). :func:`compose_reason` turns the choice into the
text ``services.screening.set_screening(..., reason=...)`` takes: "Position filled", "Position filled:
hired internally", or the words alone.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
)

from cvrag_desktop.app.rules import MAX_REASON, STATUS_REASONS

NO_PRESET = "No reason given"


def compose_reason(preset: str | None, details: str) -> str:
    """The reason text: the preset's label, its label and the details, or the details alone."""
    label = STATUS_REASONS.get(preset or "", "")
    details = " ".join((details or "").split())
    if label and details:
        return f"{label}: {details}"[:MAX_REASON]
    return (label or details)[:MAX_REASON]


class RejectReasonDialog(QDialog):
    """Reject N people, with an optional reason (preset + free text); Cancel keeps their status."""

    def __init__(self, count: int = 1, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Reject")
        who = "this person" if count == 1 else f"these {count} people"
        intro = QLabel(f"Set the status of {who} to Rejected. A reason is optional; it is kept with the "
                       "status (the audit trail records only its kind, never your words).")
        intro.setWordWrap(True)
        self.preset = QComboBox()
        self.preset.addItem(NO_PRESET, None)
        for key, label in STATUS_REASONS.items():
            self.preset.addItem(label, key)
        self.details = QLineEdit(placeholderText="Your words (optional)")
        self.details.setMaxLength(MAX_REASON - 40)
        form = QFormLayout()
        form.addRow("Reason:", self.preset)
        form.addRow("Details:", self.details)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Reject")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def reason(self) -> str:
        """The reason as chosen ("" for none)."""
        return compose_reason(self.preset.currentData(), self.details.text())


def ask_reject_reason(parent, count: int = 1) -> str | None:
    """Ask for a rejection's optional reason: the text ("" for none), or None when the user cancels."""
    dlg = RejectReasonDialog(count, parent)
    return dlg.reason() if dlg.exec() == QDialog.DialogCode.Accepted else None
