"""The local engine ranks and filters exactly like Qdrant did, persists, and never re-embeds."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cvrag_desktop.config import Settings, app_paths
from cvrag_desktop.index.filters import SearchFilters
from cvrag_desktop.index.local import LocalIndex
from cvrag_desktop.index.qdrant_store import QdrantStore
from cvrag_desktop.index.records import QueryVectors, Row
from tests.unit.index.conftest import PEOPLE, add_person

SKILLS = ["python", "java", "go", "kafka", "react", "sql"]
WORDS = ["acme", "globex", "initech", "logistics", "sa", "bank", "santander", "health"]


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
            v = (v / np.linalg.norm(v)).astype(np.float16).astype(np.float32)  # what the engine keeps
            terms = np.array(sorted(rng.sample(range(1, 60), rng.randint(1, 8))), dtype=np.uint32)
            weights = nprng.uniform(0.3, 1.8, size=len(terms)).astype(np.float32)
            rows.append(Row(f"{cid}-{k}", cid, rng.choice(["skills", "experience"]), f"d{cid}{k}", v, terms, weights))
    return rows, payloads


@pytest.fixture
def engines(tmp_path):
    rows, payloads = random_corpus()
    local = LocalIndex(tmp_path)
    local.replace(list(payloads), rows, payloads)
    qdrant = QdrantStore(path=tmp_path / "qdrant")
    qdrant.replace(list(payloads), rows, payloads)
    yield local, qdrant, rows
    local.close()
    qdrant.close()


def query(rows: list[Row], seed: int) -> QueryVectors:
    rng = np.random.default_rng(seed)
    dense = rows[seed % len(rows)].dense + rng.normal(scale=0.02, size=384).astype(np.float32)
    terms = np.array(rng.choice(np.arange(1, 60), size=3, replace=False), dtype=np.uint32)
    return QueryVectors(dense / np.linalg.norm(dense), terms, np.ones(3, dtype=np.float32))


FILTERS = [None, SearchFilters(skills=["python"]), SearchFilters(min_years=5), SearchFilters(max_years=3),
           SearchFilters(companies=["acme"]), SearchFilters(titles=["backend developer"], skills=["go"]),
           SearchFilters(companies=["bank santander"])]


@pytest.mark.parametrize("fi", range(len(FILTERS)))
def test_same_ranking_as_qdrant(engines, fi):
    local, qdrant, rows = engines
    f = FILTERS[fi]
    assert local.count(f) == qdrant.count(f)
    for seed in range(5):
        q = query(rows, seed)
        for mode in ("dense", "sparse", "hybrid"):
            qq = QueryVectors(q.dense if mode != "sparse" else None, *((q.terms, q.weights) if mode != "dense"
                                                                      else (None, None)))
            a = local.ranked(qq, f, 10, (1.0, 3.0))
            b = qdrant.ranked(qq, f, 10, (1.0, 3.0))
            assert [h.chunk_id for h in a] == [h.chunk_id for h in b], (mode, seed)
            assert np.allclose([h.score for h in a], [h.score for h in b], rtol=1e-3, atol=1e-4)


def test_metadata_matches_qdrant_and_reopen_is_identical(engines, tmp_path):
    local, qdrant, rows = engines
    for f in FILTERS[1:]:
        assert [c for c, _ in local.metadata(f, None)] == [c for c, _ in qdrant.metadata(f, None)]
    q = query(rows, 1)
    before = local.ranked(q, None, 20, (1.0, 3.0))
    local.close()
    again = LocalIndex(tmp_path)
    assert [(h.chunk_id, round(h.score, 6)) for h in again.ranked(q, None, 20, (1.0, 3.0))] == \
        [(h.chunk_id, round(h.score, 6)) for h in before]
    again.close()


def test_deletes_and_replacements_update_postings_idf_and_filters(engines):
    local, qdrant, rows = engines
    for store in (local, qdrant):
        store.delete_candidate("c1")
        store.delete_points(["c2-0", "c3-0"])
        store.replace(["c4"], [r for r in rows if r.candidate_id == "c4"][:1],
                      {"c4": {"skills": ["cobol"], "years": 30, "name": "c four"}})
    local._compact()  # renumbered slots rank the same
    assert local.count() == qdrant.count()
    assert [c for c, _ in local.metadata(SearchFilters(skills=["cobol"]), None)] == ["c4"]
    for seed in range(4):
        q = query(rows, seed)
        a, b = local.ranked(q, None, 15, (1.0, 3.0)), qdrant.ranked(q, None, 15, (1.0, 3.0))
        assert [h.chunk_id for h in a] == [h.chunk_id for h in b]
    assert not any(h.candidate_id == "c1" for h in local.ranked(query(rows, 0), None, 200, (1.0, 3.0)))


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
