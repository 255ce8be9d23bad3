"""The Edge shard ranks and filters like Qdrant (qdrant-client), persists, and never re-embeds."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cvrag_desktop.config import Settings, app_paths
from cvrag_desktop.index.edge.engine import EdgeIndex
from cvrag_desktop.index.filters import SearchFilters
from cvrag_desktop.index.qdrant_store import QdrantStore
from cvrag_desktop.index.records import QueryVectors, Row
from tests.unit.index.conftest import PEOPLE, add_person

SKILLS = ["python", "java", "go", "kafka", "react", "sql"]
WORDS = ["acme", "globex", "initech", "logistics", "sa", "bank", "santander", "health"]
WEIGHTS = (1.0, 3.0)


def random_corpus(seed: int = 3, candidates: int = 40) -> tuple[list[Row], dict[str, dict]]:
    """Rows with random unit vectors and BM25 terms, candidates with random filter fields."""
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    rows, payloads = [], {}
    for c in range(candidates):
        cid = f"c{c}"
        payloads[cid] = {
            "skills": sorted(rng.sample(SKILLS, rng.randint(0, 3))), "languages": ["english"], "emails": [],
            "name": f"person {c}", "title": rng.choice(["backend developer", "nurse", "data engineer"]),
            "company": "", "companies": [" ".join(rng.sample(WORDS, 2)) for _ in range(rng.randint(0, 2))],
            "degrees": [], "institutions": [], "certifications": [], "location": "",
            "years": rng.choice([None, 1, 3, 5, 8, 12]),
        }
        for k in range(rng.randint(1, 5)):
            v = nprng.normal(size=384).astype(np.float32)
            v = (v / np.linalg.norm(v)).astype(np.float16).astype(np.float32)  # what the shard keeps
            terms = np.array(sorted(rng.sample(range(1, 60), rng.randint(1, 8))), dtype=np.uint32)
            weights = nprng.uniform(0.3, 1.8, size=len(terms)).astype(np.float32)
            rows.append(Row(f"{cid}-{k}", cid, rng.choice(["skills", "experience"]), f"d{cid}{k}", v, terms, weights))
    return rows, payloads


@pytest.fixture
def engines(tmp_path):
    """The corpus in an Edge shard and in qdrant-client (local mode: the server code path)."""
    rows, payloads = random_corpus()
    edge = EdgeIndex(tmp_path / "edge")
    edge.replace(list(payloads), rows, payloads)
    client = QdrantStore(path=tmp_path / "qdrant")
    client.replace(list(payloads), rows, payloads)
    yield edge, client, rows
    edge.close()
    client.close()


def query(rows: list[Row], seed: int, mode: str = "hybrid") -> QueryVectors:
    """A query near one chunk (dense) with three random terms (BM25)."""
    rng = np.random.default_rng(seed)
    dense = rows[seed % len(rows)].dense + rng.normal(scale=0.02, size=384).astype(np.float32)
    terms = np.array(rng.choice(np.arange(1, 60), size=3, replace=False), dtype=np.uint32)
    return QueryVectors(None if mode == "sparse" else dense / np.linalg.norm(dense),
                        None if mode == "dense" else terms, None if mode == "dense" else np.ones(3, dtype=np.float32))


FILTERS = [None, SearchFilters(skills=["python"]), SearchFilters(min_years=5), SearchFilters(max_years=3),
           SearchFilters(companies=["acme"]), SearchFilters(titles=["backend developer"], skills=["go"]),
           SearchFilters(companies=["bank santander"]), SearchFilters(companies=["...", "acme"]),
           SearchFilters(min_years=3, max_years=8, skills=["java"])]


def same_hits(a, b) -> None:
    """Same scores in the same order and the same chunks for each score.

    Equal fused scores (RRF ties) may come in either order, and a tie cut by the limit
    may keep different members: the last group of equal scores is compared by score only.
    """
    assert np.allclose([h.score for h in a], [h.score for h in b], rtol=1e-3, atol=1e-4)
    groups = lambda hits: [sorted(h.chunk_id for h in hits if round(h.score, 4) == s)  # noqa: E731
                           for s in dict.fromkeys(round(h.score, 4) for h in hits)]
    assert groups(a)[:-1] == groups(b)[:-1]


@pytest.mark.parametrize("fi", range(len(FILTERS)))
def test_same_ranking_as_qdrant_client(engines, fi):
    edge, client, rows = engines
    f = FILTERS[fi]
    assert edge.count(f) == client.count(f)
    for seed in range(5):
        for mode in ("dense", "sparse", "hybrid"):
            q = query(rows, seed, mode)
            same_hits(edge.ranked(q, f, 10, WEIGHTS), client.ranked(q, f, 10, WEIGHTS))


def test_one_value_semantics_of_free_text_filters(engines):
    """Every word of a company filter must occur in ONE of the candidate's companies, on both engines."""
    edge, client, _rows = engines
    for words in (["acme", "globex"], ["bank", "santander"], ["logistics", "health"]):
        f = SearchFilters(companies=[" ".join(words)])
        got = {c for c, _ in edge.metadata(f, None)}
        assert got == {c for c, _ in client.metadata(f, None)}
        _rows2, payloads = random_corpus()
        want = {c for c, p in payloads.items() if any(set(words) <= set(v.split()) for v in p["companies"])}
        assert got == {c for c in want if any(r.candidate_id == c for r in _rows2)}


