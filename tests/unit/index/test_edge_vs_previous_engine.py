"""Edge gives the previous engine's (SQLite + numpy) rankings: BM25, dense top-10, filters, real text.

Run once before the previous engine was removed; kept in history with it.
"""

from __future__ import annotations

import pytest

from cvrag_desktop.config import Settings, app_paths
from cvrag_desktop.index.edge_store import EdgeIndex
from cvrag_desktop.index.filters import SearchFilters
from cvrag_desktop.index.local import LocalIndex
from tests.unit.index.test_edge_store import FILTERS, WEIGHTS, query, random_corpus, same_hits

REAL_QUERIES = ["Kafka", "React interfaces", "nurse intensive care", "Physics", "German", "team of engineers",
                "Universidad de Sevilla", "C#", "Globex", "event streaming pipelines"]


@pytest.fixture
def pair(tmp_path):
    rows, payloads = random_corpus(seed=5, candidates=60)
    old, new = LocalIndex(_mk(tmp_path / "old")), EdgeIndex(tmp_path / "new")
    for e in (old, new):
        e.replace(list(payloads), rows, payloads)
    yield old, new, rows
    old.close()
    new.close()


def _mk(p):
    p.mkdir(parents=True, exist_ok=True)
    return p


@pytest.mark.parametrize("mode", ["dense", "sparse", "hybrid"])
def test_same_rankings_with_and_without_filters(pair, mode):
    old, new, rows = pair
    for f in FILTERS:
        assert old.count(f) == new.count(f)
        assert [c for c, _ in old.metadata(f, None)] == [c for c, _ in new.metadata(f, None)] if f else True
        for seed in range(8):
            q = query(rows, seed, mode)
            same_hits(old.ranked(q, f, 10, WEIGHTS), new.ranked(q, f, 10, WEIGHTS))


def test_same_results_on_real_text(catalog, tmp_path):
    """The fixture CVs embedded for real: dense and BM25 branches give the same scores (ties may come in
    another order: Qdrant puts the later-written point first, the old engine the earlier), and hybrid
    search the same candidates."""
    from cvrag_desktop.index.records import QueryVectors
    from cvrag_desktop.index.service import SearchService

    svc = SearchService(catalog, app_paths(), Settings())
    try:
        svc.rebuild()
        rows, payloads = svc._rows([r["candidate_id"] for r in catalog.query("SELECT candidate_id FROM candidates")],
                                   svc.store)
        old = LocalIndex(_mk(tmp_path / "old"))
        old.replace(list(payloads), rows, payloads)
        for text in REAL_QUERIES:
            q = svc.embedder.query_vectors(text, dense=True, sparse=True)
            for f in (None, SearchFilters(languages=["Spanish"]), SearchFilters(min_years=4)):
                for qq in (QueryVectors(q.dense, None, None), QueryVectors(None, q.terms, q.weights)):
                    same_hits(old.ranked(qq, f, 10, WEIGHTS), svc.store.ranked(qq, f, 10, WEIGHTS))
                a, b = old.ranked(q, f, 32, WEIGHTS), svc.store.ranked(q, f, 32, WEIGHTS)
                assert list(dict.fromkeys(h.candidate_id for h in a)) == list(dict.fromkeys(h.candidate_id for h in b))
        old.close()
    finally:
        svc.close()
