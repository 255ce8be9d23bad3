"""The filter/sort proxy of the candidate table: facets, screening, search and shortlist view.

Facets (skills, years, degree, language, employer) and the screening filters (status,
tag, rating) test the person's row (skills, languages, years and the held degree through
``text.rules``, the decision chat counts use; the person's state); the
text or search restriction and the shortlist view match *any* of the person's documents.
"""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt

from cvrag_desktop.app.rules import speaks, years_within
from cvrag_desktop.ui.models.candidates import CandidateTableModel

OPEN = "open"  # status filter: everyone not hired and not rejected


def person_skills(row: dict) -> list[str]:
    """The skills the Skills facet tests: the person's (every document), else the row's."""
    return row.get("person_skills") or row.get("skills") or []


def person_credentials(row: dict) -> list[str]:
    """The credentials the Credential facet tests (short names: "RN", "CPA", "ACLS")."""
    return row.get("person_credentials") or []


def person_fields(row: dict) -> list[str]:
    """The fields of work the Field facet tests ("nursing", "banking")."""
    return row.get("person_fields") or []


def person_languages(row: dict) -> list[str]:
    """The spoken languages the Language facet tests: the person's (English names), else the row's."""
    return row.get("person_languages") or row.get("languages") or []


class CandidateFilterProxy(QSortFilterProxyModel):
    """Facet, text/search and shortlist filters over :class:`CandidateTableModel`."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.skills: set[str] = set()
        self.min_years: float | None = None
        self.max_years: float | None = None
        self.min_degree = 0
        self.language = ""
        self.credential = ""
        self.work_field = ""
        self.employer = ""
        self.text = ""
        self.restrict_ids: set[str] | None = None  # search results or a shortlist
        self.shortlist_ids: set[str] | None = None
        self.status = ""  # a status, OPEN, or "" for any
        self.tag = ""
        self.min_rating = 0
        self.setSortRole(CandidateTableModel.SortRole)
        self.setDynamicSortFilter(True)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sorting is the source model's (one key per row); the proxy keeps the source order."""
        source = self.sourceModel()
        if isinstance(source, CandidateTableModel):
            source.sort(column, order)
        else:
            super().sort(column, order)

    def set_filters(self, **values) -> None:
        """Update some filter values and re-filter once."""
        modern = hasattr(self, "beginFilterChange")  # Qt >= 6.10
        if modern:
            self.beginFilterChange()
        for k, v in values.items():
            if not hasattr(self, k):
                raise AttributeError(k)
            setattr(self, k, v)
        if modern:
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        """All active filters must match."""
        return self.passes(self.sourceModel().row_at(source_row))

    def passes(self, r: dict, skip: frozenset[str] = frozenset()) -> bool:
        """Whether a row passes every active filter except those named in ``skip`` ("skills", "language")."""
        docs = r.get("document_ids") or [r["id"]]
        if self.shortlist_ids is not None and self.shortlist_ids.isdisjoint(docs):
            return False
        if self.restrict_ids is not None and self.restrict_ids.isdisjoint(docs):
            return False
        if self.skills and "skills" not in skip and not self.skills.issubset(set(person_skills(r))):
            return False
        if not years_within(r.get("person_years", r.get("years_of_experience")), self.min_years, self.max_years):
            return False
        if self.min_degree and r.get("degree_level", 0) < self.min_degree:
            return False
        if self.language and "language" not in skip and not speaks(person_languages(r), self.language):
            return False
        if self.credential and "credential" not in skip and self.credential not in person_credentials(r):
            return False
        if self.work_field and "work_field" not in skip and self.work_field not in person_fields(r):
            return False
        if self.status and (r.get("status") in ("hired", "rejected") if self.status == OPEN
                            else r.get("status") != self.status):
            return False
        if self.tag and self.tag.casefold() not in {t.casefold() for t in r.get("tags") or []}:
            return False
        if self.min_rating and (r.get("rating") or 0) < self.min_rating:
            return False
        if self.employer:
            needle = self.employer.casefold()
            if not any(needle in (c or "").casefold() for c in [*(r.get("companies") or []), r.get("current_company")]):
                return False
        return not (self.text and not all(t in r["_text"] for t in self.text.casefold().split()))

    def facet_counts(self, rows: list[dict]) -> tuple[Counter, Counter]:
        """Skill and language counts under the other active filters.

        A skill counts the rows shown if it were ticked too (skills are all-of); a language
        counts the rows shown under every filter but the language choice (it is one-of).
        """
        skills: Counter = Counter()
        languages: Counter = Counter()
        for r in rows:
            if self.passes(r):
                skills.update(set(person_skills(r)))
            if self.passes(r, frozenset({"language"})):
                languages.update(set(person_languages(r)))
        return skills, languages

    def visible_ids(self) -> list[str]:
        """Ids of the rows shown, in view order."""
        return [self.data(self.index(i, 0), CandidateTableModel.IdRole) for i in range(self.rowCount())]
