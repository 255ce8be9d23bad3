"""The catalog's health: open-time checks, typed errors for damaged or read-only stores, backups.

The catalog is the source of truth, so it must never be *silently* replaced: a catalog
that is missing, 0 bytes or fails ``PRAGMA quick_check`` while the library still holds
CV files raises :class:`~cvrag_desktop.errors.CatalogMissing` /
:class:`~cvrag_desktop.errors.CatalogDamaged` with what to do (restore a backup, or
``cvrag doctor --rebuild-catalog``, which moves the damaged file aside and re-imports the
library). Backups use SQLite's online backup API into ``<data>/backups/`` (last N kept),
before a migration and at most once a day on open.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sqlite3
import time
from pathlib import Path

from cvrag_desktop.catalog.store.disk_space import STORE_ROOM_MB, disk_full, free_mb
from cvrag_desktop.errors import CatalogDamaged, CatalogMissing, CvragError, StoreReadOnly

log = logging.getLogger(__name__)

BACKUP_DIR = "backups"
BACKUPS_KEPT = 5
BACKUP_EVERY_S = 24 * 3600
REBUILD_HINT = ("run `cvrag doctor --rebuild-catalog` (or accept the rebuild the desktop app offers at start) "
                "to rebuild it from the library")


def library_files(library: Path | None) -> list[Path]:
    """The CV copies in the library folder (content-addressed files)."""
    if library is None or not library.is_dir():
        return []
    return [p for p in library.iterdir() if p.is_file() and not p.name.startswith(".")]


def backups_dir(catalog_path: Path) -> Path:
    """Where catalog backups are written."""
    return catalog_path.parent / BACKUP_DIR


def list_backups(catalog_path: Path) -> list[Path]:
    """Backups, newest first."""
    folder = backups_dir(catalog_path)
    if not folder.is_dir():
        return []
    return sorted(folder.glob("catalog-*.sqlite3"), key=lambda p: p.name, reverse=True)


def _restore_hint(catalog_path: Path) -> str:
    backups = list_backups(catalog_path)
    if backups:
        return f"; or restore the newest backup ({backups[0]}) by copying it over {catalog_path}"
    return ""


def check_before_open(path: Path, library: Path | None) -> None:
    """Refuse to start from an absent or 0-byte catalog while the library holds CVs."""
    if path.exists() and path.stat().st_size > 0:
        return
    files = library_files(library)
    if files:
        state = "is empty (0 bytes)" if path.exists() else "is missing"
        raise CatalogMissing(
            f"The catalog {path} {state} but the library holds {len(files)} imported CV file(s). Nothing was "
            f"deleted: {REBUILD_HINT}{_restore_hint(path)}.")


def damaged(path: Path, detail: str) -> CatalogDamaged:
    """The typed error for a catalog that fails its integrity check."""
    return CatalogDamaged(
        f"The catalog {path} is damaged ({detail}). Your CV files are untouched in the library: "
        f"{REBUILD_HINT}{_restore_hint(path)}.")


def quick_check(conn: sqlite3.Connection, path: Path) -> None:
    """``PRAGMA quick_check``; raises :class:`CatalogDamaged` unless it says ok."""
    try:
        rows = conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as exc:
        raise damaged(path, str(exc)) from exc
    if not rows or rows[0][0] != "ok":
        raise damaged(path, "; ".join(str(r[0]) for r in rows[:3]) or "integrity check failed")


def is_disk_full(exc: BaseException) -> bool:
    """True for SQLite's or the OS's "no space left" errors."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    return isinstance(exc, sqlite3.Error) and (
        "database or disk is full" in str(exc) or getattr(exc, "sqlite_errorcode", None) == 13)  # SQLITE_FULL


def is_read_only(exc: BaseException) -> bool:
    """True for "attempt to write a readonly database" and permission errors."""
    if isinstance(exc, PermissionError) or (isinstance(exc, OSError) and exc.errno in (errno.EROFS, errno.EACCES)):
        return True
    text = str(exc).lower()
    return isinstance(exc, sqlite3.Error) and ("readonly" in text or "read-only" in text)


def typed_store_error(exc: BaseException, where: Path) -> CvragError | None:
    """Map a low-level storage error to the typed error a user can act on (None: not a storage error)."""
    if isinstance(exc, CvragError):
        return exc
    if is_disk_full(exc):
        return disk_full(where)
    if isinstance(exc, sqlite3.OperationalError) and "disk i/o error" in str(exc).lower():
        free = free_mb(where)  # SQLite's -shm cannot grow on a full disk: an "I/O error", no "full"
        if free is not None and free < STORE_ROOM_MB:
            return disk_full(where)
    if is_read_only(exc):
        return StoreReadOnly(f"{where} is read-only: changes cannot be saved (listing, viewing and searching "
                             "still work). Check the folder's permissions or free the disk, then try again.")
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError | sqlite3.IntegrityError):
        return damaged(where, str(exc))
    if isinstance(exc, sqlite3.OperationalError) and "malformed" in str(exc):
        return damaged(where, str(exc))
    return None


def backup(conn: sqlite3.Connection, catalog_path: Path, reason: str, keep: int = BACKUPS_KEPT) -> Path | None:
    """Copy the live catalog with SQLite's online backup API; keep the newest ``keep``. Never raises."""
    folder = backups_dir(catalog_path)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + f"-{int(time.time() * 1000) % 1000:03d}"
    target = folder / f"catalog-{stamp}-{reason}.sqlite3"
    free = free_mb(catalog_path.parent)
    if free is not None and free < STORE_ROOM_MB + catalog_path.stat().st_size / 2**20:
        log.info("catalog backup (%s) skipped: %.1f MB free on the disk", reason, free)
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        dest = sqlite3.connect(str(target))
        try:
            conn.backup(dest)
            with dest:  # the audit trail's anchor stays with the live catalog: a restored copy starts without it
                dest.execute("DELETE FROM meta WHERE key = 'audit_anchor'")  # (catalog/compliance/audit_anchor.py)
        finally:
            dest.close()
    except (sqlite3.Error, OSError) as exc:
        log.warning("catalog backup (%s) failed: %s", reason, exc)
        with contextlib.suppress(OSError):
            target.unlink(missing_ok=True)
        return None
    for old in list_backups(catalog_path)[keep:]:
        with contextlib.suppress(OSError):
            old.unlink()
    return target


def backup_due(catalog_path: Path, every_s: float = BACKUP_EVERY_S) -> bool:
    """True when no backup is younger than ``every_s`` seconds."""
    backups = list_backups(catalog_path)
    if not backups:
        return True
    try:
        return time.time() - backups[0].stat().st_mtime > every_s
    except OSError:
        return True


def dir_writable(folder: Path) -> bool:
    """True when files can be created in ``folder`` (really tried: root ignores mode bits, mounts do not)."""
    probe = folder / f".write-probe-{os.getpid()}"
    try:
        with open(probe, "wb"):
            pass
        probe.unlink()
        return True
    except OSError:
        return False
