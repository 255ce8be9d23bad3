"""The Qdrant store: local on-disk mode under the data dir, or a server at ``index_url``.

One client per storage folder per process (a registry here), because Qdrant local mode
holds an exclusive file lock on ``<index_dir>/.lock``: a second *process* gets
:class:`~cvrag_desktop.errors.IndexLocked`, never a half-open store. The lock is an OS
lock (flock/LockFileEx), so a crashed process leaves nothing stale to clean up.

Points carry a lean payload (ids + filter fields, see :mod:`.filters`); text stays in
the catalog. Vectors: named dense ``dense`` (384, cosine) and sparse ``bm25`` (IDF
modifier, applied by Qdrant at query time).
"""

from __future__ import annotations

import logging
import threading
import uuid
import warnings
from pathlib import Path

from qdrant_client import QdrantClient, models

from cvrag_desktop.errors import IndexLocked
from cvrag_desktop.index.embeddings import DENSE_DIM
from cvrag_desktop.index.filters import FULLTEXT_FIELDS, INTEGER_FIELDS, KEYWORD_FIELDS

log = logging.getLogger(__name__)

COLLECTION = "cvrag_chunks_v1"
DENSE = "dense"
SPARSE = "bm25"
SCROLL_PAGE = 1024
_POINT_NS = uuid.UUID("5b1c7a52-9a43-4a55-8f0e-6f5d0a6b9e11")

_registry: dict[str, tuple[QdrantClient, int]] = {}
_registry_lock = threading.Lock()


def point_id(chunk_id: str) -> str:
    """Qdrant point id (a UUID) for a chunk id; stable across rebuilds."""
    return str(uuid.uuid5(_POINT_NS, chunk_id))


def _check_lock(index_dir: Path) -> None:
    """Fail fast (before loading the storage) if another process holds the folder."""
    lock_path = index_dir / ".lock"
    if not lock_path.exists():
        return
    import portalocker

    with open(lock_path, "r+") as fh:
        try:
            portalocker.lock(fh, portalocker.LockFlags.EXCLUSIVE | portalocker.LockFlags.NON_BLOCKING)
        except portalocker.exceptions.LockException as exc:
            raise _locked(index_dir) from exc
        portalocker.unlock(fh)


def _locked(index_dir: Path) -> IndexLocked:
    return IndexLocked(
        f"The search index at {index_dir} is open in another CV RAG window or process. Close it and "
        "try again (or set index_url to a Qdrant server to share one index)."
    )


def _acquire(index_dir: Path) -> QdrantClient:
    key = str(index_dir.resolve())
    with _registry_lock:
        if key in _registry:
            client, refs = _registry[key]
            _registry[key] = (client, refs + 1)
            return client
        index_dir.mkdir(parents=True, exist_ok=True)
        _check_lock(index_dir)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # "local mode not recommended for >20k"
                client = QdrantClient(path=str(index_dir))
        except RuntimeError as exc:
            if "already accessed" in str(exc):
                raise _locked(index_dir) from exc
            raise
        _registry[key] = (client, 1)
        return client


def _release(index_dir: Path) -> None:
    key = str(index_dir.resolve())
    with _registry_lock:
        if key not in _registry:
            return
        client, refs = _registry[key]
        if refs > 1:
            _registry[key] = (client, refs - 1)
            return
        del _registry[key]
    try:
        client.close()
    except Exception as exc:  # closing a store whose folder vanished
        log.warning("closing the index failed: %s", exc)


