"""The search facade: keeps the index consistent with the catalog and answers queries.

The index is derived data. :meth:`SearchService.index_candidate` (or the background
lane fed by :meth:`SearchService.enqueue`, the ingestion ``on_saved`` hook) writes a
candidate's chunks; :meth:`SearchService.reconcile` (startup) removes orphans and adds
what is missing; :meth:`SearchService.rebuild` (``cvrag reindex``) starts over. If the
index folder disappears while running, the next call rebuilds it from the catalog.
The background lane is ``index/lane.py``; a hit's text and name come from the catalog
through ``index/hits.py``.
"""

from __future__ import annotations

import hashlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from cvrag_desktop.catalog import queries as catalog_queries
from cvrag_desktop.catalog.compliance.forget_journal import crash_point
from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.store.disk_space import INDEX_ROOM_MB, allocated_mb, ensure_room, is_no_space
from cvrag_desktop.catalog.store.read_only import refuse
from cvrag_desktop.config import AppPaths, Settings
from cvrag_desktop.errors import Cancelled, CvragError, DiskFull, InvalidInput
from cvrag_desktop.index import STRATEGIES
from cvrag_desktop.index.edge.files import edge_version, folder_bytes
from cvrag_desktop.index.edge.shard import is_shard_error, plain_reason
from cvrag_desktop.index.edge.store import IndexStore, damage_count, damage_reasons, damaged_dirs, last_repair
from cvrag_desktop.index.edge.sync_stamp import (
    catalog_digest,
    drop_stamp,
    pairs_digest,
    stamp_matches,
    write_stamp,
)
from cvrag_desktop.index.embeddings import dense_text, shared_embedder
from cvrag_desktop.index.filters import SearchFilters, candidate_payload, parse_filters
from cvrag_desktop.index.hits import clean_query, hydrate_hits
from cvrag_desktop.index.lane import BATCH_CANDIDATES, IndexLane
from cvrag_desktop.index.records import RawHit, Row
from cvrag_desktop.index.rerank import find_reranker
from cvrag_desktop.index.search import Retriever

if TYPE_CHECKING:  # qdrant_client is imported only in server mode
    from cvrag_desktop.index.qdrant_store import QdrantStore

    Store = IndexStore | QdrantStore

log = logging.getLogger(__name__)

MAX_K = 200
Progress = Callable[[int, int, str], None]
T = TypeVar("T")


