"""The local index store: one engine per folder per process, guarded by an OS file lock.

``<index_dir>/.lock`` is held with an exclusive, non-blocking OS lock (flock /
LockFileEx via portalocker) for as long as a process has the index open, so a second
*process* gets :class:`~cvrag_desktop.errors.IndexLocked` immediately, never a half-open
store; the OS drops the lock when a process dies, so a crash leaves nothing stale.
Within a process every :class:`IndexStore` on a folder shares one
:class:`~cvrag_desktop.index.edge.engine.EdgeIndex` (``store.client``), an embedded
Qdrant Edge shard. The shard has a lock of its own (on its WAL); if it is ever met
(a process that opened the shard without the folder lock) it maps to ``IndexLocked`` too.
A shard that cannot be loaded (damaged segment, a format this version cannot read) or
whose files differ from the seal of its last clean close (a truncated or altered vector
file) is moved aside to ``shard.damaged`` (the latest one kept, for inspection) and
started afresh; the catalog refills it (``status()["repaired"]`` says so).

Server mode (``index_url``) uses :class:`cvrag_desktop.index.qdrant_store.QdrantStore`,
which has the same methods.
"""

from __future__ import annotations

import json
import logging
import shutil
import tempfile
import threading
import time
from pathlib import Path

import portalocker

from cvrag_desktop.catalog.store import disk_space as ds
from cvrag_desktop.catalog.store.disk_space import disk_full, is_no_space
from cvrag_desktop.catalog.store.health import dir_writable
from cvrag_desktop.errors import IndexLocked
from cvrag_desktop.index.edge.engine import EdgeIndex
from cvrag_desktop.index.edge.files import LEGACY_DB, SEAL_NAME, drop_seal, has_seal, migrate_legacy
from cvrag_desktop.index.edge.probe import ProbeBusy, probe_shard
from cvrag_desktop.index.edge.shard import (
    SHARD_DIR,
    ShardBusy,
    ShardDamaged,
    flush_failed,
    plain_reason,
    points,
)
from cvrag_desktop.index.filters import SearchFilters
from cvrag_desktop.index.records import QueryVectors, RawHit, Row

log = logging.getLogger(__name__)

LOCK_NAME = ".lock"
_registry: dict[str, tuple[EdgeIndex, object, int]] = {}
_registry_lock = threading.Lock()


def _locked(index_dir: Path) -> IndexLocked:
    return IndexLocked(
        f"The search index at {index_dir} is open in another CV RAG window or process. Close it and "
        "try again (or set index_url to a Qdrant server to share one index)."
    )


def _acquire(index_dir: Path) -> EdgeIndex:
    key = str(index_dir.resolve())
    with _registry_lock:
        if key in _registry:
            engine, fh, refs = _registry[key]
            _registry[key] = (engine, fh, refs + 1)
            return engine
        read_only = (index_dir / SHARD_DIR).is_dir() and not dir_writable(index_dir)
        if not read_only:
            index_dir.mkdir(parents=True, exist_ok=True)
        # read-only folder: a shared lock on the existing lock file (readers never exclude each other)
        fh = open(index_dir / LOCK_NAME, "r" if read_only else "a+")  # noqa: SIM115 - held while in use
        flags = portalocker.LockFlags.SHARED if read_only else portalocker.LockFlags.EXCLUSIVE
        try:
            portalocker.lock(fh, flags | portalocker.LockFlags.NON_BLOCKING)
        except portalocker.exceptions.LockException as exc:
            fh.close()
            raise _locked(index_dir) from exc
        try:
            engine = _read_only_copy(index_dir) if read_only else _open_engine(index_dir)
        except ShardBusy as exc:
            portalocker.unlock(fh)
            fh.close()
            raise _locked(index_dir) from exc
        except BaseException:
            portalocker.unlock(fh)
            fh.close()
            raise
        _registry[key] = (engine, fh, 1)
        return engine


def _open_engine(index_dir: Path) -> EdgeIndex:
    """Open the shard (moving a previous engine's vectors in); a damaged one is set aside and started afresh."""
    if not (index_dir / SHARD_DIR).is_dir():  # a new shard maps its files at once: a full disk is a bus error
        _room(index_dir, "the search index was not created")
    else:  # loading writes too (segment state): not on a full disk, where it fails or faults
        _room(index_dir, "the search index was not opened", "open")
    problem = None
    shard = index_dir / SHARD_DIR
    if (shard / "segments").is_dir() and not has_seal(index_dir):  # not closed cleanly: load it in a child first
        try:
            problem = probe_shard(index_dir, shard)
        except ProbeBusy as exc:
            raise ShardBusy(str(exc)) from exc
    engine = None
    if problem is None:
        try:
            engine = EdgeIndex(index_dir)
        except ShardBusy:
            raise
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # BaseException: a Rust panic in Edge surfaces as pyo3's PanicException
            if is_no_space(exc):  # a full disk, not damage: nothing is set aside
                raise disk_full(index_dir, "the search index was not opened") from exc
            problem = plain_reason(exc)
    if engine is None:
        aside = index_dir / (SHARD_DIR + ".damaged")
        shutil.rmtree(aside, ignore_errors=True)  # only the latest damaged copy is kept, for inspection
        if shard.exists():
            shard.rename(aside)
        drop_seal(index_dir)
        _report_damage(index_dir, problem or "it could not be loaded")
        _room(index_dir, "the search index was not created again")
        engine = EdgeIndex(index_dir)
    if (index_dir / LEGACY_DB).exists():
        try:
            migrate_legacy(index_dir, lambda rows, payloads: engine.upsert(points(rows, payloads)))
        except BaseException:  # interrupted: the old files stay, the next open resumes
            engine.close()
            raise
    return engine


