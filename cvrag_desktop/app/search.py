"""Search: ranked hybrid search cut at the relevance floor, closest terms for an empty search, and why a rank.

The search itself is the index's (``index/service.py``); the floor is ``index/relevance.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cvrag_desktop.app.types import SearchFilterRequest, SearchSplit
from cvrag_desktop.errors import InvalidInput, NotFound
from cvrag_desktop.index import STRATEGIES
from cvrag_desktop.index.relevance import split_by_floor

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

POOL = 200  # hits read to decide who passes the relevance floor (the GUI's search and the CLI's read as many)
MAX_HITS = 10_000  # more than any library's chunks a person would page through; beyond it a typo, not a wish


def checked_k(k: int) -> int:
    """How many hits to return, or :class:`InvalidInput` for a count that is not a positive number."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_HITS:
        raise InvalidInput(f"The number of hits must be a whole number from 1 to {MAX_HITS} (got {k!r}).")
    return k


def strategies() -> tuple[str, ...]:
    """The search strategies the index offers (``hybrid``, ``metadata``, ...)."""
    return tuple(STRATEGIES)


class SearchOps:
    """Hybrid / metadata / filtered search over the indexed chunks, and the explanation of a rank."""

    def __init__(self, app: App) -> None:
        self._app = app

    def search(self, query: str | None, filters: SearchFilterRequest | None = None, k: int = 8, strategy: str = "hybrid",
               rerank: bool = True) -> list[dict]:
        """Hybrid / metadata / filtered search over the indexed chunks (see ``index.service``)."""
        k = checked_k(k)
        if rerank:
            return self._app.index.search(query, filters, k=k, strategy=strategy)
        return self._app.index.search(query, filters, k=k, strategy=strategy, rerank=False)

    def split_at_floor(self, hits: list[dict], query: str, key: Callable | None = None) -> tuple[list, list]:
        """``(main, weaker)``: hits of people whose passages state enough of the query, and the rest."""
        main, weaker, _ = split_by_floor(hits, query, key) if key else split_by_floor(hits, query)
        return main, weaker

    def search_with_floor(self, query: str, filters: SearchFilterRequest | None = None, k: int = POOL, strategy: str = "hybrid",
                          person_of=None) -> SearchSplit:
        """Ranked search split at the relevance floor (``index.relevance``): main and weaker matches.

        Returns ``{main, weaker}`` (hit lists in rank order), ``main_people`` / ``weaker_people``
        (how many people each holds, grouped by ``person_of(candidate_id)``, by document
        when none is given) and, when nothing passes the floor, ``suggestions``: the library's
        skills and names closest to the query.
        """
        hits = self.search(query, filters, k, strategy)
        key = (lambda h: person_of(h["candidate_id"]) or h["candidate_id"]) if person_of else None
        main, weaker = self.split_at_floor(hits, query, key)
        group = key or (lambda h: h["candidate_id"])
        main_people = len({group(h) for h in main})
        out: SearchSplit = {"main": main, "weaker": weaker, "main_people": main_people,
                            "weaker_people": len({group(h) for h in weaker} - {group(h) for h in main}),
                            "suggestions": []}
        if not main:
            out["suggestions"] = self.closest_terms(query)
        return out

    def closest_terms(self, query: str, limit: int = 5) -> list[str]:
        """The skills and candidate names of the library closest in spelling to ``query`` (empty search)."""
        from rapidfuzz import fuzz, process

        names: dict[str, None] = {}
        for r in self._app.catalog.candidate_rows():
            for v in [r.get("name"), *(r.get("skills") or [])]:
                if v:
                    names.setdefault(v)
        found = process.extract(query, list(names), scorer=fuzz.WRatio, limit=limit, score_cutoff=60)
        return [m[0] for m in found]

    def explain_search(self, query: str, person: str | None = None, filters: SearchFilterRequest | None = None, rank: int | None = None) -> dict:
        """Why one person (or, with ``rank``, whoever is at that place) has their place in a ranked search
        (the search is run again, as the GUI runs it)."""
        from cvrag_desktop.assistant.jobmatch.rank_explain import explain_search, rank_search_people

        app = self._app
        owners = {d: pid for pid, ids in app.directory.snapshot().grouping.people.items() for d in ids}
        found = self.search_with_floor(query, filters, 200, "hybrid", person_of=owners.get)
        people = rank_search_people(found["main"], found["weaker"], owners.get)
        if person is None:
            if rank is None or not 1 <= int(rank) <= len(people):
                raise NotFound(f"This search ranks {len(people)} people: give a rank from 1 to {len(people)}."
                               if people else "This search finds nobody.")
            person = people[int(rank) - 1]["person_id"]
        pid = owners.get(person, person)
        for p in people:
            for h in p["hits"]:
                h.setdefault("source_path", (app.catalog.candidate(h["candidate_id"]) or {}).get("file_name") or "")
        reranker = bool(getattr(getattr(app.index, "reranker_info", None), "available", False))
        row = next((r for r in app.people.list_people() if r["id"] == pid), {})
        return explain_search(query, people, pid, name=row.get("display") or row.get("name") or "",
                              reranker=reranker, filters=filters)
