"""Plain records passed between the service, the stores and the strategies."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

_POINT_NS = uuid.UUID("5b1c7a52-9a43-4a55-8f0e-6f5d0a6b9e11")


def point_id(chunk_id: str) -> str:
    """Qdrant point id (a UUID) for a chunk id; stable across rebuilds (shard and server alike)."""
    return str(uuid.uuid5(_POINT_NS, chunk_id))


def seq_numbers(rows: list) -> list[int]:
    """Each row's place among its candidate's rows (0, 1, …): chunks keep their catalog order."""
    seen: dict[str, int] = {}
    out = []
    for r in rows:
        out.append(seen.setdefault(r.candidate_id, -1) + 1)
        seen[r.candidate_id] = out[-1]
    return out


def candidates_by_years(payloads: Iterable[dict], k: int | None) -> list[tuple[str, list[tuple[str, str]]]]:
    """Point payloads grouped by candidate, most years first (then name), each with its ``(chunk_id, section)``s
    in catalog order; the first ``k`` candidates when ``k`` is given. The metadata strategy's answer, the same
    for the embedded shard and a server."""
    by_cand: dict[str, list[dict]] = {}
    for p in payloads:
        by_cand.setdefault(p["candidate_id"], []).append(p)
    for chunks in by_cand.values():
        chunks.sort(key=lambda r: r.get("seq") or 0)
    order = sorted(by_cand, key=lambda c: (-(by_cand[c][0].get("years") or 0), by_cand[c][0].get("name") or ""))
    if k is not None:
        order = order[:k]
    return [(c, [(r["chunk_id"], r["section"]) for r in by_cand[c]]) for c in order]


@dataclass
class RawHit:
    """A scored chunk reference (text is fetched from the catalog afterwards)."""

    chunk_id: str
    candidate_id: str
    section: str
    score: float


@dataclass
class Row:
    """One chunk ready to store: ids, a content digest and its two vectors.

    ``dense`` is the unit-length 384-d MiniLM vector (float32); ``terms``/``weights`` are
    the BM25 term ids (fastembed's hashed stems, uint32) and term-frequency weights (the
    IDF part is applied at query time over the live corpus, like Qdrant's IDF modifier).
    ``digest`` identifies the embedded texts so unchanged chunks are never re-embedded.
    """

    chunk_id: str
    candidate_id: str
    section: str
    digest: str
    dense: np.ndarray
    terms: np.ndarray
    weights: np.ndarray


@dataclass
class QueryVectors:
    """A query in both spaces; either part may be absent (single-branch modes)."""

    dense: np.ndarray | None
    terms: np.ndarray | None
    weights: np.ndarray | None

    @property
    def has_sparse(self) -> bool:
        """True when BM25 has at least one (non-stopword) term to score."""
        return self.terms is not None and len(self.terms) > 0
