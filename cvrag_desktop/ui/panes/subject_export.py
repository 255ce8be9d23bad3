"""Candidates ▸ context menu ▸ "Export everything about this person…": the access-request export.

Asks where to write the zip, runs ``services.export_subject`` (records, facts with provenance,
notes, screening history, shortlists, job-match rows, audit entries, chat turns and the original
documents) in a worker, and reports the counts it returns in the pane's inline message. In
blind mode the person is named by their pseudonym in the message and the suggested file name.
"""

from __future__ import annotations

from pathlib import Path

from cvrag_desktop.app.output import safe
from cvrag_desktop.app.rules import pseudonym
from cvrag_desktop.ui.dialogs.save_path import ask_save_path

MENU_TEXT = "Export everything about this person…"


def subject_name(pane, person_id: str) -> str:
    """How the pane names this person now: the pseudonym while their identity is hidden."""
    row = pane.model.row(person_id) or {}
    if pane.blind is not None and pane.blind.hides(person_id, row.get("document_ids")):
        return pseudonym(person_id)
    return safe(row.get("label") or row.get("name") or person_id)


def export_subject(pane, path: Path | None = None) -> None:
    """Write everything held about the current person to a zip (asks where unless ``path`` is given)."""
    ids = pane.selected_ids()
    if len(ids) != 1:
        pane.message.show_message("Select one person to export everything held about them.", "info")
        return
    pid = ids[0]
    name = subject_name(pane, pid)
    if path is None:
        suggested = f"subject-{pseudonym(pid).split()[-1].lower()}.zip"  # never the name: a file list shows it
        path = ask_save_path(pane, pane.qsettings, "Export everything about this person", suggested, "Zip (*.zip)")
        if path is None:
            return
    svc = pane.services

    def done(report: dict) -> None:
        pane.last_subject_export = report
        pane.message.show_message(
            f"Exported everything held about {name} to {safe(report['path'])}: {report['documents']} document(s), "
            f"{report['originals']} original file(s), {report['audit_entries']} audit entries, "
            f"{report['chat_threads']} chat conversation(s).", "info")

    pane.runner.run(lambda ctx: svc.compliance.export_subject(pid, path), on_result=done, on_error=pane._error)
