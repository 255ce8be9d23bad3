"""The catalog's candidate rows: a parsed CV with its chunks and provenance, stored and read back.

A mixin of :class:`~cvrag_desktop.catalog.db.Catalog`. A candidate row keeps the record as
JSON plus flat columns for listing and filtering, and two small JSON columns derived from the
record (what grouping people reads, and the marked fields' confidence) so that listing 10,000
people never parses every record.
"""

from __future__ import annotations

import json
import sqlite3
import time

from cvrag_desktop.catalog.store.home_paths import resolve_stored
from cvrag_desktop.catalog.store.person_links import bump_links_version
from cvrag_desktop.catalog.store.schema import GROUPING_FROM_RECORD
from cvrag_desktop.domain import CONFIDENCE_FIELDS, LOW_CONFIDENCE, Chunk, NormalizedCV, confidence_map

LIST_FIELDS = ("emails", "phones", "skills", "degrees", "institutions", "companies", "languages")


class CandidateRows:
    """Saving, listing, reading and deleting candidates."""

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
        return [self._absolute(decode_row(r)) for r in rows]

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
            d = self._absolute(decode_row(r))
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
        return self._absolute(decode_row(rows[0])) if rows else None

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
            return resolve_stored(self.home, delete_candidate_rows(c, candidate_id))

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


def delete_candidate_rows(c: sqlite3.Connection, candidate_id: str) -> str | None:
    """Delete a candidate's rows inside a transaction; returns its library copy's path (stored form)."""
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
        bump_links_version(c)
    if row:
        c.execute("DELETE FROM files WHERE file_id = ?", (row["file_id"],))
        return row["stored_path"]
    return None


def decode_row(row: sqlite3.Row) -> dict:
    """A candidate row as callers use it: list columns decoded, confidence marked low by today's threshold."""
    d = dict(row)
    for k in LIST_FIELDS:
        d[k] = json.loads(d[k]) if d.get(k) else []
    if "confidence" in d:  # {field: {"score", "reason", "low"}}; "low" from today's threshold
        d["confidence"] = {f: {**v, "low": v["score"] < LOW_CONFIDENCE}
                           for f, v in json.loads(d["confidence"] or "{}").items()}
    return d
