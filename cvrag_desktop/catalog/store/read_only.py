"""A data home that cannot be written: read its stores without touching a byte of it.

A folder whose permissions (or mount) forbid writing still lists, shows, searches,
answers questions and exports to a file elsewhere; anything that would change the home
says so with :class:`~cvrag_desktop.errors.StoreReadOnly`. SQLite needs to create a
``-shm`` file beside a database in WAL mode even to read it, so a read-only store is
opened ``immutable`` when its write-ahead log is empty, and through a private in-memory
copy (the file and its log recovered in a temporary folder) when the log still holds
changes. What a read-only session could not save (a conversation turn, an audit entry
about an export) is told to the user as a note (:func:`add_note`, :func:`take_notes`).
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import threading
from pathlib import Path
from urllib.parse import quote

from cvrag_desktop.errors import StoreReadOnly

_notes: list[str] = []
_notes_lock = threading.Lock()


def add_note(message: str) -> None:
    """Remember something this read-only session could not save (said once, on stderr, by the CLI)."""
    with _notes_lock:
        if message not in _notes:
            _notes.append(message)


def take_notes() -> list[str]:
    """The notes added so far (and forget them)."""
    with _notes_lock:
        out = list(_notes)
        _notes.clear()
        return out


def refuse(folder: Path, what: str) -> StoreReadOnly:
    """The typed error for a change a read-only data folder cannot take."""
    return StoreReadOnly(f"The data folder {folder} is read-only: {what} (listing, viewing, searching and "
                         "exporting elsewhere still work). Check its permissions, then try again.")


def _wal_pending(path: Path) -> bool:
    wal = path.with_name(path.name + "-wal")
    try:
        return wal.stat().st_size > 0
    except OSError:
        return False


def memory_copy(path: Path) -> sqlite3.Connection:
    """A writable in-memory copy of a database file (with its write-ahead log applied); nothing is written beside it.

    A missing file gives an empty database.
    """
    mem = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    if not path.exists():
        return mem
    tmp = Path(tempfile.mkdtemp(prefix="cvrag-ro-"))
    try:
        copy = tmp / path.name
        shutil.copyfile(path, copy)
        if _wal_pending(path):
            shutil.copyfile(path.with_name(path.name + "-wal"), tmp / (path.name + "-wal"))
        src = sqlite3.connect(str(copy))
        try:
            src.backup(mem)
        finally:
            src.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return mem


def connect_read_only(path: Path) -> sqlite3.Connection:
    """Read ``path`` without creating ``-wal``/``-shm`` files beside it (immutable, or an in-memory copy)."""
    if _wal_pending(path):  # an unclean close left changes in the log: immutable would not see them
        return memory_copy(path)
    uri = f"file:{quote(str(path))}?mode=ro&immutable=1"
    return sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
