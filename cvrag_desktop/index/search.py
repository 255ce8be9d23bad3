"""The three retrieval strategies, over either store (embedded Edge shard or Qdrant server).

- :meth:`Retriever.search_hybrid` — dense + BM25, weighted RRF fusion (dense 1, BM25 3);
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
from typing import Literal, Protocol

from cvrag_desktop.index.embeddings import Embedder
from cvrag_desktop.index.filters import FIELD_SECTIONS, SearchFilters, fact_values
from cvrag_desktop.index.records import QueryVectors, RawHit
from cvrag_desktop.index.rerank import OnnxCrossEncoder
from cvrag_desktop.text.keys import text_key
from cvrag_desktop.text.vocab.languages import canonical_language
from cvrag_desktop.text.vocab.skills import canonical_skill

__all__ = ["RawHit", "Retriever", "Store"]

RERANK_PREFETCH = 50
MIN_PREFETCH = 32
# RRF weights (dense, sparse). BM25 gets more say: recruiters' queries are mostly exact tokens
# (skills, employers, degrees), where dense MiniLM is weak on Spanish CVs; measured in
# benchmarks/retrieval_quality.py.
RRF_WEIGHTS = (1.0, 3.0)
VOCABULARY_BOOST = 3.0  # extra BM25 weight when the whole query is a known skill or spoken language


def vocabulary_query(query: str) -> bool:
    """True when the query is just a known skill or spoken language ("German", "k8s", "C#").

    The dense branch (English MiniLM) has no notion that "Deutsch" is "German"; BM25 over
    the canonical names in each chunk's header does, so such queries lean on keywords.
    """

    q = query.strip().strip("?.!")
    return 0 < len(q) <= 40 and bool(canonical_language(q) or canonical_skill(q))
MAX_FILTERED = 2000
RERANK_CAP = 200
Mode = Literal["hybrid", "dense", "sparse"]
TextLookup = Callable[[list[str]], dict[str, str]]


class Store(Protocol):
    """What the strategies need from a store (:class:`IndexStore` or :class:`QdrantStore`)."""

    def count(self, filters: SearchFilters | None = None) -> int: ...

    def ranked(self, q: QueryVectors, filters: SearchFilters | None, limit: int,
               weights: tuple[float, float], top: int | None = None) -> list[RawHit]: ...

    def metadata(self, filters: SearchFilters, k: int | None) -> list[tuple[str, list[tuple[str, str]]]]: ...


class Retriever:
    """Runs the strategies; ``texts`` maps chunk ids to display text (for reranking and facts)."""

    def __init__(self, store: Store, embedder: Embedder, texts: TextLookup,
                 reranker: OnnxCrossEncoder | None = None, weights: tuple[float, float] = RRF_WEIGHTS) -> None:
        self.weights = weights
        self.store = store
        self.embedder = embedder
        self.texts = texts
        self.reranker = reranker

    def _ranked(self, query: str, filters: SearchFilters | None, limit: int, mode: Mode,
                top: int | None = None) -> list[RawHit]:
        q = self.embedder.query_vectors(query, dense=mode in ("hybrid", "dense"), sparse=mode in ("hybrid", "sparse"))
        weights = self.weights
        if mode == "hybrid" and vocabulary_query(query):
            weights = (weights[0], weights[1] * VOCABULARY_BOOST)  # an exact term: keywords decide
        return self.store.ranked(q, filters, limit, weights, top)

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
        use_rerank = rerank and self.reranker is not None
        limit = max(RERANK_PREFETCH, k) if use_rerank else max(4 * k, MIN_PREFETCH)
        hits = self._ranked(query, filters if filters and not filters.is_empty() else None, limit, mode)
        if use_rerank:
            hits = self.rerank(query, hits)
        return hits[:k]

    def search_metadata(self, filters: SearchFilters, k: int | None = None) -> list[RawHit]:
        """One hit per candidate passing the filter, on the chunk holding the matched fact."""
        if filters.is_empty():
            return []
        fields = filters.set_fields()
        sections = FIELD_SECTIONS.get(fields[0], ()) if fields else ()
        values = fact_values(filters, fields[0]) if fields else []
        return [self._fact_chunk(cid, chunks, sections, values) for cid, chunks in self.store.metadata(filters, k)]

    def _fact_chunk(self, candidate_id: str, chunks: list[tuple[str, str]], sections: tuple[str, ...],
                    values: list[str]) -> RawHit:
        rank = {s: i for i, s in enumerate(sections)}
        pool = sorted(chunks, key=lambda c: (rank.get(c[1], len(rank)), c[0]))
        best = pool[0]
        in_section = [c for c in pool if c[1] == best[1]]
        if values and len(in_section) > 1:
            texts = self.texts([c[0] for c in in_section])
            for c in in_section:
                body = text_key(texts.get(c[0], ""))
                if any(v and v in body for v in values):
                    best = c
                    break
        return RawHit(best[0], candidate_id, best[1], 1.0)

    def search_metadata_then_rerank(self, query: str, filters: SearchFilters, k: int = 8) -> list[RawHit]:
        """Every chunk passing the filter, ranked against the query; top-k chunks."""
        if filters.is_empty():
            return self.search_hybrid(query, None, k)
        n = self.store.count(filters)
        if n == 0:
            return []
        # each branch ranks the whole filtered set; only the fused head is returned
        top = max(k, RERANK_CAP) if self.reranker is not None else k
        hits = self._ranked(query, filters, min(n, MAX_FILTERED), "hybrid", top)
        if self.reranker is not None:
            hits = self.rerank(query, hits[:RERANK_CAP]) + hits[RERANK_CAP:]
        return hits[:k]
