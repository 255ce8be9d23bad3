"""Saved job matches in the job-match dialog: list, save, reopen and delete (each in a worker).

A mixin of :class:`~cvrag_desktop.ui.panes.job_match.JobMatchDialog`: it uses the dialog's
``services``, ``runner``, ``saved_combo``/``open_btn``/``delete_btn``, ``jd``, ``message``,
``show_result``, ``_with_display`` and ``_error``, and its ``saved``/``opened`` signals.
"""

from __future__ import annotations


class SavedMatches:
    """What the dialog does with matches kept in the library (``services.save_match`` and co)."""

    def refresh_saved(self) -> None:
        """List the saved matches (date, title, number of candidates), read in a worker."""
        svc = self.services

        def fill(rows: list) -> None:
            import datetime as dt

            self.saved_combo.clear()
            for m in rows:
                when = dt.datetime.fromtimestamp(m["created_at"]).strftime("%Y-%m-%d %H:%M")
                self.saved_combo.addItem(f"{when} · {m['title']} · {m['candidates']} candidates", m["match_id"])
            has = self.saved_combo.count() > 0
            self.open_btn.setEnabled(has)
            self.delete_btn.setEnabled(has)

        self.runner.run(lambda ctx: svc.jobs.list_matches(), on_result=fill, on_error=self._error)

    def save_match(self) -> None:
        """Keep the shown match (description + results) in the library (in a worker)."""
        if not self.result:
            return
        result, text, svc = self.result, self.jd.toPlainText(), self.services

        def done(summary: dict) -> None:
            self.message.flash(f"Saved “{summary['title']}”.")
            self.refresh_saved()
            self.saved.emit(summary)

        self.runner.run(lambda ctx: svc.jobs.save_match(result, text), on_result=done, on_error=self._error)

    def open_saved(self, match_id: int | None = None) -> None:
        """Show a saved match again (read in a worker): its description and matrix."""
        mid = match_id if match_id is not None else self.saved_combo.currentData()
        if mid is None:
            return
        svc = self.services

        opened: dict = {}

        def fetch() -> dict:
            opened.update(svc.jobs.open_match(mid))
            return opened["result"]

        def shown(pair: tuple) -> None:
            self.jd.setPlainText(opened["jd_text"])
            self.show_result(*pair)
            self.opened.emit(int(opened["match_id"]))

        self.runner.run(self._with_display(fetch), on_result=shown, on_error=self._error)

    def confirm(self, title: str, text: str) -> bool:
        """Ask a yes/no question (tests replace this)."""
        from PySide6.QtWidgets import QMessageBox

        answer = QMessageBox.question(self, title, text, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def delete_saved(self) -> None:
        """Delete the selected saved match, after a confirmation (its shortlists and exports stay)."""
        mid = self.saved_combo.currentData()
        if mid is None or not self.confirm("Delete saved match",
                                           f"Delete the saved match “{self.saved_combo.currentText()}”?\n\n"
                                           "Shortlists and CSV files made from it are kept."):
            return
        svc = self.services
        self.runner.run(lambda ctx: svc.jobs.delete_match(mid), on_result=lambda _r: self.refresh_saved(),
                        on_error=self._error)
