"""Screening in the Candidates pane (a mixin of :class:`CandidatesPane`): the editor of the
person shown, bulk status / rating / tag changes on a selection, and saved searches.

Every write is ``services.set_screening`` (or the saved-search store) in a worker; the
table rows are updated in place from the returned states, then the filters re-apply (a
status change can hide a row under a status filter). A rejection asks for an optional
reason first (preset kinds + free text, ``widgets/reason_dialog.py``); Cancel keeps the status.
"""

from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QMenu

from cvrag_desktop.app.rules import STATUS_LABELS, STATUSES
from cvrag_desktop.ui.widgets.reason_dialog import ask_reject_reason
from cvrag_desktop.ui.widgets.screening_editor import RATING_CHOICES


class ScreeningActions:
    """Expects the pane's ``services``, ``runner``, ``model``, ``screening_editor``, ``saved_bar``, ``facets``."""

    # ---- the person shown ----------------------------------------------------------------------
    def _show_screening(self) -> None:
        row = self.model.row(self.current_id) if self.current_id else None
        state = None if row is None else {"status": row.get("status"), "rating": row.get("rating"),
                                          "tags": row.get("tags"), "note": row.get("screening_note"),
                                          "reason": row.get("status_reason")}
        self.screening_editor.set_person(self.current_id if row else None, state)
        self.screening_editor.set_known_tags(sorted({t for r in self.model.rows() for t in r.get("tags") or []},
                                                    key=str.casefold))

    def _save_screening(self, changes: dict) -> None:
        if self.current_id:
            if not self._with_reason(changes, 1):
                self._show_screening()  # cancelled: the editor shows the status kept
                return
            self._set_screening([self.current_id], changes, "Saved.")

    def ask_reason(self, count: int) -> str | None:
        """A rejection's optional reason ("" for none), None when cancelled (tests replace this)."""
        return ask_reject_reason(self, count)

    def _with_reason(self, changes: dict, count: int) -> bool:
        """Add a rejection's reason to ``changes`` (asked for); False when the user cancelled."""
        if changes.get("status") != "rejected":
            return True
        reason = self.ask_reason(count)
        if reason is None:
            return False
        if reason:
            changes["reason"] = reason
        return True

    # ---- bulk ------------------------------------------------------------------------------------
    def set_status_selected(self, status: str) -> None:
        """Give every selected person a status (a rejection asks for its optional reason first)."""
        changes = {"status": status}
        if self.selected_ids() and not self._with_reason(changes, len(self.selected_ids())):
            return
        self._set_screening(self.selected_ids(), changes,
                            f"Status set to {STATUS_LABELS[status]} for {{n}} person(s).")

    def rate_selected(self, rating: int | None) -> None:
        """Rate every selected person (None clears the rating)."""
        self._set_screening(self.selected_ids(), {"rating": rating}, "Rating set for {n} person(s).")

    def tag_selected(self, tag: str, remove: bool = False) -> None:
        """Add a tag to (or remove it from) every selected person; their other tags stay."""
        key = "remove_tags" if remove else "add_tags"
        verb = "Removed" if remove else "Added"
        self._set_screening(self.selected_ids(), {key: [tag]}, f"{verb} the tag {tag!r} for {{n}} person(s).")

    def ask_text(self, title: str, label: str) -> str | None:
        """Ask for a line of text (tests replace this)."""
        text, ok = QInputDialog.getText(self, title, label)
        return text.strip() if ok and text.strip() else None

    def _screening_menu(self, menu: QMenu) -> None:
        """Status, rating and tag submenus for the selection (in the table's context menu)."""
        n = len(self.selected_ids())
        status = menu.addMenu(f"Set status ({n} selected)")
        for s in STATUSES:
            status.addAction(STATUS_LABELS[s], lambda s=s: self.set_status_selected(s))
        rate = menu.addMenu("Rate")
        for label, value in RATING_CHOICES:
            rate.addAction(label, lambda v=value: self.rate_selected(v))
        menu.addAction("Add tag…", self._ask_tag)
        remove = menu.addMenu("Remove tag")
        tags = sorted({t for i in self.selected_ids() for t in (self.model.row(i) or {}).get("tags") or []},
                      key=str.casefold)
        for t in tags:
            remove.addAction(t, lambda t=t: self.tag_selected(t, remove=True))
        remove.setEnabled(bool(tags))

    def _ask_tag(self) -> None:
        tag = self.ask_text("Add tag", "Tag for the selected people:")
        if tag:
            self.tag_selected(tag)

    def _set_screening(self, ids: list[str], changes: dict, done_text: str) -> None:
        if not ids:
            self.message.show_message("Select one or more candidates first.", "info")
            return
        svc = self.services

        def done(states: dict) -> None:
            self.model.update_screening(states)
            self.facets.set_tags(sorted({t for r in self.model.rows() for t in r.get("tags") or []},
                                        key=str.casefold))
            self._filters_changed()
            if self.current_id in states:
                self._show_screening()
            self.message.flash(done_text.format(n=len(states)))  # in the status bar: the layout stays put
            self.screening_saved.emit(states)

        self.runner.run(lambda ctx: svc.screening.set_screening(ids, **changes), on_result=done, on_error=self._error)

    # ---- saved searches ------------------------------------------------------------------------------
    def load_saved_searches(self, current: str | None = None) -> None:
        """List the saved searches (in a worker)."""
        svc = self.services  # the store is reached in the worker: opening the catalog is I/O

        def load(ctx):
            return [{"name": s.name, "query": s.query, "filters": s.filters} for s in svc.screening.saved_searches()]

        self.runner.start("saved-searches", load, on_result=lambda rows: self.saved_bar.set_searches(rows, current),
                          on_error=self._error)

    def apply_saved_search(self, saved: dict) -> None:
        """Run a saved search: its words in the search box, its filters on the left."""
        self.facets.set_values(saved.get("filters") or {})
        self.search.setText(saved.get("query") or "")
        self._search_timer.stop()
        self._run_search()

    def save_search(self, name: str) -> None:
        """Save the search box's words and the filters under ``name``."""
        svc, query, filters = self.services, self.search.text(), self.facets.values()
        self.runner.run(lambda ctx: svc.screening.save_search(name, query, filters),
                        on_result=lambda s: self.load_saved_searches(s.name), on_error=self._error)

    def delete_search(self, name: str) -> None:
        """Delete a saved search."""
        svc = self.services
        self.runner.run(lambda ctx: svc.screening.delete_search(name), on_result=lambda _r: self.load_saved_searches(),
                        on_error=self._error)
