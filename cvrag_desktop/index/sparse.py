"""BM25 postings in numpy: a term-sorted CSR block plus a small append-only delta.

Documents arrive as (term ids, term-frequency weights) from fastembed's ``Qdrant/bm25``
(the TF part of BM25, with its length normalisation). Scoring a query adds
``idf(t) * weight`` for each query term over that term's postings, with
``idf = ln((N - df + 0.5) / (df + 0.5) + 1)`` computed over the *live* documents — the
same formula Qdrant applies for a sparse vector with ``modifier=idf``. So the ranking is
the one the quality benchmark was tuned on, at a cost proportional to the postings of
the query's terms instead of a Python loop over every point.

Deleted documents stay in the postings and are masked out with ``alive``; new documents
go to the delta, which is folded into the CSR block when it grows (or at the next open).
"""

from __future__ import annotations

import math

import numpy as np

COMPACT_AT = 200_000  # delta postings before folding into the CSR block


class InvertedIndex:
    """Term → (slot, weight) postings over document slots."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        """Drop every posting."""
        self.keys = np.zeros(0, dtype=np.uint32)  # sorted distinct terms of the CSR block
        self.indptr = np.zeros(1, dtype=np.int64)
        self.slots = np.zeros(0, dtype=np.int32)
        self.weights = np.zeros(0, dtype=np.float32)
        self._delta: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._delta_n = 0
        self._delta_cat: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    @property
    def postings(self) -> int:
        """Number of stored postings (CSR block + delta)."""
        return len(self.slots) + self._delta_n

    def build(self, terms: np.ndarray, slots: np.ndarray, weights: np.ndarray) -> None:
        """Replace everything with the given postings (one entry per (term, slot))."""
        order = np.argsort(terms)  # the order of slots within a term does not matter
        terms, self.slots, self.weights = terms[order], slots[order].astype(np.int32), weights[order]
        if len(terms):
            starts = np.flatnonzero(np.r_[True, terms[1:] != terms[:-1]])
            self.keys = terms[starts].astype(np.uint32)
            self.indptr = np.r_[starts, len(terms)].astype(np.int64)
        else:
            self.keys, self.indptr = np.zeros(0, dtype=np.uint32), np.zeros(1, dtype=np.int64)
        self._delta, self._delta_n, self._delta_cat = [], 0, None

    def add(self, slot: int, terms: np.ndarray, weights: np.ndarray) -> None:
        """Append one document's postings (to the delta)."""
        if len(terms):
            self._delta.append((terms.astype(np.uint32), np.full(len(terms), slot, dtype=np.int32),
                                weights.astype(np.float32)))
            self._delta_n += len(terms)
            self._delta_cat = None

    def _delta_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._delta_cat is None:
            if self._delta:
                self._delta_cat = tuple(np.concatenate(parts) for parts in zip(*self._delta, strict=True))
            else:
                empty = np.zeros(0, dtype=np.uint32)
                self._delta_cat = (empty, np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32))
        return self._delta_cat

    def compact(self, alive: np.ndarray, remap: np.ndarray | None = None) -> None:
        """Fold the delta into the CSR block, dropping dead slots (optionally renumbering them)."""
        counts = np.diff(self.indptr)
        terms = np.concatenate([np.repeat(self.keys, counts), self._delta_arrays()[0]])
        slots = np.concatenate([self.slots, self._delta_arrays()[1]])
        weights = np.concatenate([self.weights, self._delta_arrays()[2]])
        keep = alive[slots] if len(slots) else np.zeros(0, dtype=bool)
        terms, slots, weights = terms[keep], slots[keep], weights[keep]
        if remap is not None:
            slots = remap[slots]
        self.build(terms, slots, weights)

    def maybe_compact(self, alive: np.ndarray) -> None:
        """Fold the delta once it is large enough to slow queries down."""
        if self._delta_n > COMPACT_AT:
            self.compact(alive)

    def _postings(self, term: int) -> tuple[np.ndarray, np.ndarray]:
        i = int(np.searchsorted(self.keys, term))
        parts_s, parts_w = [], []
        if i < len(self.keys) and self.keys[i] == term:
            a, b = self.indptr[i], self.indptr[i + 1]
            parts_s.append(self.slots[a:b])
            parts_w.append(self.weights[a:b])
        if self._delta_n:
            dt, ds, dw = self._delta_arrays()
            hit = dt == term
            parts_s.append(ds[hit])
            parts_w.append(dw[hit])
        if not parts_s:
            return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32)
        return np.concatenate(parts_s), np.concatenate(parts_w)

    def scores(self, terms: np.ndarray, qweights: np.ndarray, alive: np.ndarray, n_slots: int) -> np.ndarray:
        """BM25 score of every slot (0 where no query term occurs); dead slots are ignored."""
        out = np.zeros(n_slots, dtype=np.float32)
        n_docs = int(alive[:n_slots].sum())
        for term, qw in zip(terms.tolist(), qweights.tolist(), strict=True):
            slots, weights = self._postings(int(term))
            if not len(slots):
                continue
            live = alive[slots]
            slots, weights = slots[live], weights[live]
            df = len(slots)
            if not df:
                continue
            idf = math.log((n_docs - df + 0.5) / (df + 0.5) + 1.0)
            out[slots] += np.float32(idf * qw) * weights
        return out
