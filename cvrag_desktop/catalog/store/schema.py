"""The catalog's tables and the steps that bring an older catalog file to today's schema.

Kept apart from :class:`~cvrag_desktop.catalog.db.Catalog` because the schema is a file format:
it changes only by adding a numbered migration, and tests build old catalogs from these pieces.
Each round's own tables are defined beside the code that uses them (screening, blind reveals,
job matches, retention) and created here by its migration step.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cvrag_desktop.catalog.compliance.retention import RETENTION_SCHEMA
from cvrag_desktop.catalog.job_matches import JOB_MATCH_SCHEMA
from cvrag_desktop.catalog.privacy.blind import BLIND_SCHEMA
from cvrag_desktop.catalog.screening import SCREENING_SCHEMA
from cvrag_desktop.catalog.store.home_paths import migrate_stored_paths

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
    conn.executescript(SCREENING_SCHEMA)


def _migrate_to_4(conn: sqlite3.Connection) -> None:
    """Round 4: the blind-screening reveal log (``catalog/privacy/blind.py``)."""
    conn.executescript(BLIND_SCHEMA)


def _migrate_to_5(conn: sqlite3.Connection) -> None:
    """Round 5: saved job matches (``catalog/job_matches.py``)."""
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
    ``catalog/store/home_paths.py``), and the forget journal's identity strings (``catalog/compliance/leftovers.py``)."""
    if "identity" not in {r[1] for r in conn.execute("PRAGMA table_info(pending_forget)")}:
        conn.execute("ALTER TABLE pending_forget ADD COLUMN identity TEXT")
    migrate_stored_paths(conn, home)


def _migrate_to_8(conn: sqlite3.Connection, home: Path) -> None:
    """Round 8: a person's consent to be kept until a date (``catalog/compliance/retention.py``)."""
    conn.executescript(RETENTION_SCHEMA)


# schema version -> step that brings the previous version to it (steps from 7 on also take the data home)
MIGRATIONS = {2: _migrate_to_2, 3: _migrate_to_3, 4: _migrate_to_4, 5: _migrate_to_5, 6: _migrate_to_6,
              7: _migrate_to_7, 8: _migrate_to_8}
