"""Files kept beside the Edge shard: the models' fingerprint, rebuild reuse, the legacy index.

- ``meta.json``: the embedding models' fingerprint (a model change drops stale vectors).
- ``reuse.sqlite3``: during ``cvrag reindex`` the old vectors by content digest, so the
  rebuild never re-embeds an unchanged chunk (kept if the rebuild is interrupted, removed
  when it finishes).
- ``seal.json``: written after a clean close — every shard file's size and a digest of its
  content (segments, id trackers, payload indexes, the WAL, the config: zeros skipped, so
  the sparse mmap files cost little). :func:`check_seal` compares them before the next load
  (Edge itself checks no checksum: a flipped byte in a vector file would be searched as is,
  one in the id tracker aborts the process), and the seal is removed once the shard is open
  (any write changes the files). Without a seal (a crash) the shard is probed in a child
  process first (:mod:`cvrag_desktop.index.edge.probe`).
- ``index.sqlite3``: the previous engine's database (SQLite + numpy, before Qdrant Edge).
  :func:`migrate_legacy` copies its vectors and payloads into the shard without
  re-embedding, then removes it; an interrupted migration starts over on the next open
  (point ids are derived from chunk ids, so re-writing is harmless).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from cvrag_desktop.index.records import Row

log = logging.getLogger(__name__)

META_NAME = "meta.json"
REUSE_NAME = "reuse.sqlite3"
LEGACY_DB = "index.sqlite3"
SEAL_NAME = "seal.json"
SEAL_VERSION = 2  # 2: every file digested, the WAL included (1: sizes, vector files only)
Vectors = tuple[np.ndarray, np.ndarray, np.ndarray]


def read_meta(folder: Path) -> dict:
    """The entries of ``meta.json`` (empty when absent or unreadable)."""
    try:
        return json.loads((folder / META_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def write_meta(folder: Path, data: dict) -> None:
    """Replace ``meta.json`` atomically."""
    tmp = folder / (META_NAME + ".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, folder / META_NAME)


class ReuseFile:
    """Vectors by content digest kept across a rebuild (``reuse.sqlite3``)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / REUSE_NAME

    def save(self, batches: Iterable[list[tuple[str, np.ndarray, np.ndarray, np.ndarray]]]) -> None:
        """Add (digest, dense, terms, weights) rows (kept from an earlier interrupted rebuild too)."""
        conn = sqlite3.connect(self.path)
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS reuse (digest TEXT PRIMARY KEY, dense BLOB, terms BLOB, "
                         "weights BLOB)")
            for batch in batches:
                conn.executemany("INSERT OR REPLACE INTO reuse VALUES (?, ?, ?, ?)", [
                    (d, v.astype(np.float32).tobytes(), t.astype(np.uint32).tobytes(), w.astype(np.float32).tobytes())
                    for d, v, t, w in batch])
            conn.commit()
        finally:
            conn.close()

    def lookup(self, digests: list[str]) -> dict[str, Vectors]:
        """The kept vectors of these digests (none when no rebuild is in progress)."""
        if not digests or not self.path.exists():
            return {}
        out: dict[str, Vectors] = {}
        conn = sqlite3.connect(self.path)
        try:
            for start in range(0, len(digests), 500):
                part = digests[start:start + 500]
                q = f"SELECT digest, dense, terms, weights FROM reuse WHERE digest IN ({','.join('?' * len(part))})"
                for d, v, t, w in conn.execute(q, part):
                    out[d] = (np.frombuffer(v, np.float32), np.frombuffer(t, np.uint32), np.frombuffer(w, np.float32))
        except sqlite3.DatabaseError as exc:  # a damaged side file only costs re-embedding
            log.warning("rebuild reuse file unreadable (%s): texts will be re-embedded", exc)
        finally:
            conn.close()
        return out

    def drop(self) -> None:
        """Remove the file (the rebuild finished)."""
        self.path.unlink(missing_ok=True)