def _room(index_dir: Path, what: str, level: str = "grow") -> None:
    """Refuse to grow the memory-mapped shard on a (nearly) full disk (see ``catalog/store/disk_space.py``).

    ``level``: ``grow`` (a new shard, points written), ``reset`` (a new shard once the old one's room
    is given back), ``delete`` (a few log records), ``open`` (loading may fill the holes of its
    sparse files: up to a new segment's worth).
    """
    room = ds.STORE_ROOM_MB if level == "delete" else ds.INDEX_ROOM_MB
    if level == "open":
        room = ds.STORE_ROOM_MB + min(ds.holes_mb(index_dir / SHARD_DIR), ds.INDEX_ROOM_MB)
    back = ds.allocated_mb(index_dir / SHARD_DIR) if level == "reset" else 0.0
    ds.ensure_room(index_dir, what, room, back)


REPAIR_NAME = "repair.json"


def damage_message(index_dir: Path, reason: str) -> str:
    """What the user is told when the shard was found damaged and replaced."""
    return (f"The search index at {index_dir} is damaged ({reason}): it was moved aside to "
            f"{index_dir / (SHARD_DIR + '.damaged')} and is rebuilt from the catalog; the catalog (candidates, "
            "files, notes) is untouched.")


def _report_damage(index_dir: Path, reason: str) -> None:
    """Warn (the command line prints warnings on stderr), remember for ``status()``, record in ``repair.json``."""
    log.warning("%s", damage_message(index_dir, reason))
    key = str(index_dir.resolve())
    damaged_dirs.add(key)
    damage_reasons[key] = reason
    damage_count[key] = damage_count.get(key, 0) + 1
    _record_repair(index_dir, reason)


def _record_repair(index_dir: Path, reason: str) -> None:
    """Keep a notice of the repair beside the index (``cvrag doctor`` shows it in later runs too)."""
    try:
        (index_dir / REPAIR_NAME).write_text(json.dumps({
            "when": time.strftime("%Y-%m-%d %H:%M:%S"), "reason": reason,
            "aside": str(index_dir / (SHARD_DIR + ".damaged"))}), encoding="utf-8")
    except OSError as exc:
        log.warning("could not record the index repair: %s", exc)