def test_metadata_matches_and_reopen_is_identical(engines, tmp_path):
    edge, client, rows = engines
    for f in FILTERS[1:]:
        assert [c for c, _ in edge.metadata(f, None)] == [c for c, _ in client.metadata(f, None)]
        assert edge.metadata(f, None) == client.metadata(f, None)  # chunks in catalog order too
    q = query(rows, 1)
    before = edge.ranked(q, None, 20, WEIGHTS)
    edge.close()
    again = EdgeIndex(tmp_path / "edge")
    same_hits(again.ranked(q, None, 20, WEIGHTS), before)
    again.close()


def test_deletes_replacements_and_compaction_keep_rankings_equal(engines):
    """Deleted points leave dense and filtered results at once; Qdrant's IDF drops them at compaction."""
    edge, client, rows = engines
    for store in (edge, client):
        store.delete_candidate("c1")
        store.delete_points(["c2-0", "c3-0"])
        store.replace(["c4"], [r for r in rows if r.candidate_id == "c4"][:1],
                      {"c4": {"skills": ["cobol"], "years": 30, "name": "c four"}})
    assert edge.count() == client.count()
    assert edge.dead == len([r for r in rows if r.candidate_id in ("c1", "c4")]) + 2
    assert [c for c, _ in edge.metadata(SearchFilters(skills=["cobol"]), None)] == ["c4"]
    for seed in range(4):
        q = query(rows, seed, "dense")
        same_hits(edge.ranked(q, None, 15, WEIGHTS), client.ranked(q, None, 15, WEIGHTS))
    edge.compact()  # the shard rewritten with its live points only
    assert edge.dead == 0 and edge.count() == client.count()
    for seed in range(4):
        for mode in ("dense", "sparse", "hybrid"):
            for f in FILTERS[:5]:
                q = query(rows, seed, mode)
                same_hits(edge.ranked(q, f, 15, WEIGHTS), client.ranked(q, f, 15, WEIGHTS))
    assert not any(h.candidate_id == "c1" for h in edge.ranked(query(rows, 0), None, 200, WEIGHTS))


def test_optimized_shard_keeps_rankings_and_reopens(engines, tmp_path):
    """``cvrag reindex`` seals the shard (optimize): same rankings with filters, same metadata, and the
    sealed shard reopens (its keyword indexes memory-mapped) and still takes writes."""
    edge, client, rows = engines
    before = [c for c, _ in edge.metadata(SearchFilters(skills=["python"]), None)]
    assert edge.optimize() is True
    for seed in range(3):
        for mode in ("dense", "sparse", "hybrid"):
            for f in FILTERS:
                q = query(rows, seed, mode)
                same_hits(edge.ranked(q, f, 15, WEIGHTS), client.ranked(q, f, 15, WEIGHTS))
    assert [c for c, _ in edge.metadata(SearchFilters(skills=["python"]), None)] == before
    edge.close()
    again = EdgeIndex(tmp_path / "edge")  # a clean close sealed it; the seal check passes
    try:
        assert again.count() == client.count() and again.info()["segments"] >= 1
        for store in (again, client):
            store.delete_candidate("c1")
        q = query(rows, 1, "dense")
        same_hits(again.ranked(q, None, 15, WEIGHTS), client.ranked(q, None, 15, WEIGHTS))
    finally:
        again.close()
        edge.shard = again.shard  # the fixture closes ``edge`` again: give it a closed shard to flush