BLOCK = 1 << 20
_ZERO = bytes(BLOCK)


def _data_ranges(fh, size: int) -> list[tuple[int, int]]:
    """The parts of a file that hold data (its holes read as zeros); the whole file where the OS cannot tell."""
    if not hasattr(os, "SEEK_DATA"):
        return [(0, size)]
    out, pos, fd = [], 0, fh.fileno()
    try:
        while pos < size:
            start = os.lseek(fd, pos, os.SEEK_DATA)
            end = os.lseek(fd, start, os.SEEK_HOLE)
            out.append((start, end))
            pos = end
    except OSError:  # ENXIO: no data after pos; another error: read everything
        return out if pos else [(0, size)]
    return out


def _file_digest(path: Path) -> str:
    """A digest of the file's content that skips zeros cheaply.

    The shard's memory-mapped files are mostly preallocated zeros (sparse: 312 MB apparent, 3 MB
    allocated at 300 chunks). The file is read as aligned blocks of ``BLOCK`` bytes; blocks in holes
    are not read, blocks of zeros are not hashed, every other block is hashed with its offset — so
    the digest depends on the content only (not on how the file is laid out on disk: a copy that
    fills the holes digests the same), and a changed, zeroed or added byte anywhere changes it.
    """
    h = hashlib.blake2b(digest_size=16)
    with path.open("rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        h.update(size.to_bytes(8, "little"))
        last = -1
        for start, end in _data_ranges(fh, size):
            for k in range(max(start // BLOCK, last + 1), (end + BLOCK - 1) // BLOCK):
                fh.seek(k * BLOCK)
                block = fh.read(BLOCK)
                last = k
                if block and block != _ZERO[:len(block)]:
                    h.update(k.to_bytes(8, "little"))
                    h.update(block)
    return h.hexdigest()


_OS_LITTER = frozenset({"thumbs.db", "desktop.ini", "icon\r"})


def _shard_files(shard: Path) -> dict[str, Path]:
    """Every file of the shard (segments, id trackers, payload indexes, the WAL, the config).

    Files the engine never writes are left out: dot files (``.DS_Store``, a sync tool's
    marker) and what file managers drop (``Thumbs.db``, ``desktop.ini``); their appearance is
    not damage, and taking it for damage would throw a good index away.
    """
    return {f.relative_to(shard).as_posix(): f for f in shard.rglob("*")
            if f.is_file() and not f.name.startswith(".") and f.name.lower() not in _OS_LITTER}


def write_seal(folder: Path, shard: Path) -> None:
    """Record the closed shard's files: each one's size and content digest (see the module doc)."""
    files = _shard_files(shard)
    seal = {"version": SEAL_VERSION, "sizes": {r: f.stat().st_size for r, f in files.items()},
            "digests": {r: _file_digest(f) for r, f in files.items()}}
    tmp = folder / (SEAL_NAME + ".tmp")
    tmp.write_text(json.dumps(seal), encoding="utf-8")
    os.replace(tmp, folder / SEAL_NAME)


def has_seal(folder: Path) -> bool:
    """Was the shard closed cleanly by this version (a seal of this kind to check it against)?"""
    try:
        seal = json.loads((folder / SEAL_NAME).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        return True  # unreadable: check_seal reports it as damage
    return isinstance(seal, dict) and seal.get("version") == SEAL_VERSION


def check_seal(folder: Path, shard: Path) -> str | None:
    """What differs between the shard on disk and its seal (None: intact, or no seal to compare)."""
    try:
        seal = json.loads((folder / SEAL_NAME).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return "its integrity record (seal.json) is unreadable"
    if not isinstance(seal, dict) or seal.get("version") != SEAL_VERSION:
        return None  # another app version's record: nothing to compare
    files = _shard_files(shard)
    sizes, digests = seal.get("sizes", {}), seal.get("digests", {})
    if added := sorted(set(files) - set(sizes)):
        return f"the file {added[0]} was added after it was closed"
    for rel, size in sizes.items():
        if rel not in files:
            return f"the file {rel} is missing"
        if files[rel].stat().st_size != size:
            return f"the file {rel} has {files[rel].stat().st_size} bytes, {size} when it was closed"
    for rel, digest in digests.items():
        try:
            if _file_digest(files[rel]) != digest:
                return f"the content of {rel} changed after it was closed (damaged on disk)"
        except OSError as exc:
            return f"the file {rel} cannot be read ({exc.strerror or exc})"
    return None


def drop_seal(folder: Path) -> None:
    """Forget the seal (the shard is open and about to change)."""
    (folder / SEAL_NAME).unlink(missing_ok=True)


def legacy_rows(folder: Path, batch: int = 512) -> Iterable[tuple[list[Row], dict[str, dict]]]:
    """(rows, candidate payloads) from the previous engine's ``index.sqlite3``, a batch at a time."""
    conn = sqlite3.connect(f"file:{folder / LEGACY_DB}?mode=ro", uri=True)
    try:
        payloads = {c: json.loads(p) for c, p in conn.execute("SELECT candidate_id, payload FROM candidates")}
        cur = conn.execute("SELECT chunk_id, candidate_id, section, digest, dense, terms, weights FROM chunks "
                           "ORDER BY rowid")
        while part := cur.fetchmany(batch):
            rows = [Row(c, cid, s, d, np.frombuffer(v, np.float16).astype(np.float32), np.frombuffer(t, np.uint32),
                        np.frombuffer(w, np.float32)) for c, cid, s, d, v, t, w in part if cid in payloads]
            yield rows, payloads
    finally:
        conn.close()


def legacy_model(folder: Path) -> str | None:
    """The models' fingerprint recorded by the previous engine."""
    conn = sqlite3.connect(f"file:{folder / LEGACY_DB}?mode=ro", uri=True)
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'model'").fetchone()
        return row[0] if row else None
    except sqlite3.DatabaseError:
        return None
    finally:
        conn.close()


def migrate_legacy(folder: Path, write: Callable[[list[Row], dict[str, dict]], None]) -> int:
    """Move the previous engine's vectors into the shard through ``write``; returns the chunks moved.

    The old files are removed only after every row was written; an unreadable old
    database is removed too (the catalog refills the index by reconciling).
    """
    db = folder / LEGACY_DB
    if not db.exists():
        return 0
    moved = 0
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            total = conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
        finally:
            conn.close()
        log.info("moving the search index to Qdrant Edge: %d chunks (no re-embedding)", total)
        model = legacy_model(folder)
        for rows, payloads in legacy_rows(folder):
            write(rows, payloads)
            moved += len(rows)
            log.info("moving the search index: %d / %d chunks", moved, total)
        if model:
            write_meta(folder, {**read_meta(folder), "model": model})
    except sqlite3.DatabaseError as exc:
        log.warning("the previous index %s is unreadable (%s): it is rebuilt from the catalog", db, exc)
    for suffix in ("", "-wal", "-shm"):
        (folder / f"{LEGACY_DB}{suffix}").unlink(missing_ok=True)
    return moved


def edge_version() -> str:
    """The installed ``qdrant-edge-py`` version (reported by ``cvrag doctor``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("qdrant-edge-py")
    except PackageNotFoundError:
        return "?"


def folder_bytes(folder: Path) -> int:
    """Bytes allocated on disk under a folder (the index's disk use; its memory-mapped files are
    sparse, so their sizes overstate it — blocks are counted where the OS reports them)."""
    total = 0
    for p in folder.rglob("*"):
        try:
            st = p.stat()
        except OSError:  # removed meanwhile
            continue
        if p.is_file():
            total += st.st_blocks * 512 if hasattr(st, "st_blocks") else st.st_size
    return total
