"""Saved job matches: the job description, what was read from it and the ranked matrix.

A saved match keeps a title, the description text, the requirements (and the lines that
could not be interpreted), whether a language model helped, when it was made, and one
row per ranked candidate with its matrix cells and the evidence those cells cite.

Privacy: everything about a candidate lives in that candidate's own rows
(``job_match_rows`` and ``job_match_evidence``, keyed by the document id), and a trigger
on ``candidates`` deletes them with the document, in the catalog and in the backups a
forget scrubs (like ``catalog/screening.py``). Nothing that names a candidate is kept in
the match header. Qt-free: the GUI and the CLI reach it through the application layer (``app/``).
"""

from __future__ import annotations

import json
import re
import time

from cvrag_desktop.errors import InvalidInput, NotFound

MAX_TITLE = 120
JOB_MATCH_SCHEMA = """
CREATE TABLE IF NOT EXISTS job_matches (
    match_id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    jd_text TEXT NOT NULL,
    requirements TEXT NOT NULL DEFAULT '{}',
    unread TEXT NOT NULL DEFAULT '[]',
    notes TEXT NOT NULL DEFAULT '[]',
    used_llm INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS job_match_rows (
    match_id INTEGER NOT NULL REFERENCES job_matches(match_id) ON DELETE CASCADE,
    rank INTEGER NOT NULL,
    candidate_id TEXT NOT NULL,
    row TEXT NOT NULL,
    PRIMARY KEY (match_id, candidate_id)
);
CREATE INDEX IF NOT EXISTS job_match_rows_candidate ON job_match_rows(candidate_id);
CREATE TABLE IF NOT EXISTS job_match_evidence (
    match_id INTEGER NOT NULL REFERENCES job_matches(match_id) ON DELETE CASCADE,
    evidence_id TEXT NOT NULL,
    candidate_id TEXT NOT NULL,
    evidence TEXT NOT NULL,
    PRIMARY KEY (match_id, evidence_id)
);
CREATE INDEX IF NOT EXISTS job_match_evidence_candidate ON job_match_evidence(candidate_id);
CREATE TRIGGER IF NOT EXISTS job_match_rows_go_with_document AFTER DELETE ON candidates
BEGIN
    DELETE FROM job_match_rows WHERE candidate_id = OLD.candidate_id;
    DELETE FROM job_match_evidence WHERE candidate_id = OLD.candidate_id;
END;
"""


TITLE_LINE = re.compile(r"^\s*(?:job title|title|position|role|puesto|stelle|poste)\s*[:\-–]\s*(?P<t>.+)$", re.I)
MAX_DEFAULT_TITLE = 80


def default_title(jd_text: str) -> str:
    """A name for a saved match: the job title the description states ("Position: …"), else its first line."""
    lines = [ln.strip(" #*\t") for ln in (jd_text or "").splitlines() if ln.strip(" #*\t")]
    for ln in lines[:10]:
        m = TITLE_LINE.match(ln)
        if m:
            return " ".join(m.group("t").split())[:MAX_DEFAULT_TITLE]
    return " ".join(lines[0].split())[:MAX_DEFAULT_TITLE] if lines else "Job description"


class JobMatchStore:
    """Save, list, open and delete the job matches of one catalog."""

    def __init__(self, catalog) -> None:
        self.catalog = catalog

    def save(self, result: dict, jd_text: str, title: str | None = None) -> dict:
        """Store a match result (``AssistantService.match_jd``) with its description; returns the summary."""
        text = (jd_text or "").replace("\x00", "").strip()
        if not text:
            raise InvalidInput("A saved match needs its job description.")
        name = " ".join((title or "").split())[:MAX_TITLE] or default_title(text)
        evidence = result.get("evidence") or {}
        now = time.time()
        with self.catalog.transaction() as c:
            cur = c.execute(
                "INSERT INTO job_matches(title, jd_text, requirements, unread, notes, used_llm, created_at) "
                "VALUES (?,?,?,?,?,?,?)",
                (name, text, json.dumps(result.get("requirements") or {}), json.dumps(result.get("unread") or []),
                 json.dumps(result.get("notes") or []), int(result.get("mode") == "llm"), now))
            mid = int(cur.lastrowid)
            for rank, row in enumerate(result.get("candidates") or [], start=1):
                cid = row["candidate_id"]
                c.execute("INSERT OR IGNORE INTO job_match_rows(match_id, rank, candidate_id, row) VALUES (?,?,?,?)",
                          (mid, rank, cid, json.dumps(row, ensure_ascii=False)))
            for eid, ev in evidence.items():
                c.execute("INSERT OR IGNORE INTO job_match_evidence(match_id, evidence_id, candidate_id, evidence) "
                          "VALUES (?,?,?,?)", (mid, eid, ev.get("candidate_id") or "", json.dumps(ev, ensure_ascii=False)))
        return self.summary(mid)

    def list(self) -> list[dict]:
        """Every saved match, newest first: id, title, created time, LLM flag, candidate and requirement counts."""
        rows = self.catalog.query(
            "SELECT m.match_id, m.title, m.created_at, m.used_llm, m.unread, "
            "(SELECT COUNT(*) FROM job_match_rows r WHERE r.match_id = m.match_id) AS n "
            "FROM job_matches m ORDER BY m.created_at DESC, m.match_id DESC")
        return [{"match_id": r["match_id"], "title": r["title"], "created_at": r["created_at"],
                 "used_llm": bool(r["used_llm"]), "candidates": r["n"],
                 "not_interpreted": len(json.loads(r["unread"] or "[]"))} for r in rows]

    def summary(self, match_id: int) -> dict:
        """One entry of :meth:`list`."""
        for m in self.list():
            if m["match_id"] == int(match_id):
                return m
        raise NotFound(f"No saved job match {match_id!r}.")

    def get(self, match_id: int) -> dict:
        """A saved match: its header fields and ``result`` in the shape ``match_jd`` returns."""
        head = self.catalog.query("SELECT * FROM job_matches WHERE match_id = ?", (_id(match_id),))
        if not head:
            raise NotFound(f"No saved job match {match_id!r}.")
        h = head[0]
        rows = self.catalog.query("SELECT row FROM job_match_rows WHERE match_id = ? ORDER BY rank", (h["match_id"],))
        evidence = {r["evidence_id"]: json.loads(r["evidence"]) for r in self.catalog.query(
            "SELECT evidence_id, evidence FROM job_match_evidence WHERE match_id = ?", (h["match_id"],))}
        result = {"requirements": json.loads(h["requirements"] or "{}"), "mode": "llm" if h["used_llm"] else
                  "deterministic", "notes": json.loads(h["notes"] or "[]"), "unread": json.loads(h["unread"] or "[]"),
                  "candidates": [json.loads(r["row"]) for r in rows], "evidence": evidence}
        return {"match_id": h["match_id"], "title": h["title"], "jd_text": h["jd_text"],
                "created_at": h["created_at"], "used_llm": bool(h["used_llm"]), "result": result}

    def delete(self, match_id: int) -> None:
        """Delete a saved match and its rows (:class:`NotFound` when there is none)."""
        with self.catalog.transaction() as c:
            if not c.execute("DELETE FROM job_matches WHERE match_id = ?", (_id(match_id),)).rowcount:
                raise NotFound(f"No saved job match {match_id!r}.")


def _id(match_id: object) -> int:
    try:
        return int(str(match_id))
    except ValueError:
        raise InvalidInput(f"A saved match id is a number, not {match_id!r}.") from None
