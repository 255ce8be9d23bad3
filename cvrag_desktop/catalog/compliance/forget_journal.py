"""The forget journal: deleting people's rows and recording what forget still has to reach, in one transaction.

A mixin of :class:`~cvrag_desktop.catalog.db.Catalog`. The ``pending_forget`` row keeps the
library copies to remove and the strings whose chat threads and copies must go
(``catalog/compliance/forget_needles.py``); :mod:`cvrag_desktop.catalog.compliance.forget` does the
steps and drops the row when every one is done.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time

from cvrag_desktop.catalog.compliance.forget_needles import MIN_LINE, identity_of, needles_of
from cvrag_desktop.catalog.store.candidate_rows import delete_candidate_rows

CRASH_AT = "CVRAG_CRASH_AT"


def crash_point(name: str) -> None:
    """A named point of a forget where a test kills the process (``CVRAG_CRASH_AT=<name>``); nothing otherwise.

    The durability tests kill a ``cvrag people forget`` at each step this way (by condition, not by
    timing) and check that the next start leaves the person nowhere.
    """
    if os.environ.get(CRASH_AT) == name:
        os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))


class ForgetJournal:
    """Beginning, resuming and finishing journalled forgets."""

    def begin_forget(self, candidate_ids: list[str], file_ids: list[int] = ()) -> dict | None:
        """Delete candidates (and file rows) and journal what is left to do, in one transaction.

        The journal row keeps the library copies to remove and the strings (names, e-mails,
        phones, ids, quoted lines) whose chat threads must go; it is deleted once every step
        is done (see :mod:`cvrag_desktop.catalog.compliance.forget`). Returns the journal entry, or None
        when nothing matched.
        """
        with self.transaction() as c:
            stored: list[str] = []
            needles: list[str] = []
            found: list[str] = []
            identity: list[str] = []
            for cid in candidate_ids:
                row = c.execute("SELECT name, emails, phones, record FROM candidates WHERE candidate_id = ?",
                                (cid,)).fetchone()
                if row is None:
                    continue
                found.append(cid)
                chunks = c.execute("SELECT chunk_id, text FROM chunks WHERE candidate_id = ?", (cid,)).fetchall()
                f = c.execute("SELECT f.original_path, f.file_name FROM candidates ca JOIN files f "
                              "ON f.sha256 = ca.file_sha256 WHERE ca.candidate_id = ?", (cid,)).fetchone()
                needles += needles_of(cid, dict(row), [tuple(r) for r in chunks], tuple(f) if f else ())
                identity += identity_of(cid, dict(row))
                path = delete_candidate_rows(c, cid)
                if path:
                    stored.append(path)
            for fid in file_ids:
                row = c.execute("SELECT stored_path, candidate_id FROM files WHERE file_id = ?", (fid,)).fetchone()
                if row is None:
                    continue
                if row["stored_path"]:
                    stored.append(row["stored_path"])
                c.execute("DELETE FROM files WHERE file_id = ?", (fid,))
            if not found and not stored and not file_ids:
                return None
            needles = _unshared(c, needles)
            identity = sorted({n for n in identity if not c.execute(  # what others share (a namesake) stays
                "SELECT 1 FROM candidates WHERE lower(name) = lower(?1) OR instr(lower(emails), lower(?1)) "
                "OR instr(phones, ?1) LIMIT 1", (n,)).fetchone()})
            cur = c.execute("INSERT INTO pending_forget(candidate_ids, stored_paths, needles, created_at, identity) "
                            "VALUES (?,?,?,?,?)", (json.dumps(found), json.dumps(stored),
                                                   json.dumps(sorted(set(needles))), time.time(),
                                                   json.dumps(identity)))
            return {"forget_id": int(cur.lastrowid), "candidate_ids": found, "stored_paths": stored,
                    "needles": sorted(set(needles)), "identity": identity, "steps_done": []}

    def pending_forgets(self) -> list[dict]:
        """Forget operations that have not finished (resumed at start)."""
        rows = self.query("SELECT * FROM pending_forget ORDER BY forget_id")
        return [{"forget_id": r["forget_id"], "candidate_ids": json.loads(r["candidate_ids"]),
                 "stored_paths": json.loads(r["stored_paths"]), "needles": json.loads(r["needles"]),
                 "identity": json.loads(r["identity"] or "[]"), "steps_done": json.loads(r["steps_done"])}
                for r in rows]

    def forget_step_done(self, forget_id: int, steps: list[str]) -> None:
        """Record the finished steps of a journalled forget."""
        with self.transaction() as c:
            c.execute("UPDATE pending_forget SET steps_done = ? WHERE forget_id = ?", (json.dumps(steps), forget_id))

    def finish_forget(self, forget_id: int) -> None:
        """Drop the journal entry (the last trace of the forgotten strings) and flush the log."""
        with self.transaction() as c:
            c.execute("DELETE FROM pending_forget WHERE forget_id = ?", (forget_id,))
        self.wipe_free_space()


def _unshared(c: sqlite3.Connection, needles: list[str]) -> list[str]:
    """Drop quoted lines that other candidates' CVs contain too (a thread quoting those may be about them)."""
    lines = {n for n in needles if len(n) >= MIN_LINE and " " in n}
    if not lines:
        return needles
    shared: set[str] = set()
    for (text,) in c.execute("SELECT text FROM chunks"):  # the forgotten rows are already gone
        for ln in lines - shared:
            if ln in text:
                shared.add(ln)
    return [n for n in needles if n not in shared]
