"""Free space on the disk holding the data home, checked before anything grows there.

The search index (Qdrant Edge) writes through memory-mapped files: a page touched on a
full filesystem is not an error the program can catch but a bus error (SIGBUS) that kills
it. A new segment allocates its page files at once (32 MB of payload, 32 MB of vectors,
4 MB per payload index: ~200 MB on tmpfs), and points written into an existing shard can
make one (an import of 20 CVs into a 3-CV shard grew it by more than 65 MB).
SQLite reports a full disk as an error, but a change written to the catalog and then
refused by the audit trail (or the other way round) would leave them telling different
stories. So every write first checks that a margin stays free: :data:`INDEX_ROOM_MB`
before the index is made or points are written into it (import, reindex, compaction),
:data:`STORE_ROOM_MB` before a deletion from the index (a few log records), before the
shard is loaded, and before a catalog, audit or conversation transaction. Below it the change is refused with
:class:`~cvrag_desktop.errors.DiskFull` ("The disk holding … is full: … free N MB"),
before anything was written; reads still work.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from cvrag_desktop.errors import DiskFull

INDEX_ROOM_MB = 256  # writing points: a new shard or segment allocates its page files (~200 MB on tmpfs)
STORE_ROOM_MB = 8  # one catalog transaction and its audit entry, with their write-ahead logs


def free_mb(folder: Path) -> float | None:
    """Free megabytes on the filesystem holding ``folder`` (its nearest existing parent); None if unknown."""
    p = Path(folder)
    while not p.exists() and p != p.parent:
        p = p.parent
    try:
        return shutil.disk_usage(p).free / 2**20
    except OSError:
        return None


def disk_full(where: Path, what: str = "the last change was not saved", need_mb: float | None = None) -> DiskFull:
    """The typed error for a full disk: where, what was not done, how much is free (and needed)."""
    free = free_mb(where)
    room = f"{free:.1f} MB free" if free is not None else "no free space"
    need = f", at least {need_mb:.0f} MB must stay free" if need_mb else ""
    return DiskFull(f"The disk holding {where} is full: {room}{need}. Free some space and try again "
                    f"(nothing was lost: {what}).")


def is_no_space(exc: BaseException) -> bool:
    """Is ``exc`` a full disk said in words (the index engine: "No space left on device (os error 28)")?"""
    text = str(exc).lower()
    return "no space left" in text or "os error 28" in text or "not enough space" in text


def _sizes(folder: Path) -> tuple[int, int]:
    """(apparent bytes, allocated bytes) of the files under ``folder``."""
    apparent = allocated = 0
    for p in Path(folder).rglob("*"):
        try:
            st = p.lstat()
        except OSError:
            continue
        apparent += st.st_size
        allocated += st.st_blocks * 512
    return apparent, allocated


def allocated_mb(folder: Path) -> float:
    """Megabytes the files under ``folder`` really occupy (what removing it gives back)."""
    return _sizes(folder)[1] / 2**20


def holes_mb(folder: Path) -> float:
    """Megabytes of holes in the sparse files under ``folder``: what writing into their maps may allocate.

    (On tmpfs the first load of a fresh shard fills ~150 MB of them.)
    """
    apparent, allocated = _sizes(folder)
    return max(0, apparent - allocated) / 2**20


def ensure_room(where: Path, what: str, room_mb: float = STORE_ROOM_MB, reclaimed_mb: float = 0.0) -> None:
    """Raise :class:`DiskFull` unless at least ``room_mb`` megabytes are free on the disk holding ``where``.

    ``what`` says what was not done ("the import did not start"); ``reclaimed_mb`` is given back
    before the write (a shard removed before its replacement is made).
    """
    free = free_mb(where)
    if free is not None and free + reclaimed_mb < room_mb:
        raise disk_full(where, what, room_mb)
