"""The SQLite catalog: files, candidates, chunks, provenance, shortlists.

It is the source of truth (the search index is derived from it). One connection is
shared behind a lock; WAL mode lets readers proceed while the ingestion lane writes.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from cvrag_desktop.catalog.home_paths import resolve_stored, to_stored
from cvrag_desktop.domain import CONFIDENCE_FIELDS, LOW_CONFIDENCE, Chunk, NormalizedCV, confidence_map

SCHEMA_VERSION = 8
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files (
    file_id INTEGER PRIMARY KEY,
    sha256 TEXT UNIQUE,
    original_path TEXT NOT NULL,
    stored_path TEXT,
    file_name TEXT NOT NULL,
    size_bytes INTEGER,
    status TEXT NOT NULL,
    error TEXT,
    pages INTEGER,
    method TEXT,
    candidate_id TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    started_at REAL,
    finished_at REAL,
    seconds REAL
);
CREATE INDEX IF NOT EXISTS files_status ON files(status);
CREATE TABLE IF NOT EXISTS candidates (
    candidate_id TEXT PRIMARY KEY,
    file_sha256 TEXT NOT NULL,
    name TEXT,
    emails TEXT NOT NULL,
    phones TEXT NOT NULL,
    current_title TEXT,
    current_company TEXT,
    years_of_experience REAL,
    skills TEXT NOT NULL,
    degrees TEXT NOT NULL,
    institutions TEXT NOT NULL,
    companies TEXT NOT NULL,
    languages TEXT NOT NULL,
    location TEXT,
    record TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS chunks (
    chunk_id TEXT PRIMARY KEY,
    candidate_id TEXT NOT NULL REFERENCES candidates(candidate_id) ON DELETE CASCADE,
    section TEXT NOT NULL,
    ordinal INTEGER NOT NULL,
    text TEXT NOT NULL,
    header TEXT NOT NULL,
    page INTEGER,
    bbox TEXT,
    parent_id TEXT
);
CREATE INDEX IF NOT EXISTS chunks_candidate ON chunks(candidate_id);
-- search hydration reads a child chunk's parent section by parent_id (a full scan at 80k chunks: ~40 ms)
CREATE INDEX IF NOT EXISTS chunks_parent ON chunks(parent_id);
-- the assistant's change marker (COUNT, MAX(created_at)) reads this index, not every record
CREATE INDEX IF NOT EXISTS candidates_created ON candidates(created_at);
CREATE TABLE IF NOT EXISTS provenance (
    candidate_id TEXT NOT NULL REFERENCES candidates(candidate_id) ON DELETE CASCADE,
    field TEXT NOT NULL,
    value TEXT NOT NULL,
    page INTEGER,
    bbox TEXT,
    char_start INTEGER,
    char_end INTEGER
);
CREATE INDEX IF NOT EXISTS provenance_candidate ON provenance(candidate_id);
CREATE TABLE IF NOT EXISTS shortlists (
    shortlist_id INTEGER PRIMARY KEY,
    name TEXT UNIQUE NOT NULL,
    created_at REAL NOT NULL
);
-- forget journal: a forget that did not finish is resumed at next start (rows gone when done)
CREATE TABLE IF NOT EXISTS pending_forget (
    forget_id INTEGER PRIMARY KEY,
    candidate_ids TEXT NOT NULL,
    stored_paths TEXT NOT NULL,
    needles TEXT NOT NULL,
    steps_done TEXT NOT NULL DEFAULT '[]',
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS shortlist_items (
    shortlist_id INTEGER NOT NULL REFERENCES shortlists(shortlist_id) ON DELETE CASCADE,
    candidate_id TEXT NOT NULL REFERENCES candidates(candidate_id) ON DELETE CASCADE,
    note TEXT NOT NULL DEFAULT '',
    added_at REAL NOT NULL,
    PRIMARY KEY (shortlist_id, candidate_id)
);
"""
# The recruiter's "same person" / "not the same" decisions, one row per pair (a < b). No
# foreign key on purpose: re-importing a file replaces its candidate row (delete + insert),
# and a cascade would silently drop the decision; ``delete_candidate`` removes a
# document's links explicitly instead, and grouping ignores links to unknown ids.
PERSON_LINKS = """
CREATE TABLE IF NOT EXISTS person_links (
    a TEXT NOT NULL,
    b TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('same', 'apart')),
    created_at REAL NOT NULL,
    PRIMARY KEY (a, b)
);
CREATE INDEX IF NOT EXISTS person_links_b ON person_links(b);
"""
# What grouping people reads of a record, kept beside it so listing 10,000 people parses
# small JSON, not every record: the CV's own date, the number of education entries and
# each role as [title, company, start, end, is_current].
GROUPING_FROM_RECORD = (
    "json_object('cv_date', json_extract(record, '$.cv_date'), "
    "'n_education', json_array_length(record, '$.education'), "
    "'roles', json((SELECT json_group_array(json_array(json_extract(e.value, '$.title'), "
    "json_extract(e.value, '$.company'), json_extract(e.value, '$.start'), json_extract(e.value, '$.end'), "
    "json_extract(e.value, '$.is_current'))) FROM json_each(record, '$.experiences') e)))"
)


