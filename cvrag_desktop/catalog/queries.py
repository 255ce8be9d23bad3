"""Read and repair statements over the catalog tables that the assistant, the index and the import need.

Every SQL statement against the catalog's tables lives in ``catalog/``: the layers above
ask for what they need by name (a fingerprint, the chunk texts, the owners of chunks), so
the catalog can move to another database (PostgreSQL is the designed next step) without
touching them. Each function takes the :class:`~cvrag_desktop.catalog.db.Catalog`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3

    from cvrag_desktop.catalog.db import Catalog

BATCH = 500  # ids per IN (...) list (SQLite's variable limit is far above; the lists stay short)


# ---- candidates ------------------------------------------------------------------------------------
def candidate_fingerprint(catalog: Catalog) -> tuple:
    """A cheap change marker of the candidates: their count and the newest insert time."""
    row = catalog.query("SELECT COUNT(*), MAX(created_at) FROM candidates")[0]
    return (row[0], row[1])


def candidate_ids(catalog: Catalog) -> list[str]:
    """Every candidate (document) id, in catalog order."""
    return [r["candidate_id"] for r in catalog.query("SELECT candidate_id FROM candidates")]


def vocabulary_rows(catalog: Catalog) -> list[sqlite3.Row]:
    """Per candidate: id, name, companies, location, institutions and skills (the assistant's lookup tables)."""
    return catalog.query("SELECT candidate_id, name, companies, location, institutions, skills FROM candidates")


# ---- chunks ------------------------------------------------------------------------------------------
def chunk_owners(catalog: Catalog) -> dict[str, str]:
    """Each chunk id mapped to its candidate id (what the index is reconciled against)."""
    return {r["chunk_id"]: r["candidate_id"] for r in catalog.query("SELECT chunk_id, candidate_id FROM chunks")}


def chunk_text(catalog: Catalog, chunk_id: str) -> str:
    """One chunk's text ("" when it is gone)."""
    rows = catalog.query("SELECT text FROM chunks WHERE chunk_id = ?", (chunk_id,))
    return rows[0]["text"] if rows else ""


def chunk_texts(catalog: Catalog, ids: list[str]) -> dict[str, str]:
    """The text of each given chunk id that exists."""
    out: dict[str, str] = {}
    for start in range(0, len(ids), BATCH):
        part = ids[start : start + BATCH]
        marks = ",".join("?" * len(part))
        for r in catalog.query(f"SELECT chunk_id, text FROM chunks WHERE chunk_id IN ({marks})", part):
            out[r["chunk_id"]] = r["text"]
    return out


def all_chunk_texts(catalog: Catalog) -> list[sqlite3.Row]:
    """Every chunk's candidate id and text (the library's own words, for typo correction)."""
    return catalog.query("SELECT candidate_id, text FROM chunks")


def education_chunk_rows(catalog: Catalog) -> list[sqlite3.Row]:
    """Every education chunk's (candidate id, text), by candidate and reading order."""
    return catalog.query("SELECT candidate_id, text FROM chunks WHERE section = 'education' "
                         "ORDER BY candidate_id, ordinal")


def any_chunk_contains(catalog: Catalog, term: str) -> bool:
    """True when some chunk's text contains ``term`` (SQL ``LIKE``: ASCII case-insensitive)."""
    return bool(catalog.query("SELECT 1 FROM chunks WHERE text LIKE ? LIMIT 1", (f"%{term}%",)))


def hit_rows(catalog: Catalog, ids: list[str]) -> dict[str, dict]:
    """For search hits: each chunk's text, page, box, parent id and its candidate's name, by chunk id."""
    marks = ",".join("?" * len(ids))
    return {r["chunk_id"]: dict(r) for r in catalog.query(
        f"SELECT ch.chunk_id, ch.text, ch.page, ch.bbox, ch.parent_id, ca.name FROM chunks ch "
        f"JOIN candidates ca ON ca.candidate_id = ch.candidate_id WHERE ch.chunk_id IN ({marks})", ids)}


def parent_texts(catalog: Catalog, parent_ids: Iterable[str]) -> dict[str, list[str]]:
    """The texts of the child chunks of each parent, in reading order (a long section split in parts)."""
    parents = list(parent_ids)
    out: dict[str, list[str]] = {}
    if not parents:
        return out
    pm = ",".join("?" * len(parents))
    for r in catalog.query(f"SELECT parent_id, text FROM chunks WHERE parent_id IN ({pm}) "
                           "ORDER BY candidate_id, ordinal", parents):
        out.setdefault(r["parent_id"], []).append(r["text"])
    return out


# ---- files refused before they had a hash (one row per path) ------------------------------------------
def unhashed_failure_paths(catalog: Catalog) -> set[str]:
    """The paths of files whose import failed before they were hashed (missing, unreadable, too big)."""
    return {r["original_path"] for r in catalog.query("SELECT original_path FROM files WHERE sha256 IS NULL")}


def unhashed_failure_ids(catalog: Catalog, path: str) -> list[int]:
    """The file rows of one path that failed before it was hashed, oldest first."""
    return [r["file_id"] for r in catalog.query("SELECT file_id FROM files WHERE sha256 IS NULL AND original_path = ? "
                                                "ORDER BY file_id", (path,))]


def delete_unhashed_rows(catalog: Catalog, file_ids: list[int]) -> None:
    """Drop duplicated failure rows (kept by earlier versions) of files that were never hashed."""
    with catalog.transaction() as c:
        c.executemany("DELETE FROM files WHERE file_id = ? AND sha256 IS NULL", [(i,) for i in file_ids])


def delete_unhashed_path(catalog: Catalog, path: str) -> None:
    """A path that failed before and now imports: drop its stale failure row."""
    with catalog.transaction() as c:
        c.execute("DELETE FROM files WHERE sha256 IS NULL AND original_path = ?", (path,))
