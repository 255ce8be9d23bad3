"""Forgetting for real: one journalled operation over catalog, library, index, chat threads and backups.

:meth:`Catalog.begin_forget` deletes the rows and writes a ``pending_forget`` journal
row in the same transaction; :func:`run_forget` then does the other steps, each
idempotent and recorded when done, and drops the journal row last. The library step removes a Word copy's preview PDF
(``<data>/previews/<sha>.pdf``) with the copy. Library paths in the journal are relative to the data home
and only files inside this home's library are ever deleted (``catalog/store/home_paths.py``); copies a
repair set aside are scrubbed or removed too (``catalog/compliance/leftovers.py``). A crash or a step
that cannot run now (another process holds the search index) leaves the journal row,
and :func:`resume_forgets` finishes it at the next start. Chat threads that cite or
name a forgotten candidate are removed whole (the caller tells the user which).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path

from cvrag_desktop.catalog.compliance.forget_journal import crash_point
from cvrag_desktop.catalog.compliance.forget_needles import identity_bytes
from cvrag_desktop.catalog.compliance.leftovers import forget_in_leftovers, names_person, remove
from cvrag_desktop.catalog.library import preview_path
from cvrag_desktop.catalog.store.health import list_backups
from cvrag_desktop.catalog.store.home_paths import library_entry
from cvrag_desktop.errors import CvragError, IndexLocked

log = logging.getLogger(__name__)

STEPS = ("library", "threads", "backups", "leftovers", "index")
FAILED_STATUSES_EXCLUDED = ("done", "queued", "processing")


def scrub_catalog_copy(path: Path, candidate_ids: list[str], stored_paths: list[str]) -> None:
    """Delete the forgotten rows from a copy of the catalog (secure delete, VACUUM, no WAL left); raises on failure."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        conn.execute("PRAGMA secure_delete=ON")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("BEGIN")
        for cid in candidate_ids:
            conn.execute("DELETE FROM files WHERE sha256 = (SELECT file_sha256 FROM candidates "
                         "WHERE candidate_id = ?)", (cid,))
            for table in ("chunks", "provenance", "shortlist_items", "candidates"):
                conn.execute(f"DELETE FROM {table} WHERE candidate_id = ?", (cid,))
            with contextlib.suppress(sqlite3.OperationalError):  # (older copies: no such table)
                conn.execute("DELETE FROM person_links WHERE a = ? OR b = ?", (cid, cid))
        names = {Path(p.replace("\\", "/")).name for p in stored_paths}
        for file_id, stored in conn.execute("SELECT file_id, stored_path FROM files WHERE stored_path IS NOT NULL"
                                            ).fetchall():  # relative, or (older copies) absolute in any home
            if Path(stored.replace("\\", "/")).name in names:
                conn.execute("DELETE FROM files WHERE file_id = ?", (file_id,))
        conn.execute("DELETE FROM pending_forget")
        conn.execute("COMMIT")
        conn.execute("VACUUM")
        conn.execute("PRAGMA journal_mode=DELETE")  # checkpoint and drop the copy's -wal
    finally:
        conn.close()


def scrub_backups(catalog_path: Path, candidate_ids: list[str], stored_paths: list[str],
                  identity: list[bytes] = ()) -> int:
    """Delete the forgotten rows from every catalog backup too; returns backups changed.

    A backup that cannot be cleaned, or whose bytes still name the person afterwards, is removed.
    """
    changed = 0
    for b in list_backups(catalog_path):
        try:
            scrub_catalog_copy(b, candidate_ids, stored_paths)
            changed += 1
        except sqlite3.Error as exc:  # a backup that cannot be cleaned cannot be kept
            log.warning("backup %s could not be cleaned (%s): removing it", b, exc)
            remove(b)
            continue
        if identity and names_person(b, list(identity)):
            log.warning("backup %s still names a forgotten person after cleaning: removing it", b)
            remove(b)
    return changed


def run_forget(catalog, entry: dict, *, delete_from_index: Callable[[list[str]], None],
               scrub_threads: Callable[[list[str]], list[dict]],
               scrub_thread_copy: Callable[[Path, list[str]], object] | None = None) -> dict:
    """Do the remaining steps of one journalled forget; returns what was done and what is pending.

    ``scrub_thread_copy(path, needles)`` cleans a set-aside conversation store (the assistant's
    code: the catalog imports nothing above it); without it such a copy that names them is removed.
    """
    done = list(entry.get("steps_done") or [])
    report: dict = {"candidate_ids": entry["candidate_ids"], "files_removed": 0, "threads_removed": [],
                    "pending": []}
    for step in STEPS:
        if step in done:
            continue
        crash_point(f"forget:{step}")
        try:
            if step == "library":
                for p in entry["stored_paths"]:
                    path = library_entry(catalog.home, p)
                    if path is None:
                        report.setdefault("refused", []).append(p)
                    else:
                        if path.exists() or path.is_symlink():
                            path.unlink()
                            report["files_removed"] += 1
                        preview = preview_path(path)  # a Word copy's rendered preview goes with it
                        if preview.exists() or preview.is_symlink():
                            preview.unlink()
                            report["previews_removed"] = report.get("previews_removed", 0) + 1
            elif step == "threads":
                report["threads_removed"] = scrub_threads(entry["needles"])
            elif step == "backups":
                scrub_backups(catalog.path, entry["candidate_ids"], entry["stored_paths"], identity_bytes(entry))
            elif step == "leftovers":
                report["leftovers"] = forget_in_leftovers(
                    catalog.home, entry,
                    lambda p: scrub_catalog_copy(p, entry["candidate_ids"], entry["stored_paths"]),
                    (lambda p: scrub_thread_copy(p, entry["needles"])) if scrub_thread_copy else None)
            elif step == "index" and entry["candidate_ids"]:
                delete_from_index(entry["candidate_ids"])
        except IndexLocked as exc:
            report["pending"].append(step)
            report["pending_reason"] = (f"{exc.message} The index entries are removed when it is next opened "
                                        "(everything else is already forgotten).")
            continue
        except (CvragError, OSError, sqlite3.Error) as exc:
            log.warning("forget step %s failed: %s (resumed at next start)", step, exc)
            report["pending"].append(step)
            report["pending_reason"] = f"{step}: {exc}"
            continue
        done.append(step)
        crash_point(f"forget:{step}:done")
        catalog.forget_step_done(entry["forget_id"], done)
    if not report["pending"]:
        catalog.finish_forget(entry["forget_id"])
    return report


def resume_forgets(catalog, **steps) -> list[dict]:
    """Finish every journalled forget (at start, and before a new one)."""
    return [run_forget(catalog, e, **steps) for e in catalog.pending_forgets()]
