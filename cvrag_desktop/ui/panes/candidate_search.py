"""Ranked search and filtering in the Candidates pane (a mixin of :class:`CandidatesPane`).

The search box runs ``services.search`` in a worker (300 ms debounce; a newer query
cancels the older task and an older result that still arrives is ignored), groups the
chunk hits by person (:func:`cvrag_desktop.ui.ranking.rank_people`) and orders the
table by relevance with a score bar and the best passage. People below the relevance
floor (``services.search_with_floor``) are hidden behind a "Show weaker matches (N)"
toggle; when nobody passes it, the pane says so and offers the closest skills or names.
Filters and search combine:
the facets the index can apply (skills, spoken language, years) go with the query to
``services.search``, so its best passages are found among the people those filters keep
(not taken from the whole library and then thinned out), and every facet still filters
the ranked rows; changing a facet while a search is shown runs it again. Clearing the box
restores the sort the table had before the search.
Without ``services.search`` (or when it fails) the box is a plain word filter.

Every filter change (facets, search, shortlist view) goes through :meth:`_set_filters`:
the count and the facet counts follow, and a selected person the filters hide is
cleared from the detail, preview and notes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

import math
from dataclasses import dataclass, field

from PySide6.QtCore import Qt

from cvrag_desktop.ui.blind_mode import blind_hits  # blind: no name or address in snippets
from cvrag_desktop.ui.models.candidates import REL_COL, SEARCH_COLS
from cvrag_desktop.ui.ranking import PersonHit, rank_people

SEARCH_K = 200
TEXT_TIP = ("Filters the table by the words typed (name, title, employers, skills, degrees, languages). "
            "Hybrid search is not available in this build yet, so this is a plain text filter.")
SEARCH_TIP = ("Search the CVs by meaning and keywords: candidates are ordered by relevance, best evidence first, "
              "with the passage that matched. The filters on the left still apply. Clear the box to go back "
              "to the previous order.")


def index_filters(proxy) -> dict | None:
    """The active facets the search index can apply itself, as ``services.search`` filters.

    Each is at most as strict as the table's own test (the table still applies every
    facet afterwards), so narrowing in the index never hides a row the facets would show:
    skills and the spoken language are matched through the same alias tables; years are
    whole years in the index (``min_years`` 5 keeps 5.0 and more, ``max_years`` 5 keeps
    less than 6). The employer facet is a substring test in the table and is left to it.
    """
    out: dict = {}
    if proxy.skills:
        out["skills"] = sorted(proxy.skills)
    if proxy.language:
        out["languages"] = [proxy.language]
    if proxy.min_years is not None:
        out["min_years"] = max(0, min(80, math.floor(proxy.min_years)))
    if proxy.max_years is not None:
        out["max_years"] = max(0, min(80, math.floor(proxy.max_years)))
    return out or None


@dataclass
class SearchOutcome:
    """A ranked search split at the relevance floor: main people, weaker ones, suggestions when none."""

    main: list[PersonHit]
    weaker: list[PersonHit] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)


def weaker_label(count: int, shown: bool) -> str:
    """The toggle's text: "Show weaker matches (3)" / "Hide weaker matches (3)"."""
    return f"{'Hide' if shown else 'Show'} weaker matches ({count})"


def has_search(services: App) -> bool:
    """True when the application offers hybrid search (``app.search``)."""
    return callable(getattr(getattr(services, "search", None), "search", None))


