"""The local index engine: an embedded Qdrant Edge shard under ``<index_dir>/shard``.

Qdrant's own Rust engine runs in-process (``qdrant-edge-py``): named vectors ``dense``
(384-d cosine, float16 storage, always searched exactly) and ``bm25`` (sparse,
``Modifier.Idf`` — Qdrant computes the IDF over the shard), keyword/integer payload
indexes on the filter fields, hybrid search as one query with two prefetches fused by
weighted ``Fusion.Rrf``. The filters are the same neutral tree as on a Qdrant server
(:mod:`cvrag_desktop.index.where`). Every update goes to the shard's write-ahead log
first, so a killed process loses nothing that :meth:`EdgeIndex.replace` returned from.

No HNSW graph is ever built (``m=0``) and ``optimize()`` runs only in ``cvrag reindex``
(:meth:`EdgeIndex.optimize`): it holds the GIL for its whole run (a minute and more at 80k
points), so never in the GUI process; it seals the segments, which then open ~4x faster.
Exact search over float16 vectors is fast enough at a recruiter's scale. Deleted points stay
in their segment until it is rewritten, and Qdrant's IDF still counts them (a server
behaves the same until its vacuum runs); so once the dead points outnumber a quarter of
the live ones (and at least ``COMPACT_MIN``) the shard is rewritten with its live points
(:meth:`EdgeIndex.compact`: a copy through scroll + upsert, no ``optimize()``), which also
runs for ``forget`` (:meth:`EdgeIndex.wipe_free_space`); ``cvrag reindex`` starts a fresh shard.

Beside the shard: ``meta.json`` (the embedding models' fingerprint), ``seal.json``
(file sizes and vector-file digests written at a clean close, checked before the next
load: a damaged file raises :class:`ShardDamaged`) and, during a rebuild,
``reuse.sqlite3`` (vectors by content digest, see :mod:`cvrag_desktop.index.edge.files`).
"""

from __future__ import annotations

import logging
import shutil
import threading
from pathlib import Path

import numpy as np
import qdrant_edge as qe

from cvrag_desktop.catalog.compliance.forget_journal import crash_point
from cvrag_desktop.catalog.store.disk_space import INDEX_ROOM_MB, ensure_room
from cvrag_desktop.errors import DiskFull
from cvrag_desktop.index.edge.files import ReuseFile, check_seal, drop_seal, read_meta, write_meta, write_seal
from cvrag_desktop.index.edge.shard import (
    DENSE,
    SHARD_DIR,
    SPARSE,
    ShardDamaged,
    flush_failed,
    open_shard,
    optimize_shard,
    points,
    vectors_of,
)
from cvrag_desktop.index.filters import SearchFilters, build_filter
from cvrag_desktop.index.records import QueryVectors, RawHit, Row, candidates_by_years, point_id
from cvrag_desktop.index.where import AnyOf, Where, to_edge

log = logging.getLogger(__name__)

RRF_K = 2  # Qdrant's ranking constant: score = Σ 1 / ((rank + 1) / weight + k − 1)
PAGE = 1024
# Edge keeps the GIL during a call (measured: upserting 1,024 points stalled other threads 190 ms,
# 64 points 18 ms): writes and vector reads go in small calls so the GUI thread keeps running.
BATCH = 64
VECTOR_PAGE = 256
COMPACT_MIN = 2000  # dead points before a rewrite is worth it
LEAN = ["chunk_id", "candidate_id", "section"]
META = [*LEAN, "years", "name", "seq"]
EXACT = qe.SearchParams(exact=True)


