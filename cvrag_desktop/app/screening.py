"""Screening a person (status, rating, tags, note), saved searches and the audited CSV exports of the table.

Screening state belongs to the person, in the catalog; every change is audited by
reference (never the note's text). An export is audited too: what kind, how many rows,
of whom, blind or not — never the contents.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Unpack

from cvrag_desktop.app.guards import room_to_export
from cvrag_desktop.app.types import ScreeningChange
from cvrag_desktop.catalog.compliance.audit_events import screening_entries
from cvrag_desktop.catalog.csv_export import export_candidates_csv
from cvrag_desktop.catalog.screening import ScreeningStore, export_people_csv
from cvrag_desktop.errors import InvalidInput

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.catalog.screening import SavedSearch, Screening


class ScreeningOps:
    """Screening per person, the saved searches and the CSV exports of candidates and people."""

    def __init__(self, app: App) -> None:
        self._app = app

    @property
    def _store(self):
        return ScreeningStore(self._app.catalog)

    def _groups(self, people) -> dict[str, list[str]]:
        return {p: [d["id"] for d in self._app.people.person_documents(p)] for p in people}

    def states(self, groups: dict[str, list[str]]) -> dict[str, Screening]:
        """The screening of people given as ``{person: [document ids]}`` (a person with none is "new")."""
        return self._store.states(groups)

    def screening_of(self, people: list[str]) -> dict[str, dict]:
        """The screening state of people (given by person or document id), keyed as given."""
        return {p: s.as_dict() for p, s in self._store.states(self._groups(people)).items()}

    def set_screening(self, people: list[str], **changes: Unpack[ScreeningChange]) -> dict[str, dict]:
        """Change status / rating / note / tags (``add_tags``, ``remove_tags``) of people, on all their documents."""
        groups = self._groups(dict.fromkeys(people))
        if not groups:
            raise InvalidInput("Give at least one person.")
        store = self._store
        before = store.states(groups)
        after = store.update(groups, **changes)
        entries = screening_entries(groups, before, after)
        if entries:
            self._app.audit.record_many(entries)
        return {p: s.as_dict() for p, s in after.items()}

    # ---- saved searches -----------------------------------------------------------------------
    def saved_searches(self) -> list[SavedSearch]:
        """The recruiter's saved searches (name, query, filters), by name."""
        return self._store.saved_searches()

    def save_search(self, name: str, query: str, filters: dict) -> SavedSearch:
        """Save (or replace) a named search."""
        return self._store.save_search(name, query, filters)

    def delete_search(self, name: str) -> None:
        """Delete a saved search."""
        self._store.delete_search(name)

    @property
    def shortlists(self):
        """Named shortlists with a note per candidate (catalog tables)."""
        return self._app.shortlists

    # ---- exports (audited) ----------------------------------------------------------------------
    def export_candidates_csv(self, rows: list[dict], path: Path, notes: dict | None = None,
                              blind: bool = False) -> int:
        """Write candidates to CSV (``csv_export.export_candidates_csv``) and audit it; returns the rows written."""
        app = self._app
        room_to_export(app)
        if blind:  # a document row takes its person's pseudonym (the table's, the chat's), not its own
            by_doc = app.directory.snapshot().grouping.by_document
            rows = [r if r.get("person_id") else {**r, "person_id": by_doc.get(str(r.get("id")))} for r in rows]
        n = export_candidates_csv(rows, Path(path), notes, blind=blind)
        app.audit.record_shown("export.candidates", details={"ranking": [str(r.get("id")) for r in rows],
                                                             "rows": n, "blind": bool(blind)})
        return n

    def export_people_csv(self, rows: list[dict], path: Path, notes: dict | None, states: dict,
                          blind: bool = False) -> int:
        """Write people with their screening to CSV (``screening.export_people_csv``) and audit it."""
        app = self._app
        room_to_export(app)
        n = export_people_csv(rows, Path(path), notes, states)
        ids = [str(r.get("person_id") or r.get("id")) for r in rows]
        app.audit.record_shown("export.people", details={
            "ranking": [i for i in ids if app.catalog.candidate(i)], "rows": n, "blind": bool(blind)})
        return n