class IndexStore:
    """The chunk collection: create, upsert, delete, scroll and query points."""

    def __init__(self, index_dir: Path | None = None, url: str | None = None, api_key: str | None = None) -> None:
        self.index_dir = index_dir
        self.url = url
        self.lock = threading.RLock()
        if url:
            self.client = QdrantClient(url=url, api_key=api_key, timeout=10)
        elif index_dir is not None:
            self.client = _acquire(index_dir)
        else:
            raise ValueError("IndexStore needs an index folder or a server URL")
        self.ensure_collection()

    @property
    def location(self) -> str:
        """Human-readable location (folder or URL)."""
        return self.url or str(self.index_dir)

    @property
    def is_local(self) -> bool:
        """True for the on-disk local mode."""
        return not self.url

    def close(self) -> None:
        """Release the client (and the folder lock when the last user closes)."""
        if self.url:
            self.client.close()
        elif self.index_dir is not None:
            _release(self.index_dir)

    def folder_missing(self) -> bool:
        """True when the local index folder was deleted under us."""
        return self.is_local and self.index_dir is not None and not (self.index_dir / ".lock").exists()

    def ensure_collection(self) -> None:
        """Create the collection and its payload indexes if missing (recreate on a schema mismatch)."""
        with self.lock:
            if self.client.collection_exists(COLLECTION):
                info = self.client.get_collection(COLLECTION)
                vectors = info.config.params.vectors
                sparse = info.config.params.sparse_vectors or {}
                if isinstance(vectors, dict) and DENSE in vectors and vectors[DENSE].size == DENSE_DIM \
                        and SPARSE in sparse:
                    return
                log.warning("index schema changed: recreating %s", COLLECTION)
                self.client.delete_collection(COLLECTION)
            self._create()

    def _create(self) -> None:
        self.client.create_collection(
            COLLECTION,
            vectors_config={DENSE: models.VectorParams(size=DENSE_DIM, distance=models.Distance.COSINE)},
            sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
        )
        if not self.is_local:  # local mode has no payload indexes (it scans); the server needs them
            for name in KEYWORD_FIELDS:
                self.client.create_payload_index(COLLECTION, name, models.PayloadSchemaType.KEYWORD)
            for name in INTEGER_FIELDS:
                self.client.create_payload_index(COLLECTION, name, models.PayloadSchemaType.INTEGER)
            text = models.TextIndexParams(type=models.TextIndexType.TEXT, tokenizer=models.TokenizerType.WORD,
                                          lowercase=True)
            for name in FULLTEXT_FIELDS:
                self.client.create_payload_index(COLLECTION, name, text)

    def reset(self) -> None:
        """Drop every point (used by rebuild)."""
        with self.lock:
            if self.client.collection_exists(COLLECTION):
                self.client.delete_collection(COLLECTION)
            self._create()

    def upsert(self, points: list[models.PointStruct]) -> None:
        """Insert or replace points."""
        if points:
            with self.lock:
                self.client.upsert(COLLECTION, points=points, wait=True)

    def delete_candidate(self, candidate_id: str) -> None:
        """Remove every point of one candidate."""
        flt = models.Filter(must=[models.FieldCondition(key="candidate_id",
                                                        match=models.MatchValue(value=candidate_id))])
        with self.lock:
            self.client.delete(COLLECTION, points_selector=models.FilterSelector(filter=flt), wait=True)

    def delete_points(self, chunk_ids: list[str]) -> None:
        """Remove points by chunk id."""
        if chunk_ids:
            with self.lock:
                self.client.delete(COLLECTION, points_selector=models.PointIdsList(
                    points=[point_id(c) for c in chunk_ids]), wait=True)

    def count(self, flt: models.Filter | None = None) -> int:
        """Number of points (passing a filter)."""
        with self.lock:
            return self.client.count(COLLECTION, count_filter=flt, exact=True).count

    def scroll(self, flt: models.Filter | None = None, fields: list[str] | None = None,
               limit: int | None = None) -> list[dict]:
        """Payloads of every point passing a filter (paged), up to ``limit``."""
        out: list[dict] = []
        offset = None
        with self.lock:
            while True:
                page = SCROLL_PAGE if limit is None else min(SCROLL_PAGE, limit - len(out))
                points, offset = self.client.scroll(COLLECTION, scroll_filter=flt, limit=page, offset=offset,
                                                    with_payload=fields or True, with_vectors=False)
                out.extend(p.payload or {} for p in points)
                if offset is None or (limit is not None and len(out) >= limit):
                    return out

    def query_points(self, **kwargs) -> list[models.ScoredPoint]:
        """Run a Qdrant universal query on the collection."""
        with self.lock:
            return self.client.query_points(COLLECTION, **kwargs).points
