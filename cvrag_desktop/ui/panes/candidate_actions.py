"""Actions on the candidates of the Candidates pane (a mixin of :class:`CandidatesPane`):
the context menu, forget a person or a document, merge people, split a document out,
export the view to CSV, export everything about a person (``subject_export.py``). Each
write runs in a worker after a confirmation.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMenu, QMessageBox

from cvrag_desktop.app.output import safe
from cvrag_desktop.app.rules import Screening
from cvrag_desktop.ui.blind_mode import blind_export, reveal_current
from cvrag_desktop.ui.demo import DEMO_TAG, is_demo
from cvrag_desktop.ui.dialogs.save_path import ask_save_path
from cvrag_desktop.ui.panes.candidate_explain import can_explain, explain_current
from cvrag_desktop.ui.panes.subject_export import MENU_TEXT, export_subject  # the access request


class CandidateActions:
    """Menu and write actions; expects the pane's ``model``, ``proxy``, ``table``, ``detail``, ``runner``."""

    def _context_menu(self, pos) -> None:
        menu = QMenu(self)
        menu.addAction("Add to shortlist", lambda: self.shortlists.add(self.selected_ids()))
        menu.addAction("Remove from shortlist", lambda: self.shortlists.remove(self.selected_ids()))
        if self.ranked:  # a ranked search is shown: why this person has their place
            menu.addAction("Why this rank…", lambda: explain_current(self)).setEnabled(can_explain(self))
        menu.addSeparator()
        self._screening_menu(menu)
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
        menu.addAction(MENU_TEXT, lambda: export_subject(self)).setEnabled(len(self.selected_ids()) == 1)
        menu.addAction("Forget person…", self.forget_selected)
        if self.blind is not None and self.blind.enabled:
            reveal = menu.addAction("Reveal identity…", lambda: reveal_current(self))
            reveal.setEnabled(self.blind.hides(self.current_id))
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
                n += len(svc.people.delete_person(pid))
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
        self.runner.run(lambda ctx: svc.people.delete_candidate(candidate_id),
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
            return svc.people.merge_people(ids)

        def done(result: dict) -> None:
            self.current_id = result["person_id"]
            self._changed(f"Merged into one person with {len(result['documents'])} documents.")(result)

        self.runner.run(merge, on_result=done, on_error=self._error)

    def split_document(self, candidate_id: str) -> None:
        """Take one document out of its person: it becomes a person of its own (remembered)."""
        svc = self.services
        self.runner.run(lambda ctx: svc.people.split_document(candidate_id),
                        on_result=self._changed("The document is now a person of its own."), on_error=self._error)

    def export_view(self, path: Path | None = None) -> None:
        """Ctrl+E: the shortlist shown (with notes), or else the current filtered view, to CSV."""
        ids = self.proxy.visible_ids()
        sid = self.shortlists.viewing_id()
        left_out = ""
        demo = {i for i in ids if is_demo(self.model.row(i) or {})}
        # generated CVs shown among real ones are left out unless asked for (Tag filter or a shortlist)
        if demo and len(demo) < len(ids) and self.proxy.tag != DEMO_TAG and not sid:
            ids = [i for i in ids if i not in demo]
            left_out = f" {len(demo)} demo CV(s) left out (choose the tag “{DEMO_TAG}” to export them)."
        if not ids:
            self.message.show_message("Nothing to export: no candidate is shown." + left_out, "info")
            return
        if path is None:
            default = self.shortlists.current_name() if sid else "candidates"
            path = ask_save_path(self, self.qsettings, "Export to CSV", f"{default}.csv", "CSV (*.csv)")
            if path is None:
                return
        rows = [self.model.row(i) for i in ids]
        states = {r["id"]: Screening(r.get("status") or "new", r.get("rating"), list(r.get("tags") or []),
                                     r.get("screening_note") or "") for r in rows}
        store = self.store

        blind = self.blind is not None and self.blind.enabled
        svc = self.services

        def write(ctx):
            notes = store.notes(sid) if sid else None
            if blind:  # blind screening: the file hides every identity, even one revealed on screen
                b_rows, b_notes, b_states = blind_export(svc, rows, notes, states)
                return str(path), svc.screening.export_people_csv(b_rows, path, b_notes, b_states, blind=True)
            return str(path), svc.screening.export_people_csv(rows, path, notes, states)

        def done(result) -> None:
            written, n = result
            self.message.show_message(f"Exported {n} candidate(s) to {written}.{left_out}", "info")
            self.exported.emit(written, n)

        self.runner.run(write, on_result=done, on_error=self._error)


def forget_note(threads: list[dict], report: dict | None = None) -> str:
    """What a forget also removed (chat threads) or left pending, for the inline message."""
    note = ""
    if threads:
        titles = "; ".join(safe(t["title"])[:40] for t in threads[:3]) + (" …" if len(threads) > 3 else "")
        note += f" Removed {len(threads)} chat conversation(s) that cited or named them: {titles}."
    if report and report.get("pending"):
        note += f" Pending: {safe(report.get('pending_reason'))}"
    return note
