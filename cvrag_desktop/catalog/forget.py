"""Forgetting for real: one journalled operation over catalog, library, index, chat threads and backups.

:meth:`Catalog.begin_forget` deletes the rows and writes a ``pending_forget`` journal
row in the same transaction; :func:`run_forget` then does the other steps, each
idempotent and recorded when done, and drops the journal row last. A crash or a step
that cannot run now (another process holds the search index) leaves the journal row,
and :func:`resume_forgets` finishes it at the next start. Chat threads that cite or
name a forgotten candidate are removed whole (the caller tells the user which).
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path

from cvrag_desktop.catalog.health import list_backups
from cvrag_desktop.errors import CvragError, IndexLocked

log = logging.getLogger(__name__)

STEPS = ("library", "threads", "backups", "index")
MIN_LINE = 24  # characters: a CV line this long quoted in a chat answer is a quote, not a common phrase
MAX_LINES = 400
FAILED_STATUSES_EXCLUDED = ("done", "queued", "processing")


def needles_of(candidate_id: str, row: dict, chunks: list[tuple[str, str]], file: tuple) -> list[str]:
    """Strings whose presence in a chat thread means it cites or names the candidate."""
    out = [candidate_id]
    name = (row.get("name") or "").strip()
    if len(name) >= 4:
        out.append(name)
    for key in ("emails", "phones"):
        with contextlib.suppress(ValueError):
            out += [v for v in json.loads(row.get(key) or "[]") if isinstance(v, str) and len(v) >= 5]
    lines: list[str] = []
    for chunk_id, text in chunks:
        out.append(chunk_id)
        lines += [ln.strip() for ln in (text or "").splitlines() if len(ln.strip()) >= MIN_LINE]
    out += lines[:MAX_LINES]
    out += [str(v) for v in file if v]
    return out


def _needle_bytes(needles: list[str]) -> list[bytes]:
    forms: set[bytes] = set()
    for n in needles:
        n = n.lower()
        forms.add(n.encode("utf-8"))
        forms.add(json.dumps(n)[1:-1].encode("ascii"))  # JSON with \\u escapes
    return [f for f in forms if len(f) >= 4]


def blob_mentions(blob: bytes | str | None, needles: list[bytes]) -> bool:
    """True when any needle occurs in the (lower-cased) blob."""
    if blob is None:
        return False
    data = blob.encode("utf-8") if isinstance(blob, str) else bytes(blob)
    data = data.lower()
    return any(n in data for n in needles)


def scrub_backups(catalog_path: Path, candidate_ids: list[str], stored_paths: list[str]) -> int:
    """Delete the forgotten rows from every catalog backup too (secure delete + vacuum); returns backups changed."""
    changed = 0
    for b in list_backups(catalog_path):
        try:
            conn = sqlite3.connect(str(b), isolation_level=None)
            try:
                conn.execute("PRAGMA secure_delete=ON")
                conn.execute("PRAGMA foreign_keys=ON")
                conn.execute("BEGIN")
                for cid in candidate_ids:
                    conn.execute("DELETE FROM files WHERE sha256 = (SELECT file_sha256 FROM candidates "
                                 "WHERE candidate_id = ?)", (cid,))
                    for table in ("chunks", "provenance", "shortlist_items", "candidates"):
                        conn.execute(f"DELETE FROM {table} WHERE candidate_id = ?", (cid,))
                    conn.execute("DELETE FROM person_links WHERE a = ? OR b = ?", (cid, cid))
                for p in stored_paths:
                    conn.execute("DELETE FROM files WHERE stored_path = ?", (p,))
                conn.execute("DELETE FROM pending_forget")
                conn.execute("COMMIT")
                conn.execute("VACUUM")
                changed += 1
            finally:
                conn.close()
        except sqlite3.Error as exc:  # a backup that cannot be cleaned cannot be kept
            log.warning("backup %s could not be cleaned (%s): removing it", b, exc)
            b.unlink(missing_ok=True)
    return changed


def run_forget(catalog, entry: dict, *, delete_from_index: Callable[[list[str]], None],
               scrub_threads: Callable[[list[str]], list[dict]]) -> dict:
    """Do the remaining steps of one journalled forget; returns what was done and what is pending."""
    done = list(entry.get("steps_done") or [])
    report: dict = {"candidate_ids": entry["candidate_ids"], "files_removed": 0, "threads_removed": [],
                    "pending": []}
    for step in STEPS:
        if step in done:
            continue
        try:
            if step == "library":
                for p in entry["stored_paths"]:
                    path = Path(p)
                    if path.exists():
                        path.unlink()
                        report["files_removed"] += 1
            elif step == "threads":
                report["threads_removed"] = scrub_threads(entry["needles"])
            elif step == "backups":
                scrub_backups(catalog.path, entry["candidate_ids"], entry["stored_paths"])
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
        catalog.forget_step_done(entry["forget_id"], done)
    if not report["pending"]:
        catalog.finish_forget(entry["forget_id"])
    return report


def resume_forgets(catalog, **steps) -> list[dict]:
    """Finish every journalled forget (at start, and before a new one)."""
    return [run_forget(catalog, e, **steps) for e in catalog.pending_forgets()]