def _migrate_to_2(conn: sqlite3.Connection) -> None:
    """Round 2: the recruiter's person links, and the grouping fields of every stored record."""
    conn.executescript(PERSON_LINKS)
    if "grouping" not in {r[1] for r in conn.execute("PRAGMA table_info(candidates)")}:
        conn.execute("ALTER TABLE candidates ADD COLUMN grouping TEXT")
    conn.execute(f"UPDATE candidates SET grouping = {GROUPING_FROM_RECORD} WHERE grouping IS NULL")


def _migrate_to_3(conn: sqlite3.Connection) -> None:
    """Round 3: the recruiter's screening state per person and saved searches (``catalog/screening.py``)."""
    from cvrag_desktop.catalog.screening import SCREENING_SCHEMA

    conn.executescript(SCREENING_SCHEMA)


def _migrate_to_4(conn: sqlite3.Connection) -> None:
    """Round 4: the blind-screening reveal log (``catalog/blind.py``)."""
    from cvrag_desktop.catalog.blind import BLIND_SCHEMA

    conn.executescript(BLIND_SCHEMA)


def _migrate_to_5(conn: sqlite3.Connection) -> None:
    """Round 5: saved job matches (``catalog/job_matches.py``)."""
    from cvrag_desktop.catalog.job_matches import JOB_MATCH_SCHEMA

    conn.executescript(JOB_MATCH_SCHEMA)


def _migrate_to_6(conn: sqlite3.Connection) -> None:
    """Round 6: a value's confidence and reason in the provenance table, and the candidate table's
    marked fields (name, current title and company) beside each record (old rows: NULL, no marks)."""
    have = {r[1] for r in conn.execute("PRAGMA table_info(provenance)")}
    for col, kind in (("confidence", "REAL"), ("reason", "TEXT")):
        if col not in have:
            conn.execute(f"ALTER TABLE provenance ADD COLUMN {col} {kind}")
    if "confidence" not in {r[1] for r in conn.execute("PRAGMA table_info(candidates)")}:
        conn.execute("ALTER TABLE candidates ADD COLUMN confidence TEXT")


def _migrate_to_7(conn: sqlite3.Connection, home: Path) -> None:
    """Round 7: library paths relative to the data home (a moved or copied home forgets its own files,
    ``catalog/home_paths.py``), and the forget journal's identity strings (``catalog/leftovers.py``)."""
    from cvrag_desktop.catalog.home_paths import migrate_stored_paths

    if "identity" not in {r[1] for r in conn.execute("PRAGMA table_info(pending_forget)")}:
        conn.execute("ALTER TABLE pending_forget ADD COLUMN identity TEXT")
    migrate_stored_paths(conn, home)


def _migrate_to_8(conn: sqlite3.Connection, home: Path) -> None:
    """Round 8: a person's consent to be kept until a date (``catalog/retention.py``)."""
    from cvrag_desktop.catalog.retention import RETENTION_SCHEMA

    conn.executescript(RETENTION_SCHEMA)


# schema version -> step that brings the previous version to it (steps from 7 on also take the data home)
MIGRATIONS = {2: _migrate_to_2, 3: _migrate_to_3, 4: _migrate_to_4, 5: _migrate_to_5, 6: _migrate_to_6,
              7: _migrate_to_7, 8: _migrate_to_8}