def last_repair(index_dir: Path) -> dict | None:
    """The notice of the last repair of this index folder (when, reason, where the damaged copy is)."""
    try:
        data = json.loads((index_dir / REPAIR_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _read_only_copy(index_dir: Path) -> EdgeIndex:
    """A read-only data folder: search a private temporary copy of the shard (nothing is written back)."""
    tmp = Path(tempfile.mkdtemp(prefix="cvrag-index-"))
    shutil.copytree(index_dir / SHARD_DIR, tmp / SHARD_DIR)
    for name in ("meta.json", SEAL_NAME):  # the seal too: the copy is checked like the original would be
        if (index_dir / name).exists():
            shutil.copy(index_dir / name, tmp / name)
    try:
        if (tmp / SHARD_DIR / "segments").is_dir() and not has_seal(tmp):  # not closed cleanly: a child loads it first
            try:
                problem = probe_shard(tmp, tmp / SHARD_DIR)
            except ProbeBusy as exc:
                raise ShardBusy(str(exc)) from exc
            if problem:  # nothing can be rebuilt in a read-only folder: say so instead of loading it here
                raise ShardDamaged(problem)
        return EdgeIndex(tmp, read_only=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


damage_count: dict[str, int] = {}
"""How many times each index folder was found damaged in this process (a long session can meet it twice)."""
damaged_dirs: set[str] = set()
"""Index folders whose database was found damaged and replaced in this process (reported by status)."""
damage_reasons: dict[str, str] = {}
"""What was found damaged, per index folder (reported by status and ``cvrag doctor``)."""


def _release(index_dir: Path) -> None:
    key = str(index_dir.resolve())
    with _registry_lock:
        if key not in _registry:
            return
        engine, fh, refs = _registry[key]
        if refs > 1:
            _registry[key] = (engine, fh, refs - 1)
            return
        del _registry[key]
    try:
        try:
            engine.close()
        except Exception as exc:
            raise flush_failed(engine.folder, exc) from exc
        if engine.read_only:
            shutil.rmtree(engine.folder, ignore_errors=True)
    finally:
        try:
            portalocker.unlock(fh)
        except Exception as exc:  # the folder vanished under us
            log.debug("unlocking the index failed: %s", exc)
        fh.close()


class IndexStore:
    """A handle on the local index folder (see :class:`~cvrag_desktop.index.edge.engine.EdgeIndex`)."""

    is_local = True

    def __init__(self, index_dir: Path) -> None:
        self.index_dir = index_dir
        self.client = _acquire(index_dir)
        self._closed = False

    @property
    def location(self) -> str:
        """The index folder."""
        return str(self.index_dir)

    def close(self) -> None:
        """Release the engine (and the folder lock when the last handle closes)."""
        if not self._closed:
            self._closed = True
            _release(self.index_dir)

    def set_aside(self, reason: str) -> None:
        """A read of the open shard failed (damage its seal cannot see): move it aside, start afresh.

        Reported like damage found at open (``status()["repaired"]``, ``repair.json``); the caller
        refills the fresh shard from the catalog.
        """
        self.client.set_aside()
        _report_damage(self.index_dir, reason)

    def flush(self) -> None:
        """Write the shard's pending changes to its segments; a failure is a typed error, never the engine's words."""
        try:
            self.client.flush()
        except Exception as exc:
            raise flush_failed(self.index_dir, exc) from exc

    def wipe_free_space(self) -> None:
        """Leave no copy of deleted entries in the shard's segments or log."""
        self.client.wipe_free_space()

    def folder_missing(self) -> bool:
        """True when the index folder (or its shard) was deleted under us."""
        return not (self.index_dir / LOCK_NAME).exists() or not (self.index_dir / SHARD_DIR / "segments").exists()

    def ensure_model(self, tag: str) -> bool:
        """Record the embedding models' identity; vectors of other models are dropped (returns True)."""
        old = self.client.meta("model")
        if old == tag or self.client.read_only:
            return False
        stale = old is not None and self.client.count() > 0
        if stale:
            log.warning("embedding models changed (%s → %s): the index will be rebuilt", old, tag)
            self.client.reset()
        self.client.meta("model", tag)
        return stale

    def replace(self, candidate_ids: list[str], rows: list[Row], payloads: dict[str, dict]) -> None:
        """Replace the chunks of these candidates (those without payload are removed)."""
        _room(self.index_dir, "the search index was not changed")
        self.client.replace(candidate_ids, rows, payloads)

    def delete_candidate(self, candidate_id: str) -> None:
        """Remove every chunk of one candidate."""
        _room(self.index_dir, "the search index was not changed", "delete")
        self.client.delete_candidate(candidate_id)

    def delete_points(self, chunk_ids: list[str]) -> None:
        """Remove chunks by id."""
        if chunk_ids:
            _room(self.index_dir, "the search index was not changed", "delete")
            self.client.delete_points(chunk_ids)

    def reset(self, keep_vectors: bool = False) -> None:
        """Drop every chunk (keeping embeddings by digest for the rebuild when asked)."""
        _room(self.index_dir, "the search index was not rebuilt", "reset")
        self.client.reset(keep_vectors=keep_vectors)

    def done_rebuilding(self) -> None:
        """Forget the embeddings kept by ``reset(keep_vectors=True)``."""
        self.client.drop_reuse()

    def optimize(self) -> bool:
        """Seal the shard's segments (``cvrag reindex`` only: holds the GIL for a long time)."""
        return self.client.optimize()

    def known_vectors(self, digests: list[str]) -> dict:
        """Vectors already computed for these content digests."""
        return self.client.known_vectors(digests)

    def count(self, filters: SearchFilters | None = None) -> int:
        """Number of chunks (passing the filters)."""
        return self.client.count(filters)

    def scroll(self, fields: list[str] | None = None) -> list[dict]:
        """Every chunk's ids (``chunk_id``, ``candidate_id``, ``section``)."""
        return self.client.scroll(fields)

    def ranked(self, q: QueryVectors, filters: SearchFilters | None, limit: int,
               weights: tuple[float, float], top: int | None = None) -> list[RawHit]:
        """Top chunks for a query (see :meth:`EdgeIndex.ranked`)."""
        return self.client.ranked(q, filters, limit, weights, top)

    def metadata(self, filters: SearchFilters, k: int | None) -> list[tuple[str, list[tuple[str, str]]]]:
        """Candidates passing the filters with their chunks (see :meth:`EdgeIndex.metadata`)."""
        return self.client.metadata(filters, k)

    def info(self) -> dict:
        """Points, segments and payload indexes of the shard."""
        return self.client.info()
