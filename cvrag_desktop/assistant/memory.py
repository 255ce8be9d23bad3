"""Conversation memory: LangGraph checkpoints per thread in ``<data>/threads.sqlite3``.

The checkpointer (langgraph-checkpoint-sqlite) stores the graph state of every thread;
a small side table keeps what the GUI lists: a title (the first question, renamable)
and when the thread was last used. Deleting a thread removes both.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from pathlib import Path

from langgraph.checkpoint.sqlite import SqliteSaver

from cvrag_desktop.catalog.compliance.forget_needles import blob_mentions
from cvrag_desktop.catalog.compliance.forget_needles import needle_bytes as _needle_bytes
from cvrag_desktop.catalog.store.health import dir_writable, typed_store_error
from cvrag_desktop.catalog.store.read_only import memory_copy
from cvrag_desktop.errors import InvalidInput, NotFound

THREADS_FILE = "threads.sqlite3"
TITLE_MAX = 80


class ThreadStore:
    """The checkpointer and the thread list, in one SQLite file."""

    def __init__(self, path: Path) -> None:

        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.recovered_from: Path | None = None
        # a read-only data folder: the saved threads are read from a private in-memory copy; new turns are not saved
        self.read_only = not dir_writable(path.parent) or (path.exists() and not os.access(path, os.W_OK))
        self._conn = _open_read_only(path) if self.read_only else _open_checked(path)
        if self._conn is None:  # damaged: kept aside, conversations start afresh (the catalog is untouched)
            if self.read_only:
                self._conn = sqlite3.connect(":memory:", check_same_thread=False)
            else:
                self.recovered_from = _set_aside(path)
                self._conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA secure_delete=ON")  # a forgotten thread leaves no copy in free pages
        self._lock = threading.Lock()
        self.checkpointer = SqliteSaver(self._conn)
        self.checkpointer.setup()
        with self._lock, self._conn:
            self._conn.execute("CREATE TABLE IF NOT EXISTS assistant_threads (thread_id TEXT PRIMARY KEY, "
                               "title TEXT NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL)")

    def touch(self, thread_id: str, first_question: str) -> None:
        """Record that the thread was used (created with the question as its title if new)."""
        now = time.time()
        title = " ".join(first_question.split())[:TITLE_MAX] or thread_id
        with self._lock, self._conn:
            self._conn.execute(
                "INSERT INTO assistant_threads(thread_id, title, created_at, updated_at) VALUES (?,?,?,?) "
                "ON CONFLICT(thread_id) DO UPDATE SET updated_at = excluded.updated_at",
                (thread_id, title, now, now))

    def list(self) -> list[dict]:
        """Threads, most recently used first."""
        with self._lock:
            rows = self._conn.execute("SELECT thread_id, title, created_at, updated_at FROM assistant_threads "
                                      "ORDER BY updated_at DESC").fetchall()
        return [dict(zip(("thread_id", "title", "created_at", "updated_at"), r, strict=True)) for r in rows]

    def exists(self, thread_id: str) -> bool:
        """True when the thread is listed."""
        with self._lock:
            return self._conn.execute("SELECT 1 FROM assistant_threads WHERE thread_id = ?",
                                      (thread_id,)).fetchone() is not None

    def rename(self, thread_id: str, title: str) -> None:
        """Give a thread a new title."""
        title = " ".join((title or "").split())[:TITLE_MAX]
        if not title:
            raise InvalidInput("A thread title cannot be empty.")
        with self._lock, self._conn:
            cur = self._conn.execute("UPDATE assistant_threads SET title = ? WHERE thread_id = ?", (title, thread_id))
        if cur.rowcount == 0:
            raise NotFound(f"No conversation {thread_id!r}.")

    def delete(self, thread_id: str) -> None:
        """Forget a thread and its checkpoints."""
        if not self.exists(thread_id):
            raise NotFound(f"No conversation {thread_id!r}.")
        self.checkpointer.delete_thread(thread_id)
        with self._lock, self._conn:
            self._conn.execute("DELETE FROM assistant_threads WHERE thread_id = ?", (thread_id,))

    def scrub(self, needles: list[str]) -> list[dict]:
        """Remove every thread whose turns cite or name one of ``needles``; returns ``[{thread_id, title}]``."""
        with self._lock:
            return scrub_connection(self._conn, needles)

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._conn.close()


def _open_checked(path: Path) -> sqlite3.Connection | None:
    """The thread store's connection, or None when the file fails ``PRAGMA quick_check``."""

    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
    try:
        row = conn.execute("PRAGMA quick_check").fetchone()
        if row and row[0] == "ok":
            return conn
    except sqlite3.OperationalError as exc:  # a full disk or an I/O error is not damage: nothing is set aside
        conn.close()
        raise typed_store_error(exc, path.parent) or exc from exc
    except sqlite3.DatabaseError:
        pass
    conn.close()
    return None


def _open_read_only(path: Path) -> sqlite3.Connection | None:
    """An in-memory copy of the thread store of a read-only folder (None when it is damaged)."""

    try:
        conn = memory_copy(path)
        row = conn.execute("PRAGMA quick_check").fetchone()
    except (sqlite3.DatabaseError, OSError):
        return None
    if row and row[0] == "ok":
        conn.isolation_level = ""  # (as sqlite3.connect leaves it: the checkpointer commits its own writes)
        return conn
    conn.close()
    return None


def _set_aside(path: Path) -> Path:
    """Rename a damaged thread store (and its log files) to ``threads.damaged-<time>.sqlite3``."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}.damaged-{stamp}{path.suffix}")
    for suffix in ("", "-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.rename(target.with_name(target.name + suffix))
    logging.getLogger(__name__).warning("conversation store %s was damaged: kept as %s, starting afresh",
                                        path, target)
    return target


def scrub_connection(conn: sqlite3.Connection, needles: list[str]) -> list[dict]:
    """Delete the threads (checkpoints, pending writes, list entry) that mention a needle; flush the log."""

    keys = _needle_bytes(needles)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    hits: set[str] = set()
    if "checkpoints" in tables:
        for tid, cp, meta in conn.execute("SELECT thread_id, checkpoint, metadata FROM checkpoints"):
            if tid not in hits and (blob_mentions(cp, keys) or blob_mentions(meta, keys)):
                hits.add(tid)
    if "writes" in tables:
        for tid, value in conn.execute("SELECT thread_id, value FROM writes"):
            if tid not in hits and blob_mentions(value, keys):
                hits.add(tid)
    titles: dict[str, str] = {}
    if "assistant_threads" in tables:
        for tid, title in conn.execute("SELECT thread_id, title FROM assistant_threads"):
            titles[tid] = title
            if blob_mentions(title, keys):
                hits.add(tid)
    removed = [{"thread_id": t, "title": titles.get(t, t)} for t in sorted(hits)]
    if hits:
        with conn:
            for t in hits:
                for table in ("checkpoints", "writes", "assistant_threads"):
                    if table in tables:
                        conn.execute(f"DELETE FROM {table} WHERE thread_id = ?", (t,))
        # rewrite the file: secure_delete zeroes the freed cells, VACUUM also drops every page the
        # b-tree let go of, so no byte of a forgotten thread stays in threads.sqlite3
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return removed


def scrub_threads_file(path: Path, needles: list[str]) -> list[dict]:
    """:func:`scrub_connection` on the thread store file when no assistant has it open."""
    if not path.exists():
        return []
    conn = sqlite3.connect(str(path), timeout=30)
    try:
        conn.execute("PRAGMA secure_delete=ON")
        return scrub_connection(conn, needles)
    finally:
        conn.close()
