"""The Edge shard's layout: its configuration, payload indexes, and chunks as points.

``shard_config`` fixes what is stored: named vectors ``dense`` (384-d cosine, float16,
searched exactly: no HNSW graph is ever built, ``indexing_threshold=0``) and ``bm25``
(sparse, ``Modifier.Idf``), payload storage kept ``Cached``, the WAL on. ``open_shard``
loads or creates the shard, adds any missing payload index (keyword over normalised
values; the ``<list>_words[].w`` ones per array element so nested filters use them;
integer ``years``), and turns Edge's lock error — a plain ``Exception("…WouldBlock")``
when another process has the shard open — into :class:`ShardBusy`.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import numpy as np
import qdrant_edge as qe

from cvrag_desktop.catalog.store.disk_space import disk_full, is_no_space
from cvrag_desktop.errors import CvragError, IndexNotSaved
from cvrag_desktop.index.embeddings import DENSE_DIM
from cvrag_desktop.index.filters import INTEGER_FIELDS, KEYWORD_FIELDS, point_fields
from cvrag_desktop.index.records import Row, point_id, seq_numbers

log = logging.getLogger(__name__)
SHARD_DIR = "shard"
DENSE, SPARSE = "dense", "bm25"


class ShardBusy(Exception):
    """The shard's own lock (its WAL) is held by another process."""


class ShardDamaged(Exception):
    """The shard's files differ from what its last clean close recorded (see ``files.check_seal``)."""


def is_shard_error(exc: BaseException) -> bool:
    """Is ``exc`` the Edge engine failing to read its own files (damage), not the app's own error?

    Edge raises a plain ``Exception`` ("Service runtime error: Failed to decompress LZ4 value…"
    for random bytes in a payload page, whose size the seal cannot tell apart) or a Rust panic
    (pyo3's ``PanicException``); its lock error ("WouldBlock") is another process and "No space
    left on device" a full disk, not damage.
    """
    if is_no_space(exc):
        return False
    if type(exc).__name__ == "PanicException":
        return True
    return type(exc) is Exception and "WouldBlock" not in str(exc)


def plain_reason(exc: BaseException) -> str:
    """Damage in the user's words: the seal's own finding, or that the engine failed (its words go to the log)."""
    if isinstance(exc, ShardDamaged):
        return str(exc)
    log.info("search engine error on its own files: %s: %s", type(exc).__name__, str(exc)[:2000])
    words = str(exc).lower()
    if "version" in words and ("newer" in words or "older" in words):
        return "it was written by another version of the search engine"
    if re.search(r"\bwal\b", words):
        return "the search engine could not read its write-ahead log"
    return "the search engine could not read it"


def flush_failed(index_dir: Path, exc: BaseException) -> CvragError:
    """The typed error for a flush that failed: a full disk, or the index that could not be written."""
    log.info("flushing the search index failed: %s: %s", type(exc).__name__, str(exc)[:2000])
    if is_no_space(exc):
        return disk_full(index_dir, "the catalog holds every change; the search index is brought up to date "
                                    "from it at the next start, or by `cvrag reindex`")
    return IndexNotSaved(f"The search index at {index_dir} could not save its changes. The catalog holds every "
                         "change: the index is brought up to date from it at the next start, or by `cvrag reindex`.")


def shard_config() -> qe.EdgeConfig:
    """The shard's layout: two named vectors, no HNSW indexing, WAL on."""
    return qe.EdgeConfig(
        vectors={DENSE: qe.EdgeVectorParams(size=DENSE_DIM, distance=qe.Distance.Cosine,
                                            datatype=qe.VectorStorageDatatype.Float16)},
        sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        optimizers=qe.EdgeOptimizersConfig(indexing_threshold=0),
        payload_memory=qe.Memory.Cached,  # metadata reads payloads: ~3x faster than Cold, a few dozen MB
    )


