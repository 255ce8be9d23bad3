"""The SQLite catalog: files, candidates, chunks, provenance, shortlists, and the forget journal.

It is the source of truth (the search index is derived from it). One connection is
shared behind a lock; WAL mode lets readers proceed while the ingestion lane writes.
This module opens the file (health checks, read-only folders, migration) and runs
statements; the rows of each table are read and written by the mixins it is made of
(``catalog/store/file_rows.py``, ``candidate_rows.py``, ``person_links.py``,
``catalog/compliance/forget_journal.py``); the tables themselves are in ``catalog/store/schema.py``.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from cvrag_desktop.catalog.compliance.forget_journal import ForgetJournal
from cvrag_desktop.catalog.store import health
from cvrag_desktop.catalog.store.candidate_rows import CandidateRows
from cvrag_desktop.catalog.store.disk_space import STORE_ROOM_MB, ensure_room
from cvrag_desktop.catalog.store.file_rows import FileRows
from cvrag_desktop.catalog.store.person_links import PersonLinks
from cvrag_desktop.catalog.store.read_only import connect_read_only, refuse
from cvrag_desktop.catalog.store.schema import MIGRATIONS, SCHEMA, SCHEMA_VERSION
from cvrag_desktop.errors import StoreReadOnly


class Catalog(FileRows, CandidateRows, PersonLinks, ForgetJournal):
    """Thread-safe access to the catalog database."""

    def __init__(self, path: Path, library: Path | None = None) -> None:
        self.path = path
        self.home = path.parent  # the data home: stored library paths are relative to it
        self.read_only = False
        self._lock = threading.RLock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise health.typed_store_error(exc, path.parent) or exc from exc
        health.check_before_open(path, library)
        writable = health.dir_writable(path.parent) and (not path.exists() or os.access(path, os.W_OK))
        if not writable and not path.exists():
            raise health.typed_store_error(PermissionError(errno.EACCES, "read-only"), path.parent)
        try:
            if writable:
                self._conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30, isolation_level=None)
            else:  # read-only folder: reads still work (no -wal/-shm can be created, so open immutable)
                self.read_only = True
                self._conn = connect_read_only(path)
            self._conn.row_factory = sqlite3.Row
            health.quick_check(self._conn, path)
            if self.read_only:
                return
            with self._lock:
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA foreign_keys=ON")
                self._conn.execute("PRAGMA synchronous=NORMAL")
                self._conn.execute("PRAGMA secure_delete=ON")  # forgotten rows are overwritten, not left in free pages
                self._conn.executescript(SCHEMA)
                self._migrate()
        except sqlite3.Error as exc:
            conn = getattr(self, "_conn", None)
            if conn is not None:
                conn.close()
            raise health.typed_store_error(exc, path) or health.damaged(path, str(exc)) from exc
        if self._conn.execute("SELECT 1 FROM files LIMIT 1").fetchone() and health.backup_due(path) \
                and not self._conn.execute("SELECT 1 FROM meta WHERE key = 'rebuild'").fetchone():
            health.backup(self._conn, path, "daily")  # (a partial rebuild is not worth a copy)

    def _migrate(self) -> None:
        """Bring an older catalog to :data:`SCHEMA_VERSION` (a fresh one gets every step)."""
        row = self._conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        version = int(row[0]) if row else 1
        fresh = row is None and not self._conn.execute("SELECT 1 FROM files LIMIT 1").fetchone()
        if not fresh and any(t > version for t in MIGRATIONS):
            health.backup(self._conn, self.path, f"before-v{SCHEMA_VERSION}")
        for target in sorted(MIGRATIONS):
            if target > version:
                step = MIGRATIONS[target]
                step(self._conn, self.home) if target >= 7 else step(self._conn)
        self._conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('schema_version', ?)",
                           (str(max(version, SCHEMA_VERSION)),))

    def schema_version(self) -> int:
        """The catalog's schema version (after migration)."""
        return int(self.query("SELECT value FROM meta WHERE key = 'schema_version'")[0][0])

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """Run statements atomically (all or nothing); storage failures become typed errors."""
        if self.read_only:
            raise StoreReadOnly(f"The data folder {self.path.parent} is read-only: changes cannot be saved "
                                "(listing, viewing and searching still work). Check its permissions, then try again.")
        ensure_room(self.home, "the last change was not saved")  # before anything is written (catalog/store/disk_space.py)
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise health.typed_store_error(exc, self.path) or exc from exc
            try:
                yield self._conn
            except BaseException as exc:
                with suppress(sqlite3.Error):
                    self._conn.execute("ROLLBACK")
                typed = health.typed_store_error(exc, self.path) if isinstance(exc, sqlite3.Error | OSError) else None
                if typed is not None and typed is not exc:
                    raise typed from exc
                raise
            try:
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                with suppress(sqlite3.Error):
                    self._conn.execute("ROLLBACK")
                raise health.typed_store_error(exc, self.path) or exc from exc

    def query(self, sql: str, params: tuple | list = ()) -> list[sqlite3.Row]:
        """Run a read query and return all rows."""
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise health.typed_store_error(exc, self.path) or exc from exc

    def wipe_free_space(self) -> None:
        """Flush the write-ahead log into the database and truncate it (forgotten rows leave no copy)."""
        if self.read_only:
            return
        with self._lock:
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def backup_now(self, reason: str = "manual") -> Path | None:
        """A backup of the catalog (online backup API) in ``<data>/backups``."""
        if self.read_only:
            raise refuse(self.path.parent, "no backup can be written in it")
        ensure_room(self.home, "no backup was written", STORE_ROOM_MB + self.path.stat().st_size / 2**20)
        with self._lock:
            return health.backup(self._conn, self.path, reason)