class EdgeIndex:
    """Chunks with dense + BM25 vectors and candidate filter fields in one Edge shard (thread-safe)."""

    def __init__(self, folder: Path, read_only: bool = False) -> None:
        self.folder = folder
        self.path = folder / SHARD_DIR
        self.read_only = read_only
        # Edge is thread-safe: writers (``write``) and readers (``lock``) run side by side; only
        # swapping the shard object (reset, compact) takes both, so a long rewrite never blocks search.
        self.write = threading.RLock()
        self.lock = threading.RLock()
        self.reuse = ReuseFile(folder)
        self._recover_swap()
        if problem := check_seal(folder, self.path):
            raise ShardDamaged(problem)
        self.shard = open_shard(self.path)
        self.closed = False
        if not read_only:
            drop_seal(folder)  # the files change from now on; a clean close seals them again
        self.dead = int(read_meta(folder).get("dead") or 0)  # deleted points since the last rewrite

    def _recover_swap(self) -> None:
        """A rewrite killed between its two renames left the live shard as ``shard.old``: put it back;
        killed later, ``shard.old`` is the replaced copy: remove it (and any half-written ``shard.new``)."""
        old = self.path.with_name(SHARD_DIR + ".old")
        if not self.path.exists() and (old / "segments").exists():
            old.rename(self.path)
        # killed after the swap: the old copy still holds the points the rewrite dropped (a forget's)
        shutil.rmtree(old, ignore_errors=True)
        shutil.rmtree(self.path.with_name(SHARD_DIR + ".new"), ignore_errors=True)

    # ---- writing -----------------------------------------------------------------------
    def _delete(self, where: Where) -> None:
        self.shard.update(qe.UpdateOperation.delete_points_by_filter(to_edge(where)))

    def replace(self, candidate_ids: list[str], rows: list[Row], payloads: dict[str, dict]) -> None:
        """Replace the chunks of ``candidate_ids`` with ``rows`` (delete by candidate, then upsert)."""
        new = points(rows, payloads)
        with self.write:
            for start in range(0, len(candidate_ids), BATCH):
                where = Where((AnyOf("candidate_id", tuple(candidate_ids[start:start + BATCH])),))
                found = self.shard.count(qe.CountRequest(exact=True, filter=to_edge(where)))
                if found:  # no delete record (it names the ids) in the WAL for points that are not there
                    self.dead += found
                    self._delete(where)
            self.upsert(new)
            self._maybe_compact()

    def upsert(self, new: list[qe.Point]) -> None:
        """Write points (by id: an existing point is replaced)."""
        with self.write:
            for start in range(0, len(new), BATCH):
                self.shard.update(qe.UpdateOperation.upsert_points(new[start:start + BATCH]))

    def delete_candidate(self, candidate_id: str) -> None:
        """Remove a candidate's chunks."""
        self.replace([candidate_id], [], {})

    def delete_points(self, chunk_ids: list[str]) -> None:
        """Remove chunks by id."""
        with self.write:
            self.shard.update(qe.UpdateOperation.delete_points([point_id(c) for c in chunk_ids]))
            self.dead += len(chunk_ids)
            self._maybe_compact()

    def _maybe_compact(self) -> None:
        if self.dead > COMPACT_MIN and self.dead > self.shard.count(qe.CountRequest(exact=True)) // 4:
            try:
                self.compact()
            except DiskFull as exc:  # an optional rewrite: the dead points wait for a later one
                log.info("index compaction skipped: %s", exc.message)

    def reset(self, keep_vectors: bool = False) -> None:
        """Drop everything (a fresh shard); ``keep_vectors`` first saves embeddings by digest for reuse."""
        with self.write:
            if keep_vectors:
                self.reuse.save(self._all_vectors())
            with self.lock:
                self.shard.close()
                shutil.rmtree(self.path, ignore_errors=True)
                self.shard = open_shard(self.path)
            self._set_dead(0)

    def set_aside(self) -> Path:
        """Move the (damaged) shard to ``shard.damaged`` and start a fresh empty one; returns the aside path.

        Only the latest damaged copy is kept, for inspection (``forget`` covers it: catalog/compliance/leftovers.py).
        """
        aside = self.path.with_name(SHARD_DIR + ".damaged")
        with self.write, self.lock:
            try:
                self.shard.close()
            except Exception as exc:  # a damaged shard may fail to close too
                log.warning("closing the damaged search index failed: %s", exc)
            shutil.rmtree(aside, ignore_errors=True)
            if self.path.exists():
                self.path.rename(aside)
            drop_seal(self.folder)
            self.shard = open_shard(self.path)
            self._set_dead(0)
        return aside

    def _set_dead(self, n: int) -> None:
        self.dead = n
        self.meta("dead", str(n))

    def _all_vectors(self):
        for records in self._pages(None, ["digest"], vectors=True):
            yield [(r.payload["digest"], *vectors_of(r.vector)) for r in records if r.payload and r.vector]

    def drop_reuse(self) -> None:
        """Forget the embeddings kept by :meth:`reset`."""
        self.reuse.drop()

    def known_vectors(self, digests: list[str]) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Stored (dense, terms, weights) for content digests already embedded (no re-embedding)."""
        out: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        with self.lock:
            for start in range(0, len(digests), 500):
                where = Where((AnyOf("digest", tuple(digests[start:start + 500])),))
                for records in self._pages(where, ["digest"], vectors=True):
                    for r in records:
                        if r.payload and r.vector:
                            out[r.payload["digest"]] = vectors_of(r.vector)
        out.update(self.reuse.lookup([d for d in digests if d not in out]))
        return out

    def meta(self, key: str, value: str | None = None) -> str | None:
        """Read (or, with ``value``, write) an entry of ``meta.json``."""
        with self.write:
            data = read_meta(self.folder)
            if value is None:
                return data.get(key)
            data[key] = value
            write_meta(self.folder, data)
            return value

    def flush(self) -> None:
        """Write pending changes to the segments (the WAL already has them)."""
        with self.write:
            self.shard.flush()

    def wipe_free_space(self) -> None:
        """Leave no copy of deleted entries in a segment or the WAL (see :meth:`compact`)."""
        if not self.read_only:
            self.compact()

    def compact(self) -> None:
        """Rewrite the shard with only its live points (dead points leave the files and the IDF).

        Writers wait; searches go on against the current shard until the swap. The new copy's
        files are allocated at once: on a (nearly) full disk :class:`DiskFull` is raised first.
        """
        ensure_room(self.folder, "the search index was not compacted", INDEX_ROOM_MB)
        with self.write:
            fresh = self.path.with_name(SHARD_DIR + ".new")
            shutil.rmtree(fresh, ignore_errors=True)
            target = open_shard(fresh)
            try:
                for records in self._pages(None, True, vectors=True):
                    live = [qe.Point(r.id, r.vector, r.payload) for r in records if r.vector]
                    for start in range(0, len(live), BATCH):
                        target.update(qe.UpdateOperation.upsert_points(live[start:start + BATCH]))
                try:
                    target.flush()
                except Exception as exc:  # the old shard stays in place; the rewrite is tried again later
                    raise flush_failed(self.folder, exc) from exc
            finally:
                target.close()
            crash_point("compact:written")
            with self.lock:
                self.shard.close()
                old = self.path.with_name(SHARD_DIR + ".old")
                shutil.rmtree(old, ignore_errors=True)
                self.path.rename(old)
                crash_point("compact:set-aside")
                fresh.rename(self.path)
                crash_point("compact:swapped")
                shutil.rmtree(old, ignore_errors=True)
                self.shard = open_shard(self.path)
            self._set_dead(0)

    def optimize(self) -> bool:
        """Seal the shard's segments (see :func:`edge_shard.optimize_shard`): ``cvrag reindex`` only.

        Holds the GIL for its whole run, so never in the GUI process; writers and readers wait.
        """
        with self.write, self.lock:
            self.shard.flush()
            self.shard.close()
            try:
                return optimize_shard(self.path)
            finally:
                self.shard = open_shard(self.path)

    def close(self) -> None:
        """Flush and close the shard, then seal it; a flush that failed leaves no seal and is raised (typed by the store).

        Edge writes every change to its WAL first, so an unflushed change is replayed at the next open
        (no seal: the shard is probed first); the caller says the save failed.
        """
        failed: BaseException | None = None
        with self.write, self.lock:
            if self.closed:  # closing twice is a no-op, not a flush of a closed shard
                return
            self.closed = True
            try:
                if self.dead and not self.read_only and self.path.exists():
                    self.meta("dead", str(self.dead))
                self.shard.flush()
            except Exception as exc:
                failed = exc
            try:
                self.shard.close()
            except Exception as exc:
                log.info("closing the search index failed: %s", exc)
                failed = failed or exc
            if failed is None and not self.read_only and self.path.exists():
                try:
                    write_seal(self.folder, self.path)
                except OSError as exc:  # no seal: the next open probes the shard first
                    log.info("recording the search index's integrity failed: %s", exc)
        if failed is not None and self.path.exists():  # (a folder deleted under us has nothing left to save)
            raise failed

    # ---- reading -----------------------------------------------------------------------
    def _pages(self, where: Where | None, payload, vectors: bool = False):
        """Every point passing ``where``, a page at a time."""
        offset = None
        flt = to_edge(where)
        while True:
            records, offset = self.shard.scroll(qe.ScrollRequest(offset=offset, limit=VECTOR_PAGE if vectors else PAGE,
                                                                 filter=flt, with_payload=payload, with_vector=vectors))
            yield records
            if offset is None:
                return

    def rows(self):
        """Every stored chunk as a :class:`Row` with its vectors, a page at a time (copying an index elsewhere)."""
        with self.lock:
            for records in self._pages(None, [*LEAN, "digest"], vectors=True):
                yield [Row(p["chunk_id"], p["candidate_id"], p["section"], p["digest"], *vectors_of(r.vector))
                       for r in records if (p := r.payload) and r.vector]

    def count(self, filters: SearchFilters | None = None) -> int:
        """Number of chunks (passing the filters)."""
        with self.lock:
            return self.shard.count(qe.CountRequest(exact=True, filter=to_edge(build_filter(filters))))

    def info(self) -> dict:
        """Points, segments and payload indexes (for ``cvrag doctor``)."""
        with self.lock:
            i = self.shard.info()
        return {"points": i.points_count, "segments": i.segments_count, "payload_indexes": sorted(i.payload_schema)}

    def scroll(self, fields: list[str] | None = None) -> list[dict]:
        """Every chunk as ``{chunk_id, candidate_id, section}`` (restricted to ``fields``)."""
        with self.lock:
            return [r.payload or {} for records in self._pages(None, fields or LEAN) for r in records]

    def ranked(self, q: QueryVectors, filters: SearchFilters | None, limit: int,
               weights: tuple[float, float], top: int | None = None) -> list[RawHit]:
        """Top chunks by dense, BM25 or (both given) weighted RRF of the two, within the filters.

        Each branch takes ``limit``; the fused list is cut at ``top`` (default ``limit``).
        """
        flt = to_edge(build_filter(filters))
        branches = []
        if q.dense is not None:
            branches.append(qe.Query.Nearest(q.dense.astype(np.float32).tolist(), using=DENSE))
        if q.has_sparse:
            vec = qe.SparseVector(indices=q.terms.astype(np.int64).tolist(), values=q.weights.astype(float).tolist())
            branches.append(qe.Query.Nearest(vec, using=SPARSE))
        if not branches:
            return []
        if len(branches) == 1:
            req = qe.QueryRequest(limit=min(top or limit, limit), query=branches[0], filter=flt, params=EXACT,
                                  with_payload=LEAN)
        else:
            req = qe.QueryRequest(limit=min(top or limit, limit), prefetches=[qe.Prefetch(limit=limit, query=b, filter=flt, params=EXACT)
                                                           for b in branches],
                                  query=qe.Fusion.Rrf(k=RRF_K, weights=list(weights)), with_payload=LEAN)
        with self.lock:
            found = self.shard.query(req)
        hits = [RawHit(p.payload["chunk_id"], p.payload["candidate_id"], p.payload["section"], float(p.score))
                for p in found if p.payload]
        # Edge returns equal scores (RRF ties are common) in an order that varies between runs:
        # order ties by chunk id so a query ranks the same every time.
        return sorted(hits, key=lambda h: (-h.score, h.chunk_id))

    def metadata(self, filters: SearchFilters, k: int | None) -> list[tuple[str, list[tuple[str, str]]]]:
        """Candidates passing the filters (most years first, then name) with their (chunk_id, section)s.

        With ``k``, points are read in descending years (the integer index) only until ``k``
        whole candidates are certain, not every match.
        """
        where = build_filter(filters)
        if where is None:
            return []
        with self.lock:
            found = self._by_years(to_edge(where), k) if k is not None else \
                [r.payload for records in self._pages(where, META) for r in records]
        return candidates_by_years(found, k)

    def _by_years(self, flt: qe.Filter, k: int) -> list[dict]:
        """Payloads of the matching points with the most years, enough to hold the top ``k`` candidates."""
        limit = max(64, 16 * k)
        while True:
            records, _ = self.shard.scroll(qe.ScrollRequest(limit=limit, filter=flt, with_payload=META,
                                                            order_by=qe.OrderBy("years", direction=qe.Direction.Desc)))
            found = [r.payload for r in records]
            if len(found) < limit:
                break  # every match with known years is here
            last = found[-1]["years"]
            above = [p for p in found if p["years"] > last]  # their candidates are complete (one years value each)
            if len({p["candidate_id"] for p in above}) >= k:
                return above
            limit *= 4
        if len({p["candidate_id"] for p in found if (p.get("years") or 0) > 0}) < k:
            unknown = qe.Filter(must=[flt, qe.IsEmptyCondition("years")])  # ranked as 0 years, by name
            offset = None
            while True:
                records, offset = self.shard.scroll(qe.ScrollRequest(offset=offset, limit=PAGE, filter=unknown,
                                                                     with_payload=META))
                found += [r.payload for r in records]
                if offset is None:
                    break
        return found