LIST_FIELDS = ("emails", "phones", "skills", "degrees", "institutions", "companies", "languages")


class Catalog:
    """Thread-safe access to the catalog database."""

    def __init__(self, path: Path, library: Path | None = None) -> None:
        from cvrag_desktop.catalog import health

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
                from cvrag_desktop.catalog.read_only import connect_read_only

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
            from cvrag_desktop.catalog.health import backup

            backup(self._conn, self.path, f"before-v{SCHEMA_VERSION}")
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
        from cvrag_desktop.catalog.health import typed_store_error
        from cvrag_desktop.errors import StoreReadOnly

        if self.read_only:
            raise StoreReadOnly(f"The data folder {self.path.parent} is read-only: changes cannot be saved "
                                "(listing, viewing and searching still work). Check its permissions, then try again.")
        from cvrag_desktop.catalog.disk_space import ensure_room

        ensure_room(self.home, "the last change was not saved")  # before anything is written (catalog/disk_space.py)
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise typed_store_error(exc, self.path) or exc from exc
            try:
                yield self._conn
            except BaseException as exc:
                with suppress(sqlite3.Error):
                    self._conn.execute("ROLLBACK")
                typed = typed_store_error(exc, self.path) if isinstance(exc, sqlite3.Error | OSError) else None
                if typed is not None and typed is not exc:
                    raise typed from exc
                raise
            try:
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                with suppress(sqlite3.Error):
                    self._conn.execute("ROLLBACK")
                raise typed_store_error(exc, self.path) or exc from exc

    def query(self, sql: str, params: tuple | list = ()) -> list[sqlite3.Row]:
        """Run a read query and return all rows."""
        from cvrag_desktop.catalog.health import typed_store_error

        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise typed_store_error(exc, self.path) or exc from exc

    def wipe_free_space(self) -> None:
        """Flush the write-ahead log into the database and truncate it (forgotten rows leave no copy)."""
        if self.read_only:
            return
        with self._lock:
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def backup_now(self, reason: str = "manual") -> Path | None:
        """A backup of the catalog (online backup API) in ``<data>/backups``."""
        from cvrag_desktop.catalog.health import backup

        if self.read_only:
            from cvrag_desktop.catalog.read_only import refuse

            raise refuse(self.path.parent, "no backup can be written in it")
        from cvrag_desktop.catalog.disk_space import STORE_ROOM_MB, ensure_room

        ensure_room(self.home, "no backup was written", STORE_ROOM_MB + self.path.stat().st_size / 2**20)
        with self._lock:
            return backup(self._conn, self.path, reason)

    # ---- files -------------------------------------------------------------------------
    def file_by_sha(self, sha: str) -> sqlite3.Row | None:
        """The file row with this content hash, if any."""
        rows = self.query("SELECT * FROM files WHERE sha256 = ?", (sha,))
        return rows[0] if rows else None

    def upsert_file(self, *, sha: str | None, original_path: str, file_name: str, size: int | None,
                    status: str, stored_path: str | None = None, error: str | None = None) -> int:
        """Register a file (or update the existing row of the same content); returns file_id."""
        now = time.time()
        stored_path = to_stored(self.home, stored_path)
        with self.transaction() as c:
            row = c.execute("SELECT file_id FROM files WHERE sha256 = ?", (sha,)).fetchone() if sha else None
            if row:
                c.execute(
                    "UPDATE files SET original_path=?, file_name=?, status=?, error=?, "
                    "stored_path=COALESCE(?, stored_path) WHERE file_id=?",
                    (original_path, file_name, status, error, stored_path, row["file_id"]),
                )
                return int(row["file_id"])
            cur = c.execute(
                "INSERT INTO files(sha256, original_path, stored_path, file_name, size_bytes, status, error, created_at)"
                " VALUES (?,?,?,?,?,?,?,?)",
                (sha, original_path, stored_path, file_name, size, status, error, now),
            )
            return int(cur.lastrowid)

    def mark_file(self, file_id: int, **fields) -> None:
        """Update some columns of a file row."""
        if not fields:
            return
        fields = self._stored_fields(fields)
        cols = ", ".join(f"{k} = ?" for k in fields)
        with self.transaction() as c:
            c.execute(f"UPDATE files SET {cols} WHERE file_id = ?", (*fields.values(), file_id))

    def mark_files(self, file_ids: list[int], **fields) -> None:
        """Update the same columns of several file rows in one transaction."""
        if not file_ids or not fields:
            return
        fields = self._stored_fields(fields)
        cols = ", ".join(f"{k} = ?" for k in fields)
        with self.transaction() as c:
            c.executemany(f"UPDATE files SET {cols} WHERE file_id = ?", [(*fields.values(), f) for f in file_ids])

    def files(self, status: str | None = None) -> list[dict]:
        """File rows, optionally only those with a status."""
        if status:
            rows = self.query("SELECT * FROM files WHERE status = ? ORDER BY file_id", (status,))
        else:
            rows = self.query("SELECT * FROM files ORDER BY file_id")
        return [self._absolute(dict(r)) for r in rows]

    def _stored_fields(self, fields: dict) -> dict:
        """Column values as stored: a ``stored_path`` relative to the data home."""
        if "stored_path" in fields:
            fields = {**fields, "stored_path": to_stored(self.home, fields["stored_path"])}
        return fields

    def _absolute(self, row: dict) -> dict:
        """A row as callers use it: its ``stored_path`` resolved against today's data home."""
        if row.get("stored_path"):
            row["stored_path"] = resolve_stored(self.home, row["stored_path"])
        return row

    # ---- candidates --------------------------------------------------------------------
    def save_candidate(self, candidate_id: str, sha: str, cv: NormalizedCV, chunks: list[Chunk],
                       file_id: int, **file_fields) -> None:
        """Store a candidate with its chunks and provenance and mark its file done, atomically."""
        now = time.time()
        record = cv.model_dump_json()
        with self.transaction() as c:
            c.execute("DELETE FROM candidates WHERE candidate_id = ?", (candidate_id,))
            c.execute(
                "INSERT INTO candidates(candidate_id, file_sha256, name, emails, phones, current_title, "
                "current_company, years_of_experience, skills, degrees, institutions, companies, languages, "
                "location, record, created_at, grouping, confidence) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    candidate_id, sha, cv.name, json.dumps(cv.emails), json.dumps(cv.phones),
                    cv.current_title, cv.current_company, cv.years_of_experience, json.dumps(cv.skills),
                    json.dumps(cv.degrees), json.dumps(cv.institutions), json.dumps(cv.companies),
                    json.dumps(cv.languages), cv.location, record, now, grouping_fields(cv), confidence_fields(cv),
                ),
            )
            c.executemany(
                "INSERT INTO chunks VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (ch.chunk_id, candidate_id, ch.section, ch.ordinal, ch.text, ch.header, ch.page,
                     json.dumps(ch.bbox) if ch.bbox else None, ch.parent_id)
                    for ch in chunks
                ],
            )
            c.executemany(
                "INSERT INTO provenance(candidate_id, field, value, page, bbox, char_start, char_end, confidence, "
                "reason) VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (candidate_id, p.field, p.value, p.page, json.dumps(p.bbox) if p.bbox else None,
                     p.char_start, p.char_end, p.confidence, p.reason)
                    for p in cv.provenance
                ],
            )
            fields = self._stored_fields({"status": "done", "error": None, "candidate_id": candidate_id,
                                          **file_fields})
            cols = ", ".join(f"{k} = ?" for k in fields)
            c.execute(f"UPDATE files SET {cols} WHERE file_id = ?", (*fields.values(), file_id))

    def candidate_rows(self) -> list[dict]:
        """All candidates as flat rows (lists decoded) joined with their source file."""
        rows = self.query(
            "SELECT c.*, f.original_path AS source_path, f.stored_path AS stored_path, f.file_name AS file_name "
            "FROM candidates c LEFT JOIN files f ON f.sha256 = c.file_sha256 ORDER BY c.created_at, c.name"
        )
        return [self._absolute(_decode(r)) for r in rows]

    def person_rows(self) -> list[dict]:
        """Every candidate's flat row plus what grouping people reads of the record, without the record.

        Adds ``cv_date``, ``n_education`` and ``roles`` (``[title, company, start, end,
        is_current]`` each) from the stored grouping fields, so 10,000 records are not parsed.
        """
        rows = self.query(
            "SELECT c.candidate_id, c.name, c.emails, c.phones, c.current_title, c.current_company, "
            "c.years_of_experience, c.skills, c.degrees, c.institutions, c.companies, c.languages, c.location, "
            "c.created_at, c.confidence, f.original_path AS source_path, f.stored_path AS stored_path, "
            "f.file_name AS file_name, "
            f"COALESCE(c.grouping, {GROUPING_FROM_RECORD.replace('record', 'c.record')}) AS grouping "
            "FROM candidates c LEFT JOIN files f ON f.sha256 = c.file_sha256 ORDER BY c.created_at, c.name"
        )
        out = []
        for r in rows:
            d = self._absolute(_decode(r))
            d.update(json.loads(d.pop("grouping") or "{}"))
            d["roles"] = d.get("roles") or []
            out.append(d)
        return out

    def candidate(self, candidate_id: str) -> dict | None:
        """One candidate's flat row, or None."""
        rows = self.query(
            "SELECT c.*, f.original_path AS source_path, f.stored_path AS stored_path, f.file_name AS file_name "
            "FROM candidates c LEFT JOIN files f ON f.sha256 = c.file_sha256 WHERE c.candidate_id = ?",
            (candidate_id,),
        )
        return self._absolute(_decode(rows[0])) if rows else None

    def chunks(self, candidate_id: str | None = None) -> list[Chunk]:
        """Chunks of one candidate (or all), in order."""
        if candidate_id:
            rows = self.query("SELECT * FROM chunks WHERE candidate_id = ? ORDER BY ordinal", (candidate_id,))
        else:
            rows = self.query("SELECT * FROM chunks ORDER BY candidate_id, ordinal")
        return [
            Chunk(
                chunk_id=r["chunk_id"], candidate_id=r["candidate_id"], section=r["section"], ordinal=r["ordinal"],
                text=r["text"], header=r["header"], page=r["page"],
                bbox=tuple(json.loads(r["bbox"])) if r["bbox"] else None, parent_id=r["parent_id"],
            )
            for r in rows
        ]

    def delete_candidate(self, candidate_id: str) -> str | None:
        """Forget a candidate (chunks, provenance, shortlist entries, file row); returns the stored path."""
        with self.transaction() as c:
            return resolve_stored(self.home, _delete_candidate_rows(c, candidate_id))

    def begin_forget(self, candidate_ids: list[str], file_ids: list[int] = ()) -> dict | None:
        """Delete candidates (and file rows) and journal what is left to do, in one transaction.

        The journal row keeps the library copies to remove and the strings (names, e-mails,
        phones, ids, quoted lines) whose chat threads must go; it is deleted once every step
        is done (see :mod:`cvrag_desktop.catalog.forget`). Returns the journal entry, or None
        when nothing matched.
        """
        from cvrag_desktop.catalog.forget import identity_of, needles_of

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
                path = _delete_candidate_rows(c, cid)
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

    # ---- people (the recruiter's merges and splits) ----------------------------------------
    def person_links(self) -> list[tuple[str, str, str]]:
        """Every ``(candidate_id, candidate_id, "same" | "apart")`` decision."""
        return [(r[0], r[1], r[2]) for r in self.query("SELECT a, b, kind FROM person_links")]

    def links_version(self) -> int:
        """A number that changes whenever a merge or split is recorded (cheap change marker)."""
        rows = self.query("SELECT value FROM meta WHERE key = 'links_version'")
        return int(rows[0][0]) if rows else 0

    def set_person_links(self, *, same: list[tuple[str, str]] = (), apart: list[tuple[str, str]] = (),
                         clear: list[str] = ()) -> None:
        """Record merges (``same``) and splits (``apart``) atomically; ``clear`` first drops every link of those ids.

        A pair has one decision: recording one replaces the other.
        """
        now = time.time()
        with self.transaction() as c:
            c.executemany("DELETE FROM person_links WHERE a = ? OR b = ?", [(i, i) for i in clear])
            rows = [(*sorted((a, b)), kind, now) for kind, pairs in (("same", same), ("apart", apart))
                    for a, b in pairs if a != b]
            c.executemany("INSERT OR REPLACE INTO person_links(a, b, kind, created_at) VALUES (?,?,?,?)", rows)
            _bump_links_version(c)

    def counts(self) -> dict[str, int]:
        """Numbers for the status bar and ``cvrag doctor``."""
        out = {"candidates": self.query("SELECT COUNT(*) FROM candidates")[0][0],
               "chunks": self.query("SELECT COUNT(*) FROM chunks")[0][0]}
        for r in self.query("SELECT status, COUNT(*) FROM files GROUP BY status"):
            out[f"files_{r[0]}"] = r[1]
        return out


