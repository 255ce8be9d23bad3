"""The audit trail: an append-only, hash-chained log of screening decisions and machine outputs shown.

Every status, rating, tag or note change, shortlist add or remove, job match run, export,
blind reveal, forget, purge and setting that changes ranking writes one entry: sequence
number, UTC time, actor (the OS account), action, the person's pseudonymous reference and
details made of ids and counts only — never CV text, never a note's text.

**Chain.** ``hash = sha256(previous hash + canonical JSON of the entry)``; :meth:`AuditLog.verify`
names the first broken link (``audit_chain.py``).

**Pseudonymous from the start.** The chain never holds a raw candidate id: an entry names
a document by a random reference (``P-`` + 20 hex digits) kept in ``audit_subjects``
(candidate id -> reference). Forgetting a person deletes their rows there (secure delete,
log truncated): the references left in past entries are then tokens nobody can tie back
to anyone, and the chain still verifies because no entry changes. (Chosen over replacing
ids inside entries, which would need re-hashing the chain after every forget.)

**Anchored outside.** Each append, once committed, writes the new head and the trail's id in the
catalog and the settings (``audit_anchor.py``): a cut-off tail, a forged entry, a chain rewritten
end to end or a deleted file no longer match them (a restored catalog backup: a note).

**Where.** ``<data>/audit.sqlite3``, its own file (not in the catalog backups). **Retention**:
entries past it (default 365 days, at least 183: the AI Act's six months) are pruned when the
log is opened, from a verified chain only, oldest first in sequence (:meth:`AuditLog.prune`). Qt-free.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import secrets
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cvrag_desktop.catalog.compliance import audit_anchor as anchoring
from cvrag_desktop.catalog.compliance.audit_chain import GENESIS, canonical, chain_break, link_hash
from cvrag_desktop.catalog.privacy.blind import current_user
from cvrag_desktop.catalog.store.disk_space import ensure_room
from cvrag_desktop.catalog.store.health import typed_store_error
from cvrag_desktop.catalog.store.read_only import add_note, connect_read_only
from cvrag_desktop.errors import InvalidInput, StoreReadOnly

log = logging.getLogger(__name__)
AUDIT_FILE = "audit.sqlite3"
DEFAULT_RETENTION_DAYS = 365
MIN_RETENTION_DAYS = 183  # EU AI Act Art. 26(6): automatically generated logs kept at least six months
PRUNE_SLACK = timedelta(days=1)  # pruned once the oldest entry is a day past the retention (not at every open)
SCHEMA = """
CREATE TABLE IF NOT EXISTS audit_log (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    person TEXT,
    details TEXT NOT NULL,
    prev TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_log_at ON audit_log(at);
CREATE INDEX IF NOT EXISTS audit_log_person ON audit_log(person);
CREATE TABLE IF NOT EXISTS audit_subjects (candidate_id TEXT PRIMARY KEY, ref TEXT UNIQUE NOT NULL);
CREATE TABLE IF NOT EXISTS audit_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


@dataclass
class AuditEntry:
    """One link of the chain (``details``: ids and counts only)."""

    seq: int
    at: str
    actor: str
    action: str
    person: str | None
    details: dict
    prev: str
    hash: str

    def as_dict(self) -> dict:
        """Plain fields (JSON, CSV rows)."""
        return asdict(self)


def now_iso(now: datetime | None = None) -> str:
    """UTC time as ISO 8601 with microseconds (sorts as text)."""
    return (now or datetime.now(UTC)).astimezone(UTC).isoformat(timespec="microseconds")


def digest(text: str) -> str:
    """A short SHA-256 of a text (a job description, a tag): lets one check what it was without storing it."""
    return hashlib.sha256((text or "").encode("utf-8")).hexdigest()[:16]


class AuditLog:
    """The audit store of one data home: append, read, verify, prune, forget references."""

    def __init__(self, path: Path, read_only: bool = False, anchors: list | None = None) -> None:
        self.path = path
        self.read_only = read_only
        self.anchors = list(anchors or [])  # where the head is kept outside the log (audit_anchor.py)
        self._lock = threading.RLock()
        try:
            if read_only and not path.exists():  # a read-only home without a trail: an empty one
                self._conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
                self._conn.executescript(SCHEMA)
            elif read_only:  # (no -shm may be made beside it: immutable, or an in-memory copy)
                self._conn = connect_read_only(path)
            else:
                self._conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30, isolation_level=None)
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA secure_delete=ON")  # a forgotten reference leaves no copy
                self._conn.executescript(SCHEMA)
                self._conn.execute("INSERT OR IGNORE INTO audit_meta(key, value) VALUES ('trail_id', ?)",
                                   (secrets.token_hex(8),))  # the id the anchors carry (audit_anchor.py)
        except sqlite3.Error as exc:
            raise typed_store_error(exc, path) or exc from exc

    def close(self) -> None:
        """Close the store."""
        with self._lock:
            self._conn.close()

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        if self.read_only:
            raise StoreReadOnly(f"{self.path.parent} is read-only: the audit trail cannot be written.")
        ensure_room(self.path.parent, "the last change was not saved")
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")  # another process appending waits: one chain
                try:
                    yield self._conn
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                raise typed_store_error(exc, self.path) or exc from exc

    def _meta(self, key: str, conn: sqlite3.Connection | None = None) -> str | None:
        row = (conn or self._conn).execute("SELECT value FROM audit_meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    # ---- references ----------------------------------------------------------------------
    def _ref(self, conn: sqlite3.Connection, candidate_id: str) -> str:
        row = conn.execute("SELECT ref FROM audit_subjects WHERE candidate_id = ?", (candidate_id,)).fetchone()
        if row:
            return row[0]
        ref = "P-" + secrets.token_hex(10)
        conn.execute("INSERT INTO audit_subjects(candidate_id, ref) VALUES (?, ?)", (candidate_id, ref))
        return ref

    def refs(self, candidate_ids: Iterable[str]) -> list[str]:
        """The references of documents (made on first use), in the given order."""
        ids = [str(c) for c in candidate_ids]
        if not ids:
            return []
        with self._write() as c:
            return [self._ref(c, cid) for cid in ids]

    def known_refs(self, candidate_ids: Iterable[str]) -> list[str]:
        """The references these documents already have (none made): what entries about them carry."""
        out = []
        with self._lock:
            for cid in candidate_ids:
                row = self._conn.execute("SELECT ref FROM audit_subjects WHERE candidate_id = ?", (cid,)).fetchone()
                if row:
                    out.append(row[0])
        return out

    def subjects(self, refs: Iterable[str]) -> dict[str, str]:
        """Reference -> document id for the references still tied to a document (a forgotten one is not)."""
        wanted = sorted({r for r in refs if r})
        if not wanted:
            return {}
        with self._lock:
            rows = self._conn.execute(f"SELECT ref, candidate_id FROM audit_subjects WHERE ref IN "
                                      f"({','.join('?' * len(wanted))})", wanted).fetchall()
        return {r[0]: r[1] for r in rows}

    def forget_subjects(self, candidate_ids: Iterable[str]) -> int:
        """Drop the documents' references: their past entries stay, tied to nobody. Returns how many went."""
        ids = list(candidate_ids)
        with self._write() as c:
            n = sum(c.execute("DELETE FROM audit_subjects WHERE candidate_id = ?", (cid,)).rowcount for cid in ids)
        with self._lock:
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # no copy of the deleted rows in the -wal
        return n

    # ---- appending -----------------------------------------------------------------------
    def record(self, action: str, subjects: Iterable[str] = (), details: Mapping | None = None, *,
               actor: str | None = None, at: datetime | None = None) -> AuditEntry:
        """Append one entry; ``subjects`` are document ids (the first is the person, others go in details)."""
        return self.record_many([(action, list(subjects), dict(details or {}))], actor=actor, at=at)[0]

    def record_shown(self, action: str, subjects: Iterable[str] = (), details: Mapping | None = None
                     ) -> AuditEntry | None:
        """Append an entry about data shown or exported (nothing in the home changed by it).

        On a read-only home the entry cannot be written: the output is still given, and the
        user is told it was not recorded (a note, ``catalog/store/read_only.py``); returns None then.
        """
        if self.read_only:
            what = {"chat.answer": "answer", "job_match.run": "job match"}.get(action, "export")
            add_note(f"the data folder {self.path.parent} is read-only: this {what} was not recorded in the "
                     "audit trail")
            return None
        return self.record(action, subjects, details)

    def record_many(self, items: Iterable[tuple[str, list[str], dict]], *, actor: str | None = None,
                    at: datetime | None = None) -> list[AuditEntry]:
        """Append several entries in one transaction (a bulk status change: one entry per person).

        ``details`` may hold ``"ranking"``/``"documents"`` as lists of document ids: they are
        stored as references.
        """
        with anchoring.held(self.anchors):
            with self._write() as c:
                movable = anchoring.before_append(self.anchors, c, self._meta)
                out = self._append(c, items, actor or current_user(), at)
            self._anchor(movable)  # after the COMMIT: a crash in between leaves them one append behind (a note)
        return out

    def _anchor(self, movable: list) -> None:
        """After the append's COMMIT: the anchors moved; the trail marked as anchored the first time."""
        with self._lock:
            first = anchoring.after_commit(movable, self._conn, self._meta)
        if first:
            with self._write() as c:
                c.execute("INSERT OR REPLACE INTO audit_meta(key, value) VALUES ('anchored', '1')")

    def _append(self, c: sqlite3.Connection, items: Iterable[tuple[str, list[str], dict]], who: str,
                at: datetime | None) -> list[AuditEntry]:
        out: list[AuditEntry] = []
        row = c.execute("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1").fetchone()
        seq, prev = (row[0], row[1]) if row else (int(self._meta("anchor_seq", c) or 0),
                                                  self._meta("anchor_hash", c) or GENESIS)
        for action, subjects, details in items:
            details = dict(details)
            for key in ("ranking", "documents"):
                if key in details:
                    details[key] = [self._ref(c, str(d)) for d in details[key]]
            person = self._ref(c, str(subjects[0])) if subjects else None
            if len(subjects) > 1:
                details["documents"] = [self._ref(c, str(d)) for d in subjects[1:]]
            seq += 1
            when = now_iso(at)
            body = canonical(seq, when, who, action, person, details)
            h = link_hash(prev, body)
            c.execute("INSERT INTO audit_log(seq, at, actor, action, person, details, prev, hash) "
                      "VALUES (?,?,?,?,?,?,?,?)",
                      (seq, when, who, action, person, json.dumps(details, sort_keys=True, ensure_ascii=False),
                       prev, h))
            out.append(AuditEntry(seq, when, who, action, person, details, prev, h))
            prev = h
        c.execute("INSERT OR REPLACE INTO audit_meta(key, value) VALUES ('head', ?)", (f"{seq}:{prev}",))
        return out

    # ---- reading -------------------------------------------------------------------------
    def entries(self, since: str | None = None, action: str | None = None,
                refs: Iterable[str] | None = None) -> list[AuditEntry]:
        """Entries, oldest first; ``since`` an ISO date/time, ``action`` an exact name or a ``prefix.``,
        ``refs`` the references of one person's documents (as the person or in the details)."""
        sql, params = "SELECT * FROM audit_log WHERE 1=1", []
        if since:
            sql, params = sql + " AND at >= ?", [*params, since]
        if action:
            if action.endswith("."):
                sql, params = sql + " AND action LIKE ?", [*params, action + "%"]
            else:
                sql, params = sql + " AND action = ?", [*params, action]
        if refs is not None:
            wanted = sorted(set(refs))
            if not wanted:
                return []
            marks = ",".join("?" * len(wanted))
            sql += f" AND (person IN ({marks})" + "".join(" OR instr(details, ?) > 0" for _ in wanted) + ")"
            params = [*params, *wanted, *wanted]
        with self._lock:
            rows = self._conn.execute(sql + " ORDER BY seq", params).fetchall()
        return [AuditEntry(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7]) for r in rows]

    def verify(self) -> dict:
        """Check the whole chain and its anchors: ``{"ok", "entries", "first_broken": {seq, reason} | None}``.

        Holds the trail's write lock while it reads (no other process between its entries and its anchors)."""
        with self.held():
            if self.read_only:
                return self._verify(self._conn)
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise typed_store_error(exc, self.path) or exc from exc
            try:
                return self._verify(self._conn)
            finally:
                self._conn.execute("ROLLBACK")

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """No append of this process while inside (saving the settings file, which holds an anchor)."""
        with anchoring.held(self.anchors), self._lock:
            yield

    def _verify(self, conn: sqlite3.Connection) -> dict:
        rows = conn.execute("SELECT * FROM audit_log ORDER BY seq").fetchall()
        anchor_seq = int(self._meta("anchor_seq", conn) or 0)
        anchor_hash = self._meta("anchor_hash", conn) or GENESIS
        head = self._meta("head", conn)
        problem, reached = chain_break(rows, anchor_seq, anchor_hash, head)
        notes: list[str] = []  # (not breaks: the anchors are moved at the next append)
        if problem is None:
            found = anchoring.assess(self.anchors, reached, anchoring.trail_state(conn, self._meta))
            problem, notes = found.problem, found.notes
        if problem:
            return {"ok": False, "entries": len(rows), "first_broken": {"seq": problem[0], "reason": problem[1]}}
        return {"ok": True, "entries": len(rows), "first_broken": None} | ({"notes": notes} if notes else {})

    # ---- retention -----------------------------------------------------------------------
    def retention_days(self) -> int:
        """How long entries are kept (days)."""
        return int(self._meta("retention_days") or DEFAULT_RETENTION_DAYS)

    def set_retention_days(self, days: int) -> int:
        """Keep entries this many days (at least :data:`MIN_RETENTION_DAYS`); recorded in the trail itself."""
        if int(days) < MIN_RETENTION_DAYS:
            raise InvalidInput(f"The audit trail is kept at least {MIN_RETENTION_DAYS} days (six months: "
                               "EU AI Act Art. 26(6)); give more days.")
        old = self.retention_days()
        with self._write() as c:
            c.execute("INSERT OR REPLACE INTO audit_meta(key, value) VALUES ('retention_days', ?)", (str(int(days)),))
        self.record("audit.retention", details={"days": int(days), "before": old})
        return int(days)

    def prune(self, now: datetime | None = None) -> int:
        """Remove the oldest entries past the retention, from a verified chain only; returns the count.

        Entries go in sequence, up to the first one not older than the retention (a backdated
        entry further on takes nothing with it); the chain is verified first, in the same
        transaction (a changed time fails its hash: nothing is pruned, the break stays visible).
        The prune is an entry of its own: how many, up to which sequence and hash."""
        cutoff_at = (now or datetime.now(UTC)) - timedelta(days=self.retention_days())
        cutoff = now_iso(cutoff_at)
        with self._lock:
            first = self._conn.execute("SELECT at FROM audit_log ORDER BY seq LIMIT 1").fetchone()
        if first is None or first[0] >= now_iso(cutoff_at - PRUNE_SLACK):
            return 0  # (the cheap test: no full check at every open)
        with anchoring.held(self.anchors):
            with self._write() as c:
                report = self._verify(c)
                if not report["ok"]:
                    log.warning("audit trail not pruned: it does not verify (%s)", report["first_broken"])
                    return 0
                last = None
                for seq, at, h in c.execute("SELECT seq, at, hash FROM audit_log ORDER BY seq").fetchall():
                    if at >= cutoff:
                        break
                    last = (seq, h)
                if last is None:
                    return 0
                movable = anchoring.before_append(self.anchors, c, self._meta)
                n = c.execute("DELETE FROM audit_log WHERE seq <= ?", (last[0],)).rowcount
                c.executemany("INSERT OR REPLACE INTO audit_meta(key, value) VALUES (?, ?)",
                              [("anchor_seq", str(last[0])), ("anchor_hash", last[1])])
                self._append(c, [("audit.prune", [], {"removed": n, "up_to_seq": last[0], "up_to_hash": last[1],
                                                      "older_than": cutoff})], current_user(), None)
            self._anchor(movable)
        return n


_OPEN_LOCK = threading.Lock()


def audit_for(catalog, settings_file: Path | None = None) -> AuditLog:
    """The audit log beside a catalog (``<data>/audit.sqlite3``), opened once per catalog object and anchored
    in it and in the settings (:func:`anchors_for`); a verified chain is pruned when opened."""
    with _OPEN_LOCK:
        audit = getattr(catalog, "_audit_log", None)
        if audit is None:
            audit = AuditLog(Path(catalog.home) / AUDIT_FILE, read_only=bool(getattr(catalog, "read_only", False)),
                             anchors=anchoring.anchors_for(catalog, settings_file))
            catalog._audit_log = audit
            if not audit.read_only:
                audit.prune()
        return audit


def close_audit(catalog) -> None:
    """Close the audit log opened for a catalog (with the catalog)."""
    with _OPEN_LOCK:
        log = getattr(catalog, "_audit_log", None)
        if log is not None:
            log.close()
            catalog._audit_log = None