class SearchService(IndexLane):
    """Index maintenance and search over the catalog's chunks."""

    def __init__(self, catalog: Catalog, paths: AppPaths, settings: Settings) -> None:
        self.catalog = catalog
        self.paths = paths
        self.settings = settings
        self.embedder = shared_embedder(paths.models_dir)
        self.reranker_info, self.reranker = find_reranker(paths.models_dir)
        self._store: Store | None = None
        self.stats = {"embedded": 0, "reused": 0}
        self._write = threading.RLock()
        self._queue: queue.Queue[str] = queue.Queue()
        self._pending = 0
        self._idle = threading.Condition()
        self._lane: threading.Thread | None = None
        self._repairing = False
        self._repairs = 0  # shards set aside so far (a thread that met the damage too retries after it)
        self._writes = 0  # index writes in this session (a session that wrote leaves no in-sync stamp)
        self._synced: tuple[str, int] | None = None  # (catalog digest, writes) when last known in sync
        self._deferred = False  # start() trusted the stamp: the shard is opened on first use only
        self.disk_full: DiskFull | None = None  # the first refusal of the index lane for want of space
        self.unindexed = 0  # candidates the lane could not index (the disk was full)
        self._flush_failed = False

    # ---- store lifecycle ---------------------------------------------------------------
    def _open(self) -> Store:
        if self.settings.index_url:
            from cvrag_desktop.index.qdrant_store import QdrantStore

            return QdrantStore(url=self.settings.index_url)
        store = IndexStore(self.paths.index_dir)
        store.ensure_model(self.embedder.fingerprint())  # other models' vectors dropped; reconcile refills
        return store

    def start(self) -> dict | None:
        """Bring the index in line with the catalog at session start (see :mod:`.sync_stamp`).

        When the last clean close left the index in sync with this very catalog, nothing is
        opened now (a metadata-only answer never opens the shard); otherwise :meth:`reconcile`.
        """
        if not self.settings.index_url and self._store is None:
            key = catalog_digest(self.catalog)
            if stamp_matches(self.paths.index_dir, key, self.embedder.fingerprint()):
                self._synced, self._deferred = (key, self._writes), True
                return None
        return self.reconcile()

    @property
    def store(self) -> Store:
        """The open store (opened on first use); reopened and rebuilt if its folder was deleted under us."""
        if self._store is None:
            key = str(self.paths.index_dir.resolve())
            damaged_before = damage_count.get(key, 0)
            self._store = self._open()
            read_only = bool(getattr(getattr(self._store, "client", None), "read_only", False))
            if not self.settings.index_url and not read_only:  # (a read-only home is searched as it is)
                drop_stamp(self.paths.index_dir)  # open from now on; a clean close in sync stamps it again
            if self._deferred and damage_count.get(key, 0) > damaged_before:
                self._deferred = False  # the trusted shard was found damaged and started afresh: refill it
                self.reconcile()
        elif self._store.folder_missing():
            log.warning("index folder %s disappeared: rebuilding from the catalog", self.paths.index_dir)
            self._store.close()
            self._store = self._open()
            self.rebuild()
        return self._store

    def close(self) -> None:
        """Stop the indexing lane and release the index."""
        if self._lane is not None:
            self._queue.put("")
            self._lane.join(timeout=30)
            self._lane = None
        if self._store is not None:
            store, self._store = self._store, None
            try:
                store.close()
            except CvragError as exc:  # the changes are in the WAL or the catalog; commands that wrote flushed already
                (log.info if self._flush_failed else log.warning)("%s", exc.message)
                return
            self._stamp_if_in_sync()

    def flush(self) -> None:
        """Write the index's pending changes to disk now (after an import, a rebuild, a forget).

        Raises :class:`~cvrag_desktop.errors.DiskFull` or :class:`~cvrag_desktop.errors.IndexNotSaved`
        (never the engine's own words): a command that changed the index fails when they were not saved.
        """
        if self._store is None:
            return
        flush = getattr(self._store, "flush", None)
        if callable(flush):
            with self._write:
                try:
                    flush()
                except CvragError:
                    self._flush_failed = True  # said once: the close does not repeat it
                    raise

    def _stamp_if_in_sync(self) -> None:
        """After a clean close: record that the index matches the catalog, if this session knows it does."""
        if self.settings.index_url or self._synced is None or self._synced[1] != self._writes:
            return
        try:
            if catalog_digest(self.catalog) == self._synced[0]:
                write_stamp(self.paths.index_dir, self._synced[0], self.embedder.fingerprint())
        except Exception as exc:  # a closed or damaged catalog: no stamp, the next start reconciles
            log.debug("no in-sync stamp: %s", exc)

    def _surviving_damage(self, op: Callable[[], T], *, refill: bool = True) -> T:
        """Run an index operation; if the local shard fails to read its own files, repair and retry once.

        Random bytes inside a payload page keep every file's size, so neither the seal nor the
        load notices; the first read fails ("…LZ4…"). Any such read error is damage: the shard is
        set aside (``shard.damaged``, as at open), a fresh one is filled from the catalog (unless
        ``refill`` is off: a rebuild refills it itself), and the operation runs again.
        """
        generation = self._repairs
        try:
            return op()
        except BaseException as exc:
            if not is_shard_error(exc) or not isinstance(self._store, IndexStore):
                raise
            reason = plain_reason(exc)
            with self._write:  # another thread that met the same damage waits here, then retries
                if self._repairing:
                    raise  # the fresh shard failed while being refilled: not repaired twice
                if self._repairs == generation:
                    self._repairing = True
                    self._writes += 1
                    try:
                        self._store.set_aside(reason)
                        if refill:
                            ids = catalog_queries.candidate_ids(self.catalog)
                            self._index_all(ids, None, None)
                    finally:
                        self._repairing = False
                        self._repairs += 1
            return op()

    def retriever(self) -> Retriever:
        """The strategies bound to this store, embedder, catalog and reranker."""
        return Retriever(self.store, self.embedder, self._texts, self.reranker)

    # ---- writing -----------------------------------------------------------------------
    def _rows(self, candidate_ids: list[str], store: Store) -> tuple[list[Row], dict[str, dict]]:
        """Rows for the candidates' chunks; texts already embedded (same digest) are not re-embedded."""
        payloads: dict[str, dict] = {}
        chunks = []
        for cid in candidate_ids:
            row = self.catalog.candidate(cid)
            if row is None:
                continue
            payloads[cid] = candidate_payload(row)
            chunks += self.catalog.chunks(cid)
        dense_texts = [dense_text(c.header, c.text) for c in chunks]
        sparse_texts = [c.index_text for c in chunks]
        digests = [hashlib.blake2b(f"{d}\x00{s}".encode(), digest_size=12).hexdigest()
                   for d, s in zip(dense_texts, sparse_texts, strict=True)]
        vectors = store.known_vectors(sorted(set(digests))) if chunks else {}
        todo = {d: i for i, d in enumerate(digests) if d not in vectors}  # identical texts embedded once
        if todo:
            idx = list(todo.values())
            dense = self.embedder.dense_array([dense_texts[i] for i in idx])
            sparse = self.embedder.sparse_arrays([sparse_texts[i] for i in idx])
            for d, vec, (terms, weights) in zip(todo, dense, sparse, strict=True):
                vectors[d] = (vec, terms, weights)
        self.stats["embedded"] += len(todo)
        self.stats["reused"] += len(chunks) - len(todo)
        rows = [Row(c.chunk_id, c.candidate_id, c.section, d, *vectors[d])
                for c, d in zip(chunks, digests, strict=True)]
        return rows, payloads

    def index_candidates(self, candidate_ids: list[str]) -> int:
        """(Re)index candidates from the catalog; returns the number of chunks written."""
        def write() -> int:
            with self._write:
                store = self.store
                rows, payloads = self._rows(candidate_ids, store)
                self._writes += 1
                store.replace(candidate_ids, rows, payloads)
            return len(rows)

        return self._surviving_damage(write)

    def index_candidate(self, candidate_id: str) -> int:
        """(Re)index one candidate (a candidate gone from the catalog is removed)."""
        return self.index_candidates([candidate_id])

    def delete_candidate(self, candidate_id: str) -> None:
        """Remove a candidate's chunks from the index."""
        with self._write:
            self._writes += 1
            self._surviving_damage(lambda: self.store.delete_candidate(candidate_id))

    def _index_all(self, ids: list[str], progress: Progress | None, should_cancel: Callable[[], bool] | None) -> int:
        written = 0
        for start in range(0, len(ids), BATCH_CANDIDATES):
            if should_cancel and should_cancel():
                raise Cancelled("Indexing cancelled; run it again to finish.")
            written += self.index_candidates(ids[start : start + BATCH_CANDIDATES])
            if progress:
                progress(min(start + BATCH_CANDIDATES, len(ids)), len(ids), "indexing")
        return written

    def rebuild(self, progress: Progress | None = None, should_cancel: Callable[[], bool] | None = None,
                optimize: bool = False) -> dict:
        """Drop the index and rebuild it from the catalog (``cvrag reindex``).

        ``optimize`` then seals the local shard's segments (faster open, less RAM); it holds the
        GIL for a long time, so only a process of its own (the CLI) asks for it, never the GUI.
        """
        if getattr(self.catalog, "read_only", False):  # (a rebuilt private copy would be a false success)
            raise refuse(self.paths.data_dir, "the search index cannot be rebuilt in it")
        if not self.settings.index_url:
            ensure_room(self.paths.index_dir, "the search index was not rebuilt", INDEX_ROOM_MB,
                        allocated_mb(self.paths.index_dir / "shard"))
        t0 = time.perf_counter()
        with self._write:
            self._writes += 1
            # local: unchanged texts are not re-embedded; a shard too damaged to read them is set aside
            self._surviving_damage(lambda: self.store.reset(keep_vectors=True), refill=False)
            ids = catalog_queries.candidate_ids(self.catalog)
            points = self._index_all(ids, progress, should_cancel)
            self.store.done_rebuilding()
            self.flush()  # a rebuild whose changes were not saved is a failure (typed), not "indexed N"
            report = {"candidates": len(ids), "points": points, "seconds": round(time.perf_counter() - t0, 2)}
            if optimize and hasattr(self.store, "optimize"):
                t1 = time.perf_counter()
                if progress:
                    progress(len(ids), len(ids), "sealing the index (optimize)")
                try:
                    self.store.optimize()
                except Exception as exc:  # Edge checks the room it needs first: the rebuilt index stays as it is
                    if not is_no_space(exc):
                        raise
                    report["note"] = (f"the index was rebuilt but not compacted (optimize): {exc}".replace(
                        "Service runtime error: ", ""))
                self.flush()
                report["optimize_seconds"] = round(time.perf_counter() - t1, 2)
                report["seconds"] = round(time.perf_counter() - t0, 2)
        return report

    def reconcile(self, progress: Progress | None = None, should_cancel: Callable[[], bool] | None = None) -> dict:
        """Make the index match the catalog: remove orphan points, index missing chunks."""
        with self._write:
            indexed = {r["chunk_id"]: r["candidate_id"] for r in self._surviving_damage(
                lambda: self.store.scroll(fields=["chunk_id", "candidate_id"]))}
            catalog = catalog_queries.chunk_owners(self.catalog)
            orphans = [c for c in indexed if c not in catalog]
            missing = sorted({cid for c, cid in catalog.items() if c not in indexed})
            self.store.delete_points(orphans)
            written = self._index_all(missing, progress, should_cancel)
            self._synced = (pairs_digest(catalog), self._writes)
        return {"orphans_removed": len(orphans), "candidates_indexed": len(missing), "points_written": written}

    # ---- reading -----------------------------------------------------------------------
    def search(self, query: str | None, filters: SearchFilters | dict | None = None, k: int = 8,
               strategy: str = "hybrid", *, rerank: bool = True) -> list[dict]:
        """Search chunks; returns hit dicts (chunk_id, candidate_id, candidate_name, section, page, score, text)."""
        if strategy not in STRATEGIES:
            raise InvalidInput(f"Unknown strategy {strategy!r}; use one of {', '.join(STRATEGIES)}.")
        if not isinstance(k, int) or not 1 <= k <= MAX_K:
            raise InvalidInput(f"k must be between 1 and {MAX_K}.")
        f = parse_filters(filters)
        q = clean_query(query)
        if not q and strategy != "metadata":
            if f.is_empty():
                raise InvalidInput("Type something to search for, or set a filter.")
            strategy = "metadata"
        if strategy == "metadata" and f.is_empty():
            raise InvalidInput("The metadata strategy needs at least one filter.")

        def retrieve() -> list[RawHit]:
            r = self.retriever()
            if strategy == "metadata":
                return r.search_metadata(f, k)
            if strategy == "filtered":
                return r.search_metadata_then_rerank(q, f, k)
            return r.search_hybrid(q, None if f.is_empty() else f, k, rerank=rerank)

        return self.hydrate(self._surviving_damage(retrieve))

    def hydrate(self, raw: list[RawHit]) -> list[dict]:
        """Attach catalog text, page, name and (for child chunks) the parent section's text (:func:`hydrate_hits`)."""
        return hydrate_hits(self.catalog, raw)

    def _texts(self, chunk_ids: list[str]) -> dict[str, str]:
        return catalog_queries.chunk_texts(self.catalog, chunk_ids)

    def status(self) -> dict:
        """For ``cvrag doctor``: location, point count, models resolved, reranker."""
        info: dict = {"location": self.settings.index_url or str(self.paths.index_dir),
                      "mode": "server" if self.settings.index_url else "local",
                      "engine": "qdrant server" if self.settings.index_url else f"qdrant edge {edge_version()}"
                      " (embedded, exact search)",
                      "models": self.embedder.status(), "reranker": self.reranker_info.__dict__}
        try:
            info["points"] = self._surviving_damage(self.store.count)
            if isinstance(self.store, IndexStore):
                shard = self.store.info()
                info["segments"] = shard["segments"]
                info["disk_mb"] = round(folder_bytes(self.paths.index_dir) / 2**20, 1)
        except Exception as exc:
            info["error"] = str(exc)
        key = str(self.paths.index_dir.resolve())
        if key in damaged_dirs:
            why = f" ({damage_reasons[key]})" if key in damage_reasons else ""
            info["repaired"] = (f"the index database was damaged{why}: it was moved aside (shard.damaged), "
                                "replaced and rebuilt from the catalog; the catalog was not touched")
        elif (notice := last_repair(self.paths.index_dir)) is not None:
            info["repaired"] = (f"on {notice.get('when')} the index database was found damaged "
                                f"({notice.get('reason')}): moved aside to {notice.get('aside')} and rebuilt "
                                "from the catalog")
        return info

    def forget_candidates(self, candidate_ids: list[str]) -> None:
        """Remove candidates' entries and leave no copy of them in the index's files."""
        with self._write:
            store = self.store
            self._writes += 1
            for cid in candidate_ids:
                self._surviving_damage(lambda cid=cid: store.delete_candidate(cid))
            crash_point("index:deleted")
            wipe = getattr(store, "wipe_free_space", None)
            if callable(wipe):
                wipe()  # local: the shard is rewritten with its live points (a fresh WAL without them)
            drop = getattr(store, "done_rebuilding", None)
            if callable(drop):
                drop()  # an interrupted reindex's kept vectors may include theirs (it only costs re-embedding)
            self.flush()  # not saved: a typed error, and the journal keeps the step for the next start
