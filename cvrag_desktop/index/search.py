"""The three retrieval strategies over the chunk collection.

- :meth:`Retriever.search_hybrid` — dense + BM25 prefetch, fused by Qdrant with RRF;
  each branch oversamples (50) when a reranker re-scores the fused list.
- :meth:`Retriever.search_metadata` — filter only, no vectors: one hit per candidate,
  the chunk of the section that holds the matched fact (a companies filter → the
  experience chunk naming that company).
- :meth:`Retriever.search_metadata_then_rerank` — every chunk passing the filter is
  ranked against the query (fusion over the whole filtered set, then the reranker), so
  no candidate is dropped for a weak first-stage score.

Strategies return the top *chunks*, not candidates: one CV may rightly contribute
several sections. Deduplication per candidate happens at the citation layer
(:func:`cvrag_desktop.index.citations.dedupe_by_candidate`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from qdrant_client import models

from cvrag_desktop.index.embeddings import Embedder
from cvrag_desktop.index.filters import FIELD_SECTIONS, SearchFilters, build_filter, fact_values, text_key
from cvrag_desktop.index.rerank import OnnxCrossEncoder
from cvrag_desktop.index.store import DENSE, SPARSE, IndexStore

RERANK_PREFETCH = 50
MIN_PREFETCH = 32
# RRF weights (dense, sparse). BM25 gets more say: recruiters' queries are mostly exact tokens
# (skills, employers, degrees), where dense MiniLM is weak on Spanish CVs; measured in
# benchmarks/retrieval_quality.py.
RRF_WEIGHTS = (1.0, 3.0)
MAX_FILTERED = 2000
RERANK_CAP = 200
LEAN_FIELDS = ["chunk_id", "candidate_id", "section"]
Mode = Literal["hybrid", "dense", "sparse"]
TextLookup = Callable[[list[str]], dict[str, str]]


@dataclass
class RawHit:
    """A scored chunk reference (text is fetched from the catalog afterwards)."""

    chunk_id: str
    candidate_id: str
    section: str
    score: float


def _hits(points: list[models.ScoredPoint]) -> list[RawHit]:
    return [RawHit(p.payload["chunk_id"], p.payload["candidate_id"], p.payload["section"], float(p.score))
            for p in points if p.payload]


class Retriever:
    """Runs the strategies; ``texts`` maps chunk ids to display text (for reranking and facts)."""

    def __init__(self, store: IndexStore, embedder: Embedder, texts: TextLookup,
                 reranker: OnnxCrossEncoder | None = None, weights: tuple[float, float] = RRF_WEIGHTS) -> None:
        self.weights = weights
        self.store = store
        self.embedder = embedder
        self.texts = texts
        self.reranker = reranker

    def _prefetch(self, query: str, flt: models.Filter | None, limit: int, mode: Mode) -> list[models.Prefetch]:
        out: list[models.Prefetch] = []
        if mode in ("hybrid", "dense"):
            vec = self.embedder.dense([query])[0]
            out.append(models.Prefetch(query=vec, using=DENSE, filter=flt, limit=limit))
        if mode in ("hybrid", "sparse"):
            idx, vals = self.embedder.sparse_query(query)
            if idx:
                out.append(models.Prefetch(query=models.SparseVector(indices=idx, values=vals), using=SPARSE,
                                           filter=flt, limit=limit))
        return out

    def _ranked(self, query: str, flt: models.Filter | None, limit: int, mode: Mode) -> list[RawHit]:
        prefetch = self._prefetch(query, flt, limit, mode)
        if not prefetch:
            return []
        if len(prefetch) == 1:  # a single branch: its own ranking, no fusion
            p = prefetch[0]
            points = self.store.query_points(query=p.query, using=p.using, query_filter=flt, limit=limit,
                                             with_payload=LEAN_FIELDS)
        else:
            fusion = models.RrfQuery(rrf=models.Rrf(weights=list(self.weights)))
            points = self.store.query_points(prefetch=prefetch, query=fusion, limit=limit, with_payload=LEAN_FIELDS)
        return _hits(points)

    def rerank(self, query: str, hits: list[RawHit]) -> list[RawHit]:
        """Re-score hits with the cross-encoder (unchanged when none is loaded)."""
        if self.reranker is None or not hits:
            return hits
        texts = self.texts([h.chunk_id for h in hits])
        scores = self.reranker.score(query, [texts.get(h.chunk_id, "") for h in hits])
        for h, s in zip(hits, scores, strict=True):
            h.score = s
        return sorted(hits, key=lambda h: -h.score)

    def search_hybrid(self, query: str, filters: SearchFilters | None = None, k: int = 8, *,
                      mode: Mode = "hybrid", rerank: bool = True) -> list[RawHit]:
        """Top-k chunks by dense+sparse RRF fusion (or one branch), optionally reranked."""
        flt = build_filter(filters) if filters else None
        use_rerank = rerank and self.reranker is not None
        limit = max(RERANK_PREFETCH, k) if use_rerank else max(4 * k, MIN_PREFETCH)
        hits = self._ranked(query, flt, limit, mode)
        if use_rerank:
            hits = self.rerank(query, hits)
        return hits[:k]

    def search_metadata(self, filters: SearchFilters, k: int | None = None) -> list[RawHit]:
        """One hit per candidate passing the filter, on the chunk holding the matched fact."""
        flt = build_filter(filters)
        if flt is None:
            return []
        rows = self.store.scroll(flt, fields=[*LEAN_FIELDS, "years", "name"])
        by_cand: dict[str, list[dict]] = {}
        for r in rows:
            by_cand.setdefault(r["candidate_id"], []).append(r)
        fields = filters.set_fields()
        sections = FIELD_SECTIONS.get(fields[0], ()) if fields else ()
        values = fact_values(filters, fields[0]) if fields else []
        order = sorted(by_cand, key=lambda c: (-(by_cand[c][0].get("years") or 0), by_cand[c][0].get("name") or ""))
        if k is not None:
            order = order[:k]
        return [self._fact_chunk(by_cand[c], sections, values) for c in order]

    def _fact_chunk(self, chunks: list[dict], sections: tuple[str, ...], values: list[str]) -> RawHit:
        rank = {s: i for i, s in enumerate(sections)}
        pool = sorted(chunks, key=lambda r: (rank.get(r["section"], len(rank)), r["chunk_id"]))
        best = pool[0]
        in_section = [r for r in pool if r["section"] == best["section"]]
        if values and len(in_section) > 1:
            texts = self.texts([r["chunk_id"] for r in in_section])
            for r in in_section:
                body = text_key(texts.get(r["chunk_id"], ""))
                if any(v and v in body for v in values):
                    best = r
                    break
        return RawHit(best["chunk_id"], best["candidate_id"], best["section"], 1.0)

    def search_metadata_then_rerank(self, query: str, filters: SearchFilters, k: int = 8) -> list[RawHit]:
        """Every chunk passing the filter, ranked against the query; top-k chunks."""
        flt = build_filter(filters)
        if flt is None:
            return self.search_hybrid(query, None, k)
        n = self.store.count(flt)
        if n == 0:
            return []
        limit = min(n, MAX_FILTERED)
        hits = self._ranked(query, flt, limit, "hybrid")
        if self.reranker is not None:
            hits = self.rerank(query, hits[:RERANK_CAP]) + hits[RERANK_CAP:]
        return hits[:k]