def grouping_fields(cv: NormalizedCV) -> str:
    """The grouping fields of a record as stored beside it (see :data:`GROUPING_FROM_RECORD`)."""
    roles = [[e.title, e.company, e.start, e.end, e.is_current] for e in cv.experiences]
    return json.dumps({"cv_date": cv.cv_date, "n_education": len(cv.education), "roles": roles})


def confidence_fields(cv: NormalizedCV) -> str | None:
    """The candidate table's marked fields of a record as stored beside it: ``{field: {"score", "reason"}}``
    for name, current title and company (None when none was scored: a record from before confidence)."""
    current = [p for p in cv.provenance if p.field in CONFIDENCE_FIELDS and p.value == getattr(cv, p.field)]
    found = confidence_map(current)
    return json.dumps({f: {"score": v["score"], "reason": v["reason"]} for f, v in found.items()}) if found else None


def _unshared(c: sqlite3.Connection, needles: list[str]) -> list[str]:
    """Drop quoted lines that other candidates' CVs contain too (a thread quoting those may be about them)."""
    from cvrag_desktop.catalog.forget import MIN_LINE

    lines = {n for n in needles if len(n) >= MIN_LINE and " " in n}
    if not lines:
        return needles
    shared: set[str] = set()
    for (text,) in c.execute("SELECT text FROM chunks"):  # the forgotten rows are already gone
        for ln in lines - shared:
            if ln in text:
                shared.add(ln)
    return [n for n in needles if n not in shared]


