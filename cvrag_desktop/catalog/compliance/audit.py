"""The audit trail: an append-only, hash-chained log of screening decisions and machine outputs shown.

Every status, rating, tag or note change, shortlist add or remove, job match run, export,
blind reveal, forget, purge and setting that changes ranking writes one entry: sequence
number, UTC time, actor (the OS account), action, the person's pseudonymous reference and
details made of ids and counts only — never CV text, never a note's text.

**Chain.** ``hash = sha256(previous hash + canonical JSON of the entry)`` (keys sorted, no
spaces, UTF-8). :meth:`AuditLog.verify` recomputes it and names the first broken link: a
changed entry fails its hash, a deleted or reordered one breaks ``prev`` or the sequence,
a cut-off tail no longer reaches the head recorded in ``audit_meta``.

**Pseudonymous from the start.** The chain never holds a raw candidate id: an entry names
a document by a random reference (``P-`` + 20 hex digits) kept in ``audit_subjects``
(candidate id -> reference). Forgetting a person deletes their rows there (secure delete,
log truncated): the references left in past entries are then tokens nobody can tie back
to anyone, and the chain still verifies because no entry changes. (Chosen over replacing
ids inside entries, which would need re-hashing the chain after every forget.)

**Where.** ``<data>/audit.sqlite3``, its own file: it survives a catalog rebuild and is not
part of the catalog backups. **Retention**: entries older than the log's retention
(default 365 days, at least 183 — the AI Act's six months) are pruned when the log is
opened; the last pruned hash becomes the chain's anchor. Qt-free.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import secrets
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cvrag_desktop.catalog.privacy.blind import current_user
from cvrag_desktop.catalog.store.disk_space import ensure_room
from cvrag_desktop.catalog.store.health import typed_store_error
from cvrag_desktop.catalog.store.read_only import add_note, connect_read_only
from cvrag_desktop.errors import InvalidInput, StoreReadOnly

AUDIT_FILE = "audit.sqlite3"
GENESIS = "0" * 64
DEFAULT_RETENTION_DAYS = 365
MIN_RETENTION_DAYS = 183  # EU AI Act Art. 26(6): automatically generated logs kept at least six months
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


def canonical(seq: int, at: str, actor: str, action: str, person: str | None, details: Mapping) -> str:
    """The entry's canonical JSON: the bytes its hash covers."""
    body = {"seq": seq, "at": at, "actor": actor, "action": action, "person": person, "details": details}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def link_hash(prev: str, body: str) -> str:
    """``sha256(previous hash + canonical JSON)`` as hex."""
    return hashlib.sha256((prev + body).encode("utf-8")).hexdigest()


def now_iso(now: datetime | None = None) -> str:
    """UTC time as ISO 8601 with microseconds (sorts as text)."""
    return (now or datetime.now(UTC)).astimezone(UTC).isoformat(timespec="microseconds")


def digest(text: str) -> str:
    """A short SHA-256 of a text (a job description, a tag): lets one check what it was without storing it."""
    return hashlib.sha256((text or "").encode("utf-8")).hexdigest()[:16]


class AuditLog:
    """The audit store of one data home: append, read, verify, prune, forget references."""

    def __init__(self, path: Path, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
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
        who = actor or current_user()
        out: list[AuditEntry] = []
        with self._write() as c:
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
        """Check the whole chain: ``{"ok", "entries", "first_broken": {seq, reason} | None}``."""
        with self._lock:
            rows = self._conn.execute("SELECT * FROM audit_log ORDER BY seq").fetchall()
            anchor_seq = int(self._meta("anchor_seq") or 0)
            prev = self._meta("anchor_hash") or GENESIS
            head = self._meta("head")
        expected = anchor_seq + 1

        def broken(seq: int, reason: str) -> dict:
            return {"ok": False, "entries": len(rows), "first_broken": {"seq": seq, "reason": reason}}

        for r in rows:
            seq, at, actor, action, person, details, stored_prev, stored_hash = tuple(r)
            if seq != expected:
                return broken(expected, f"entry {expected} is missing (next found: {seq})")
            if stored_prev != prev:
                return broken(seq, "does not follow the entry before it (deleted, inserted or reordered)")
            try:
                body = canonical(seq, at, actor, action, person, json.loads(details))
            except ValueError:
                return broken(seq, "its details are not valid JSON (changed)")
            if link_hash(prev, body) != stored_hash:
                return broken(seq, "its content does not match its hash (changed)")
            prev, expected = stored_hash, seq + 1
        if head is not None and head != f"{expected - 1}:{prev}":
            head_seq = int(head.split(":")[0])
            return broken(expected if head_seq >= expected else head_seq,
                          f"the chain ends at entry {expected - 1} but entry {head_seq} was written (cut off)")
        return {"ok": True, "entries": len(rows), "first_broken": None}

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
        """Remove entries older than the retention; the last removed hash anchors the chain. Returns the count."""
        cutoff = now_iso((now or datetime.now(UTC)) - timedelta(days=self.retention_days()))
        with self._write() as c:
            last = c.execute("SELECT seq, hash FROM audit_log WHERE at < ? ORDER BY seq DESC LIMIT 1",
                             (cutoff,)).fetchone()
            if last is None:
                return 0
            n = c.execute("DELETE FROM audit_log WHERE seq <= ?", (last[0],)).rowcount
            c.executemany("INSERT OR REPLACE INTO audit_meta(key, value) VALUES (?, ?)",
                          [("anchor_seq", str(last[0])), ("anchor_hash", last[1])])
        self.record("audit.prune", details={"removed": n, "older_than": cutoff})
        return n


_OPEN_LOCK = threading.Lock()


def audit_for(catalog) -> AuditLog:
    """The audit log beside a catalog (``<data>/audit.sqlite3``), opened once per catalog object."""
    with _OPEN_LOCK:
        log = getattr(catalog, "_audit_log", None)
        if log is None:
            log = AuditLog(Path(catalog.home) / AUDIT_FILE, read_only=bool(getattr(catalog, "read_only", False)))
            catalog._audit_log = log
            if not log.read_only:
                log.prune()
        return log


def close_audit(catalog) -> None:
    """Close the audit log opened for a catalog (with the catalog)."""
    with _OPEN_LOCK:
        log = getattr(catalog, "_audit_log", None)
        if log is not None:
            log.close()
            catalog._audit_log = None
