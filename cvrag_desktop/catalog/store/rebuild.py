"""Rebuilding the catalog from the library: resumable, and never shown as whole while partial.

``cvrag doctor --rebuild-catalog`` re-imports every library file into a new catalog. A
rebuild can be killed midway (200 files take minutes), and the partial catalog it leaves
must not pass for the library's contents, nor be set aside as one more copy of people's
data when the rebuild is run again. So:

- the new catalog is made under a temporary name with a ``rebuild`` marker in ``meta``
  (when it started, how many library files there are, which damaged file it replaces) and
  only then takes the catalog's name: a kill before that leaves "catalog missing", whose
  remedy is the same command;
- the marker stays until every library file was imported: :func:`rebuild_state` finds it
  (``cvrag doctor``, ``candidates list`` and ``people list`` warn with the counts);
- run again, a catalog with the marker is *continued* (content-addressed files already
  imported are skipped), never moved aside; a damaged catalog without the marker is moved
  aside once (``catalog.damaged-<time>.sqlite3``, see ``catalog/compliance/leftovers.py``), and a
  sound one rebuilt on purpose as ``catalog.previous-<time>.sqlite3`` (so nothing calls it damaged).
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.store.health import library_files

MARKER = "rebuild"
NEW_SUFFIX = ".rebuild-new"


def read_marker(db: Path) -> dict | None:
    """The ``rebuild`` marker of a catalog file (None: no rebuild in progress, or unreadable)."""
    if not db.exists() or db.stat().st_size == 0:
        return None
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (MARKER,)).fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    try:
        return json.loads(row[0]) if row else None
    except ValueError:
        return {}


def is_sound(db: Path) -> bool:
    """True when a catalog file opens and passes SQLite's quick check (a rebuild asked for, not needed)."""
    if not db.exists() or db.stat().st_size == 0:
        return False
    try:
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)  # a '#' or '?' in the path stays a path
        try:
            ok = conn.execute("PRAGMA quick_check").fetchone()
            tables = conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name IN ('files', 'meta')").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return bool(ok and ok[0] == "ok" and tables and tables[0] == 2)


def set_aside(db: Path) -> Path | None:
    """Move the catalog and its side files aside before a rebuild; the new name says what it was.

    A catalog that fails its check becomes ``catalog.damaged-<time>.sqlite3``; a sound one
    (the user asked for a rebuild anyway) ``catalog.previous-<time>.sqlite3``. Both are
    leftovers with a retention, reached by forget (``catalog/compliance/leftovers.py``).
    """
    if not db.exists():
        return None
    kind = "previous" if is_sound(db) else "damaged"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    moved = db.with_name(f"catalog.{kind}-{stamp}.sqlite3")
    n = 1
    while moved.exists():
        n += 1
        moved = db.with_name(f"catalog.{kind}-{stamp}-{n}.sqlite3")
    db.rename(moved)
    for suffix in ("-wal", "-shm"):
        side = db.with_name(db.name + suffix)
        if side.exists():
            side.rename(moved.with_name(moved.name + suffix))
    return moved


def was_damaged(aside: str | None) -> bool | None:
    """Whether a set-aside catalog (by its name) failed its check; None when nothing was set aside."""
    return None if not aside else not aside.startswith("catalog.previous-")


def create_marked(db: Path, file_count: int, aside: Path | None) -> None:
    """Create the new, empty catalog with its marker under a temporary name, then give it the catalog's name."""
    tmp = db.with_name(db.name + NEW_SUFFIX)
    for p in (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
        p.unlink(missing_ok=True)  # an earlier attempt killed before the rename
    cat = Catalog(tmp)
    try:
        marker = {"started_at": time.time(), "library_files": file_count, "aside": aside.name if aside else None}
        with cat.transaction() as c:
            c.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", (MARKER, json.dumps(marker)))
        cat.wipe_free_space()
    finally:
        cat.close()  # the last connection checkpoints and removes the -wal
    tmp.rename(db)


def clear_marker(catalog) -> None:
    """The rebuild finished: the catalog is whole again."""
    with catalog.transaction() as c:
        c.execute("DELETE FROM meta WHERE key = ?", (MARKER,))


def rebuild_state(catalog) -> dict | None:
    """An unfinished rebuild of this catalog: ``{"library_files", "imported", "started_at", "message"}``."""
    rows = catalog.query("SELECT value FROM meta WHERE key = ?", (MARKER,))
    if not rows:
        return None
    try:
        marker = json.loads(rows[0][0])
    except ValueError:
        marker = {}
    done = catalog.query("SELECT COUNT(*) FROM files WHERE status = 'done'")[0][0]
    failed = catalog.query("SELECT COUNT(*) FROM files WHERE status NOT IN ('done', 'queued', 'processing')")[0][0]
    total = marker.get("library_files")
    started = marker.get("started_at")
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(started)) if started else "?"
    return {"library_files": total, "imported": done, "failed": failed, "started_at": started,
            "message": (f"The catalog is INCOMPLETE: a rebuild started {when} was interrupted after "
                        f"{done + failed} of {total if total is not None else '?'} library files. Run "
                        "`cvrag doctor --rebuild-catalog` again to finish it (nothing is imported twice).")}


@dataclass
class RebuildStart:
    """A rebuild under way: the fresh (or continued) catalog, how many library files it must hold,
    whether an interrupted rebuild is being continued, and the damaged catalog's set-aside name."""

    catalog: Catalog
    library_files: int
    resumed: bool
    aside: str | None


def start_rebuild(db: Path, library: Path) -> RebuildStart:
    """Continue an interrupted rebuild, or set a damaged catalog aside (once) and start a marked new one.

    The caller has closed its catalog first; the returned catalog is open.
    """
    files = library_files(library)
    marker = read_marker(db)
    resumed = marker is not None
    moved = None
    if not resumed:
        moved = set_aside(db)
        create_marked(db, len(files), moved)
    aside = moved.name if moved else ((marker or {}).get("aside") if resumed else None)
    return RebuildStart(Catalog(db), len(files), resumed, aside)


def finish_rebuild(catalog: Catalog, library: Path, cancelled: bool) -> bool:
    """After the re-import: True (and the marker cleared) when every library file was imported or failed."""
    state = rebuild_state(catalog)
    finished = not cancelled and state is not None and \
        state["imported"] + state["failed"] >= len(library_files(library))
    if finished:
        clear_marker(catalog)
    return finished
