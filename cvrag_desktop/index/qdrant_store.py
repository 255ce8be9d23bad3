"""Server mode: the same store methods on a Qdrant server or cluster (``index_url``).

Used when ``index_url`` is set (teams sharing one index). Qdrant does everything here:
dense + BM25 prefetch with weighted RRF fusion, IDF (``modifier=idf``), and filters on
keyword/integer payload indexes. Each point carries the same lean payload as the embedded
shard (ids + the candidate's filter fields, :func:`~cvrag_desktop.index.filters.point_fields`)
and the filters are the same neutral tree rendered for ``qdrant-client``
(:func:`~cvrag_desktop.index.where.to_client`). A ``path`` opens qdrant-client's local
mode instead — kept for the equivalence tests and ``benchmarks/retrieval.py --backend
qdrant-local``.
"""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

from qdrant_client import QdrantClient, models

from cvrag_desktop.index.embeddings import DENSE_DIM
from cvrag_desktop.index.filters import (
    INTEGER_FIELDS,
    KEYWORD_FIELDS,
    SearchFilters,
    build_filter,
    point_fields,
)
from cvrag_desktop.index.records import QueryVectors, RawHit, Row, candidates_by_years, point_id, seq_numbers
from cvrag_desktop.index.where import Where, to_client

log = logging.getLogger(__name__)

COLLECTION = "cvrag_chunks_v2"  # v2: keyword word lists instead of full-text indexes
DENSE = "dense"
SPARSE = "bm25"
SCROLL_PAGE = 1024
RRF_K = 2  # the same ranking constant as the embedded shard
LEAN_FIELDS = ["chunk_id", "candidate_id", "section"]


def _by_candidate(cid: str) -> models.Filter:
    return models.Filter(must=[models.FieldCondition(key="candidate_id", match=models.MatchValue(value=cid))])


class QdrantStore:
    """The chunk collection on a Qdrant server (or, for benchmarks, a local-mode folder)."""

    is_local = False

    def __init__(self, url: str | None = None, api_key: str | None = None, path: Path | None = None) -> None:
        self.url, self.path = url, path
        if url:
            self.client = QdrantClient(url=url, api_key=api_key, timeout=10)
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # "local mode not recommended for >20k"
                self.client = QdrantClient(path=str(path))
        if not self.client.collection_exists(COLLECTION):
            self._create()

    @property
    def location(self) -> str:
        """The server URL (or folder)."""
        return self.url or str(self.path)

    def close(self) -> None:
        """Close the client."""
        self.client.close()

    def folder_missing(self) -> bool:
        """A server has no folder to lose."""
        return False

    def ensure_model(self, tag: str) -> bool:
        """Models are not tracked on a server: run ``cvrag reindex`` after changing them."""
        return False

    def _create(self) -> None:
        self.client.create_collection(
            COLLECTION,
            vectors_config={DENSE: models.VectorParams(size=DENSE_DIM, distance=models.Distance.COSINE)},
            sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
        )
        if self.url:  # local mode has no payload indexes
            for name in KEYWORD_FIELDS:
                self.client.create_payload_index(COLLECTION, name, models.PayloadSchemaType.KEYWORD)
            for name in INTEGER_FIELDS:
                self.client.create_payload_index(COLLECTION, name, models.PayloadSchemaType.INTEGER)

    def reset(self, keep_vectors: bool = False) -> None:
        """Drop and recreate the collection (vectors are recomputed on a server)."""
        if self.client.collection_exists(COLLECTION):
            self.client.delete_collection(COLLECTION)
        self._create()

    def done_rebuilding(self) -> None:
        """Nothing kept between rebuilds on a server."""

    def known_vectors(self, digests: list[str]) -> dict:
        """No vector reuse on a server."""
        return {}

    def replace(self, candidate_ids: list[str], rows: list[Row], payloads: dict[str, dict]) -> None:
        """Delete the candidates' points, then upsert the new ones."""
        for cid in candidate_ids:
            self.delete_candidate(cid)
        fields = {c: point_fields(p) for c, p in payloads.items()}
        points = []
        for r, seq in zip(rows, seq_numbers(rows), strict=True):
            points.append(models.PointStruct(
                id=point_id(r.chunk_id),
                vector={DENSE: r.dense.tolist(), SPARSE: models.SparseVector(indices=r.terms.tolist(),
                                                                           values=r.weights.tolist())},
                payload={"chunk_id": r.chunk_id, "candidate_id": r.candidate_id, "section": r.section,
                         "digest": r.digest, "seq": seq, **fields[r.candidate_id]}))
        if points:
            self.client.upsert(COLLECTION, points=points, wait=True)

    def delete_candidate(self, candidate_id: str) -> None:
        """Remove every point of one candidate."""
        self.client.delete(COLLECTION, points_selector=models.FilterSelector(filter=_by_candidate(candidate_id)),
                           wait=True)

    def delete_points(self, chunk_ids: list[str]) -> None:
        """Remove points by chunk id."""
        if chunk_ids:
            self.client.delete(COLLECTION, points_selector=models.PointIdsList(
                points=[point_id(c) for c in chunk_ids]), wait=True)

    def count(self, filters: SearchFilters | None = None) -> int:
        """Number of points (passing the filters)."""
        flt = to_client(build_filter(filters))
        return self.client.count(COLLECTION, count_filter=flt, exact=True).count

    def scroll(self, fields: list[str] | None = None, where: Where | None = None) -> list[dict]:
        """Payloads of every point (passing a filter), paged."""
        out: list[dict] = []
        offset = None
        flt = to_client(where)
        while True:
            points, offset = self.client.scroll(COLLECTION, scroll_filter=flt, limit=SCROLL_PAGE, offset=offset,
                                                with_payload=fields or True, with_vectors=False)
            out.extend(p.payload or {} for p in points)
            if offset is None:
                return out

    def ranked(self, q: QueryVectors, filters: SearchFilters | None, limit: int,
               weights: tuple[float, float], top: int | None = None) -> list[RawHit]:
        """Dense / BM25 prefetch fused by Qdrant's weighted RRF (one branch: its own ranking)."""
        flt = to_client(build_filter(filters))
        prefetch = []
        if q.dense is not None:
            prefetch.append(models.Prefetch(query=q.dense.tolist(), using=DENSE, filter=flt, limit=limit))
        if q.has_sparse:
            vec = models.SparseVector(indices=q.terms.tolist(), values=q.weights.tolist())
            prefetch.append(models.Prefetch(query=vec, using=SPARSE, filter=flt, limit=limit))
        if not prefetch:
            return []
        if len(prefetch) == 1:
            p = prefetch[0]
            points = self.client.query_points(COLLECTION, query=p.query, using=p.using, query_filter=flt,
                                              limit=min(top or limit, limit), with_payload=LEAN_FIELDS).points
        else:
            fusion = models.RrfQuery(rrf=models.Rrf(k=RRF_K, weights=list(weights)))
            points = self.client.query_points(COLLECTION, prefetch=prefetch, query=fusion, limit=min(top or limit, limit),
                                              with_payload=LEAN_FIELDS).points
        return [RawHit(p.payload["chunk_id"], p.payload["candidate_id"], p.payload["section"], float(p.score))
                for p in points if p.payload]

    def metadata(self, filters: SearchFilters, k: int | None) -> list[tuple[str, list[tuple[str, str]]]]:
        """Candidates passing the filters (most years first, then name) with their chunks."""
        where = build_filter(filters)
        if where is None:
            return []
        return candidates_by_years(self.scroll([*LEAN_FIELDS, "years", "name", "seq"], where), k)