class RankedSearch:
    """Search-box behaviour; expects ``search``, ``table``, ``model``, ``proxy``, ``runner``, ``services``."""

    _search_seq = 0
    _saved_sort: tuple[int, Qt.SortOrder] | None = None
    _outcome: SearchOutcome | None = None

    def focus_search(self) -> None:
        """Ctrl+F."""
        self.search.setFocus()
        self.search.selectAll()

    @property
    def ranked(self) -> bool:
        """True while the table shows a ranked search."""
        return self._saved_sort is not None

    def _setup_search_columns(self) -> None:
        header = self.table.horizontalHeader()
        for pos, col in enumerate(SEARCH_COLS, start=1):  # right after the name
            header.moveSection(header.visualIndex(col), pos)
        self.table.setColumnWidth(REL_COL, 95)
        self.table.setColumnWidth(SEARCH_COLS[1], 320)
        for col in SEARCH_COLS:
            self.table.setColumnHidden(col, True)

    def _run_search(self) -> None:
        query = self.search.text().strip()
        self._search_seq += 1
        self._outcome = None
        self.weaker_btn.blockSignals(True)
        self.weaker_btn.setChecked(False)  # a new search starts with the main matches only
        self.weaker_btn.blockSignals(False)
        self.weaker_btn.setVisible(False)
        if not query:
            self.runner.cancel("search")
            self.model.set_ranking(None)
            self._set_filters(restrict_ids=None, text="")
            self._end_ranked_sort()
            self._after_search()
            return
        if not has_search(self.services):
            self._set_filters(text=query, restrict_ids=None)
            self._after_search()
            return
        svc, seq, owners = self.services, self._search_seq, self.model.owners()
        filters = index_filters(self.proxy)
        blind = getattr(self, "blind", None)

        def search(ctx):
            floor = getattr(svc.search, "search_with_floor", None)
            if not callable(floor):
                ranked = rank_people(svc.search.search(query, filters, SEARCH_K, "hybrid"), owners.get, query)
                return SearchOutcome(blind_hits(blind, svc, ranked))
            found = floor(query, filters, SEARCH_K, "hybrid", person_of=owners.get)
            main = blind_hits(blind, svc, rank_people(found["main"], owners.get, query))
            shown = {p.person_id for p in main}
            weaker = [p for p in rank_people(found["weaker"], owners.get, query) if p.person_id not in shown]
            return SearchOutcome(main, blind_hits(blind, svc, weaker), list(found.get("suggestions") or []))

        def failed(exc: BaseException) -> None:  # index missing or broken: fall back honestly
            if seq != self._search_seq:
                return
            self.message.show_message(f"Search is unavailable ({exc}); filtering by text instead.", "warning")
            self.model.set_ranking(None)
            self._end_ranked_sort()
            self._set_filters(text=query, restrict_ids=None)
            self._after_search()

        self.runner.start("search", search, on_result=lambda ranked: self._apply_search(seq, ranked),
                          on_error=failed)

    def _apply_search(self, seq: int, outcome: SearchOutcome) -> None:
        if seq != self._search_seq:  # an older query's result: a newer one is on its way
            return
        self._outcome = outcome
        self._show_outcome()

    def _show_outcome(self) -> None:
        """The main matches, and the weaker ones too while the toggle is on."""
        outcome = self._outcome
        if outcome is None:
            return
        with_weaker = self.weaker_btn.isChecked()
        ranked = outcome.main + (outcome.weaker if with_weaker else [])
        self.weaker_btn.setVisible(bool(outcome.weaker))
        self.weaker_btn.setText(weaker_label(len(outcome.weaker), with_weaker))
        if not outcome.main:
            hint = f" Closest skills or names: {', '.join(outcome.suggestions)}." if outcome.suggestions else ""
            self.message.show_message(f"No close match for “{self.search.text().strip()}”.{hint}", "info")
        self.model.set_ranking(ranked)
        self._set_filters(restrict_ids={p.person_id for p in ranked}, text="")
        self._begin_ranked_sort()
        self._after_search()

    def _weaker_toggled(self, _on: bool) -> None:
        """The "Show weaker matches (N)" toggle: the same search, with or without the weaker people."""
        if self.ranked:
            self._show_outcome()

    def _begin_ranked_sort(self) -> None:
        header = self.table.horizontalHeader()
        if self._saved_sort is None:
            self._saved_sort = (header.sortIndicatorSection(), header.sortIndicatorOrder())
        for col in SEARCH_COLS:
            self.table.setColumnHidden(col, False)
        self.table.sortByColumn(REL_COL, Qt.SortOrder.DescendingOrder)
        self.table.scrollToTop()

    def _end_ranked_sort(self) -> None:
        for col in SEARCH_COLS:
            self.table.setColumnHidden(col, True)
        if self._saved_sort is not None:
            col, order = self._saved_sort
            self._saved_sort = None
            self.table.sortByColumn(col, order)

    def _after_search(self) -> None:
        rec = getattr(self, "_preview_rec", None)
        if rec is not None and rec.get("id") == self.current_id and self.preview.path:
            self._preview_first(rec)  # the CV on screen: this search's words lit, never the last one's
        self.search_done.emit(self.proxy.rowCount())

    def _update_count(self) -> None:
        shown, total = self.proxy.rowCount(), self.model.rowCount()
        self.count_label.setText(f"{shown} of {total} candidates" if shown != total else f"{total} candidates")

    def _set_filters(self, **values) -> None:
        """Change proxy filters; the row that was current does not hand its place to a neighbour."""
        self._filtering = True
        try:
            self.proxy.set_filters(**values)
        finally:
            self._filtering = False
        self._filters_changed()

    def _filters_changed(self) -> None:
        """After any filter, search or shortlist-view change: count, facet counts, stale detail."""
        self._update_count()
        self.facets.set_counts(*self.proxy.facet_counts(self.model.rows()))
        if self._restoring:
            return
        row = self.model.row(self.current_id) if self.current_id else None
        if self.current_id and (row is None or not self.proxy.passes(row)):
            self.clear_detail()

    def _facets_changed(self, values: dict) -> None:
        """A facet changed: filter the table now; a shown search runs again with the new filters."""
        self._set_filters(**values)
        if self.ranked or (self.search.text().strip() and has_search(self.services)):
            self._search_timer.start()

    def _shortlist_view_changed(self, ids: object) -> None:
        self._set_filters(shortlist_ids=ids)

    def best_hit(self, person_id: str) -> PersonHit | None:
        """The person's best passage in the current search, if any."""
        return self.model.ranking.get(person_id) if self.ranked else None