def _delete_candidate_rows(c: sqlite3.Connection, candidate_id: str) -> str | None:
    """Delete a candidate's rows inside a transaction; returns its library copy's path."""
    row = c.execute(
        "SELECT f.stored_path, f.file_id FROM candidates ca JOIN files f ON f.sha256 = ca.file_sha256 "
        "WHERE ca.candidate_id = ?",
        (candidate_id,),
    ).fetchone()
    c.execute("DELETE FROM candidates WHERE candidate_id = ?", (candidate_id,))
    # a merge is stored as links to one document: its other documents stay linked to each other
    near = [r[0] for r in c.execute(
        "SELECT CASE WHEN a = ? THEN b ELSE a END FROM person_links WHERE (a = ? OR b = ?) AND kind = 'same' "
        "ORDER BY 1", (candidate_id, candidate_id, candidate_id))]
    c.executemany("INSERT OR REPLACE INTO person_links(a, b, kind, created_at) VALUES (?,?,'same',?)",
                  [(*sorted((near[0], n)), time.time()) for n in near[1:]])
    if c.execute("DELETE FROM person_links WHERE a = ? OR b = ?", (candidate_id, candidate_id)).rowcount:
        _bump_links_version(c)
    if row:
        c.execute("DELETE FROM files WHERE file_id = ?", (row["file_id"],))
        return row["stored_path"]
    return None


def _bump_links_version(c: sqlite3.Connection) -> None:
    c.execute("INSERT INTO meta(key, value) VALUES('links_version', '1') "
              "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")


def _decode(row: sqlite3.Row) -> dict:
    d = dict(row)
    for k in LIST_FIELDS:
        d[k] = json.loads(d[k]) if d.get(k) else []
    if "confidence" in d:  # {field: {"score", "reason", "low"}}; "low" from today's threshold
        d["confidence"] = {f: {**v, "low": v["score"] < LOW_CONFIDENCE}
                           for f, v in json.loads(d["confidence"] or "{}").items()}
    return d
