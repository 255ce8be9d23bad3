"""Paths inside the data home are stored relative to it (``library/<sha256>.pdf``).

The catalog used to keep absolute library paths, so a moved data folder pointed at
files that no longer existed (forget said "deleted" while the copy stayed), and a
copied folder pointed at the *original* home's files (forget deleted another
library's CV). Now the catalog stores a path relative to its own folder (the data
home: the folder holding ``catalog.sqlite3``), resolves it against wherever that
folder is today, and :func:`library_entry` refuses to hand out a file outside the
home's library for deletion.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from pathlib import Path, PurePosixPath, PureWindowsPath

log = logging.getLogger(__name__)

LIBRARY = "library"


def to_stored(home: Path, path: str | os.PathLike | None) -> str | None:
    """The form a path is stored in: relative (POSIX separators) when inside ``home``, else as given."""
    if path is None or str(path) == "":
        return None if path is None else ""
    p = Path(path)
    if not p.is_absolute():
        return PurePosixPath(*Path(path).parts).as_posix()
    for base in _bases(home):
        try:
            return p.relative_to(base).as_posix()
        except ValueError:
            continue
    return str(p)


def _bases(home: Path) -> list[Path]:
    """The home as given and as resolved (a symlinked home is one home)."""
    out = [home]
    try:
        real = home.resolve()
        if real != home:
            out.append(real)
    except OSError:
        pass
    return out


def resolve_stored(home: Path, stored: str | None) -> str | None:
    """The absolute path today of a stored path (relative ones are resolved against ``home``)."""
    if not stored:
        return stored
    p = Path(stored)
    return str(p if p.is_absolute() else home / p)


def relocated(home: Path, stored: str) -> str:
    """An old absolute path mapped into this home: ``…/library/<name>`` becomes ``library/<name>``.

    Library copies are content-addressed, so a row written in the home's previous
    location (moved) or in the home it was copied from names this home's own copy.
    Anything else keeps its absolute path (and forget will not touch it).
    """
    rel = to_stored(home, stored)
    if rel is None:
        return stored
    if not (PurePosixPath(rel).is_absolute() or PureWindowsPath(rel).is_absolute()):
        return rel
    parts = PureWindowsPath(stored).parts if "\\" in stored else PurePosixPath(stored).parts
    if len(parts) >= 2 and parts[-2] == LIBRARY:
        return f"{LIBRARY}/{parts[-1]}"
    return stored


def library_entry(home: Path, stored: str) -> Path | None:
    """The library file a stored path names, or None when it lies outside this home's library.

    The check is on the entry's folder (resolved), not on a link's target: unlinking a
    link inside the library removes only the link.
    """
    path = Path(resolve_stored(home, stored) or "")
    try:
        inside = path.parent.resolve() == (home / LIBRARY).resolve()
    except OSError:
        inside = False
    if not inside or path.name in ("", ".", ".."):
        log.warning("refusing to delete %s: it is not in this data folder's library (%s)", path, home / LIBRARY)
        return None
    return path


def migrate_stored_paths(conn: sqlite3.Connection, home: Path) -> int:
    """Schema 7: every stored library path (files rows and forget journal) made relative to ``home``."""
    changed = 0
    rows = conn.execute("SELECT file_id, stored_path FROM files WHERE stored_path IS NOT NULL").fetchall()
    for file_id, stored in rows:
        new = relocated(home, stored)
        if new != stored:
            conn.execute("UPDATE files SET stored_path = ? WHERE file_id = ?", (new, file_id))
            changed += 1
    for forget_id, paths in conn.execute("SELECT forget_id, stored_paths FROM pending_forget").fetchall():
        try:
            old = json.loads(paths)
        except ValueError:
            continue
        new = [relocated(home, p) for p in old]
        if new != old:
            conn.execute("UPDATE pending_forget SET stored_paths = ? WHERE forget_id = ?",
                         (json.dumps(new), forget_id))
            changed += 1
    return changed