def test_many_deletes_trigger_a_rewrite(tmp_path, monkeypatch):
    from cvrag_desktop.index.edge import engine as edge_store

    monkeypatch.setattr(edge_store, "COMPACT_MIN", 10)
    rows, payloads = random_corpus()
    edge = EdgeIndex(tmp_path / "edge")
    try:
        edge.replace(list(payloads), rows, payloads)
        for _ in range(3):  # the same candidates re-indexed: every old point is dead
            edge.replace(list(payloads)[:20], [r for r in rows if int(r.candidate_id[1:]) < 20], payloads)
        assert edge.dead < 10 + len(rows) // 4
        assert edge.count() == len(rows)
    finally:
        edge.close()


def test_reset_keeps_vectors_for_the_rebuild_then_forgets_them(engines):
    edge, _client, rows = engines
    digests = [r.digest for r in rows[:5]]
    assert set(edge.known_vectors(digests)) == set(digests)
    stored = edge.known_vectors(digests[:1])[digests[0]]
    assert np.allclose(stored[0], rows[0].dense, atol=1e-3) and list(stored[1]) == list(rows[0].terms)
    edge.reset(keep_vectors=True)
    assert edge.count() == 0
    assert set(edge.known_vectors(digests)) == set(digests)  # from the side file
    edge.drop_reuse()
    assert edge.known_vectors(digests) == {}


def test_unchanged_chunks_are_not_re_embedded_and_rebuild_reuses_vectors(catalog):
    from cvrag_desktop.index.service import SearchService

    svc = SearchService(catalog, app_paths(), Settings())
    try:
        svc.rebuild()
        first = dict(svc.stats)
        assert first["embedded"] > 0
        svc.index_candidate("cand_ana")
        svc.rebuild()
        assert svc.stats["embedded"] == first["embedded"]  # nothing new to embed
        assert svc.stats["reused"] >= first["embedded"]
        add_person(catalog, dict(PEOPLE[3], cid="cand_dan", summary="Now a paramedic on ambulances."))
        svc.index_candidate("cand_dan")
        assert svc.stats["embedded"] > first["embedded"]  # only changed texts are embedded
        assert svc.search("paramedic ambulances", k=1)[0]["candidate_id"] == "cand_dan"
    finally:
        svc.close()


def test_other_models_vectors_are_dropped(catalog):
    from cvrag_desktop.index.service import SearchService

    svc = SearchService(catalog, app_paths(), Settings())
    svc.rebuild()
    assert svc.store.count() > 0
    svc.store.client.meta("model", "some-other-model")
    svc.close()
    svc = SearchService(catalog, app_paths(), Settings())
    try:
        assert svc.store.count() == 0  # stale vectors dropped on open
        assert svc.reconcile()["candidates_indexed"] == len(PEOPLE)
    finally:
        svc.close()


@pytest.mark.parametrize("k", [1, 3, 8, 30])
def test_metadata_top_k_reads_by_years_and_keeps_the_order(engines, k, monkeypatch):
    """The top-k path (descending years, unknown years last as 0) equals the full ordering cut at k."""
    from cvrag_desktop.index.edge import engine as edge_store

    edge, client, _rows = engines
    for f in [SearchFilters(languages=["english"]), *FILTERS[1:]]:
        full = edge.metadata(f, None)
        assert edge.metadata(f, k) == full[:k] == client.metadata(f, k)
    monkeypatch.setattr(edge_store, "max", lambda *a: 2, raising=False)  # tiny pages: the growing limit
    assert edge.metadata(SearchFilters(languages=["english"]), k) == edge.metadata(SearchFilters(languages=["english"]), None)[:k]


def test_fused_head_equals_the_head_of_the_whole_fusion(engines):
    """``top`` only cuts the fused list: each branch still ranks ``limit`` points (the filtered strategy)."""
    edge, client, rows = engines
    for mode in ("dense", "sparse", "hybrid"):
        for f in FILTERS[:3]:
            q = query(rows, 2, mode)
            whole = edge.ranked(q, f, 60, WEIGHTS)
            same_hits(edge.ranked(q, f, 60, WEIGHTS, top=5), whole[:5])
            same_hits(client.ranked(q, f, 60, WEIGHTS, top=5), whole[:5])