def optimizing_config() -> qe.EdgeConfig:
    """The layout with the optimizer allowed to seal segments: the appendable segment becomes an
    immutable one (BM25 inverted index and keyword indexes on disk, memory-mapped) — still no
    HNSW graph (``m=0``: dense search stays exact)."""
    no_graph = qe.HnswIndexConfig(m=0, ef_construct=100, full_scan_threshold=10, payload_m=0)
    base = shard_config()
    return qe.EdgeConfig(
        vectors={DENSE: qe.EdgeVectorParams(size=DENSE_DIM, distance=qe.Distance.Cosine,
                                            datatype=qe.VectorStorageDatatype.Float16, hnsw_config=no_graph)},
        sparse_vectors=base.sparse_vectors, hnsw_config=no_graph,
        optimizers=qe.EdgeOptimizersConfig(indexing_threshold=1), payload_memory=base.payload_memory,
    )


def optimize_shard(path: Path) -> bool:
    """Seal the shard's segments (``EdgeShard.optimize``); True when something was optimised.

    It holds the GIL for its whole run (~1.5 min at 80k points here): only ``cvrag reindex`` (a
    process of its own) calls it, never the GUI. A sealed shard opens ~4x faster at 80k points and
    keeps less in RAM (docs/index.md).
    """
    shard = qe.EdgeShard.load(str(path), optimizing_config())
    try:
        return bool(shard.optimize())
    finally:
        shard.flush()
        shard.close()


def open_shard(path: Path) -> qe.EdgeShard:
    """Load the shard at ``path`` (created with its payload indexes when absent)."""
    try:
        if (path / "edge_config.json").exists() or (path / "segments").exists():
            shard = qe.EdgeShard.load(str(path))
        else:
            shard = qe.EdgeShard.create(str(path), shard_config())
    except Exception as exc:
        if "WouldBlock" in str(exc):
            raise ShardBusy(str(exc)) from exc
        raise
    have = set(shard.info().payload_schema)
    # Memory.Cached: in a sealed (optimised) segment the index is memory-mapped, not read into RAM
    # at load (80k points: load 2.0 s -> 0.3-0.5 s); "<array>[].w" is indexed per element, so
    # nested (one-value) filters use the index
    for name in KEYWORD_FIELDS:
        if name not in have:
            nested = {"nested": name.split("[]")[0]} if "[]" in name else {}
            schema = qe.KeywordIndexParams(memory=qe.Memory.Cached, **nested)
            shard.update(qe.UpdateOperation.create_field_index(name, schema))
    for name in INTEGER_FIELDS:
        if name not in have:
            schema = qe.IntegerIndexParams(lookup=True, range=True, memory=qe.Memory.Cached)
            shard.update(qe.UpdateOperation.create_field_index(name, schema))
    return shard


def to_point(r: Row, fields: dict, seq: int) -> qe.Point:
    """One chunk as a shard point: both vectors, ids, digest, its place among the candidate's
    chunks (``seq``, catalog order) and the candidate's filter fields."""
    return qe.Point(point_id(r.chunk_id), {
        DENSE: r.dense.astype(np.float32).tolist(),
        SPARSE: qe.SparseVector(indices=r.terms.astype(np.int64).tolist(), values=r.weights.astype(float).tolist()),
    }, {"chunk_id": r.chunk_id, "candidate_id": r.candidate_id, "section": r.section, "digest": r.digest,
        "seq": seq, **fields})


def points(rows: list[Row], payloads: dict[str, dict]) -> list[qe.Point]:
    """Shard points for rows of the candidates in ``payloads`` (normalised candidate payloads)."""
    fields = {c: point_fields(p) for c, p in payloads.items()}
    return [to_point(r, fields[r.candidate_id], seq) for r, seq in zip(rows, seq_numbers(rows), strict=True)]


def vectors_of(vector: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(dense, terms, weights) arrays from a stored point's vectors."""
    sv = vector[SPARSE]
    return (np.asarray(vector[DENSE], dtype=np.float32), np.asarray(sv.indices, dtype=np.uint32),
            np.asarray(sv.values, dtype=np.float32))
