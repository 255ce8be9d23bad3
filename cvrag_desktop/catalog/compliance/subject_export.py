"""Subject-access export (GDPR Art. 15): everything the library holds about one person, in one zip.

For each of the person's documents: the file row and the original document from the
library, the extracted record, every chunk and provenance row, the screening state
(status, rating, tags, note), shortlist memberships with their notes, saved job-match
rows with the evidence they cite, blind reveals, retention consent; for the person: the
status history and every audit entry that names one of their documents (by reference),
and the chat turns of threads that name or cite them (collected by the caller, which owns
the conversation store), and the search index's payloads of their chunks (derived copies).
**Nobody else**: the records are shared (an answer cites several people, a note compares),
so every other person's names, contacts, ids, audit references and CV lines are replaced
by "another candidate" (``subject_redact.py``) and chat turns cut to the subject's own.
Written as ``subject.json`` plus a human-readable
``summary.html`` and ``originals/``. Qt-free.
"""

from __future__ import annotations

import html
import json
import os
import zipfile
from datetime import UTC, datetime
from pathlib import Path

from cvrag_desktop.catalog.compliance.subject_redact import SubjectPeople

NOTICE = ("Copy of the personal data held about you in this screening library (GDPR Art. 15): the documents you "
          "sent, what was read from them, the recruiters' screening decisions and notes, the shortlists and job "
          "matches you appear in, the audit entries about you and the assistant conversations that name you.")
TABLES_BY_DOCUMENT = ("chunks", "provenance", "screening", "identity_reveals")


def _rows(catalog, sql: str, params: tuple) -> list[dict]:
    try:
        return [dict(r) for r in catalog.query(sql, params)]
    except Exception as exc:  # (an older catalog without the table)
        if "no such table" in str(exc):
            return []
        raise


def document_records(catalog, candidate_id: str) -> dict:
    """Every catalog row about one document, keyed by what it is."""
    row = catalog.candidate(candidate_id) or {}
    record = json.loads(row.pop("record", None) or "{}")
    row.pop("grouping", None)
    out: dict = {"candidate_id": candidate_id, "candidate_row": row, "record": record}
    out["file"] = (_rows(catalog, "SELECT file_id, sha256, original_path, file_name, size_bytes, status, pages, "
                                  "method, created_at FROM files WHERE candidate_id = ? OR sha256 = ?",
                         (candidate_id, row.get("file_sha256") or "")) or [None])[0]
    for table in TABLES_BY_DOCUMENT:
        out[table] = _rows(catalog, f"SELECT * FROM {table} WHERE candidate_id = ?", (candidate_id,))
    for r in out["screening"]:
        r["tags"] = json.loads(r.get("tags") or "[]")
    out["shortlists"] = _rows(catalog, "SELECT s.shortlist_id, s.name, i.note, i.added_at FROM shortlist_items i "
                                       "JOIN shortlists s ON s.shortlist_id = i.shortlist_id WHERE i.candidate_id = ? "
                                       "ORDER BY i.added_at", (candidate_id,))
    out["job_matches"] = []
    for m in _rows(catalog, "SELECT r.match_id, r.rank, r.row, m.title, m.created_at, m.used_llm, m.requirements "
                            "FROM job_match_rows r JOIN job_matches m ON m.match_id = r.match_id "
                            "WHERE r.candidate_id = ? ORDER BY m.created_at", (candidate_id,)):
        m["row"] = json.loads(m["row"])
        m["requirements"] = json.loads(m["requirements"] or "{}")
        m["evidence"] = [{"evidence_id": e["evidence_id"], **json.loads(e["evidence"])} for e in _rows(
            catalog, "SELECT evidence_id, evidence FROM job_match_evidence WHERE match_id = ? AND candidate_id = ?",
            (m["match_id"], candidate_id))]
        out["job_matches"].append(m)
    out["retention_consent"] = _rows(catalog, "SELECT * FROM retention_consent WHERE candidate_id = ?",
                                     (candidate_id,))
    return out


def status_history(entries: list[dict]) -> list[dict]:
    """The person's status changes, oldest first, from the audit entries (when, who, from, to)."""
    return [{"at": e["at"], "by": e["actor"], "from": e["details"].get("from"), "to": e["details"].get("to")}
            for e in entries if e["action"] == "screening.status"]


def collect_subject(catalog, audit, person_id: str, document_ids: list[str], chat: list[dict],
                    index_points: list[dict] | None = None, people: SubjectPeople | None = None) -> dict:
    """The whole export as one JSON-able dict (``chat``: the subject's own turns of the threads that name
    them, ``index_points``: the search index's payloads of their chunks — a derived copy of the catalog rows —
    both from the caller), with every other person's identifiers replaced (:func:`alone`)."""
    refs = audit.known_refs(document_ids)
    people = people or SubjectPeople(catalog, document_ids, refs)
    entries = [e.as_dict() for e in audit.entries(refs=refs)] if refs else []
    data = {"person_id": person_id, "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "notice": NOTICE, "documents": [document_records(catalog, d) for d in document_ids],
            "status_history": status_history(entries), "audit_references": refs, "audit_entries": entries,
            "chat_threads": chat, "search_index_points": index_points if index_points is not None else
            "not read (the search index is held by another process; it only holds copies of the records above)"}
    return alone(data, people)


def alone(data: dict, people: SubjectPeople) -> dict:
    """The export with nobody else in it: every record except the subject's own CV (its extracted record,
    chunks, provenance, file row: their words) has other people's names, contacts, ids, references and CV
    lines replaced (``subject_redact.py``); chat turns are already cut to theirs (``assistant/thread_export.py``)."""
    own_cv = ("candidate_id", "candidate_row", "record", "file", "chunks", "provenance")
    data = {**data, "documents": [{**{k: d[k] for k in own_cv if k in d},
                                   **people.redact({k: v for k, v in d.items() if k not in own_cv})}
                                  for d in data["documents"]]}
    for key in ("status_history", "audit_entries", "chat_threads"):
        data[key] = people.redact(data[key])
    return data


def _html_list(items: list[str]) -> str:
    return "<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>" if items else "<p>None.</p>"


def summary_html(data: dict) -> str:
    """A plain HTML page a person can read: one section per kind of record (values escaped)."""
    e = html.escape
    parts = [f"<h1>Personal data held — {e(data['person_id'])}</h1>", f"<p>{e(data['notice'])}</p>",
             f"<p>Generated {e(data['generated_at'])} (UTC).</p>"]
    for doc in data["documents"]:
        rec, f = doc["record"], doc["file"] or {}
        parts.append(f"<h2>Document {e(f.get('file_name') or doc['candidate_id'])}</h2>")
        facts = [f"<b>{e(k)}</b>: {e(json.dumps(v, ensure_ascii=False) if isinstance(v, list | dict) else str(v))}"
                 for k, v in rec.items() if k not in ("provenance",) and v not in (None, "", [], {})]
        parts.append("<h3>What was read from it</h3>" + _html_list(facts))
        parts.append(f"<p>{len(rec.get('provenance') or [])} values with their place in the document, "
                     f"{len(doc['chunks'])} text passages (in subject.json).</p>")
        for s in doc["screening"]:
            parts.append("<h3>Screening</h3>" + _html_list([
                f"status: {e(s['status'])}", f"rating: {e(str(s['rating'] or '-'))}",
                f"tags: {e(', '.join(s['tags']) or '-')}", f"note: {e(s['note'] or '-')}"]))
        parts.append("<h3>Shortlists</h3>" + _html_list(
            [f"{e(s['name'])}" + (f" — note: {e(s['note'])}" if s["note"] else "") for s in doc["shortlists"]]))
        parts.append("<h3>Job matches</h3>" + _html_list(
            [f"{e(m['title'])}: rank {m['rank']}, {m['row'].get('met', '?')} of {m['row'].get('total', '?')} "
             "requirements met" for m in doc["job_matches"]]))
        if doc["identity_reveals"]:
            parts.append("<h3>Identity revealed in blind screening</h3>" + _html_list(
                [f"{e(r['revealed_by'])}, reason: {e(r['reason'] or '-')}" for r in doc["identity_reveals"]]))
    parts.append("<h2>Status history</h2>" + _html_list(
        [f"{e(h['at'][:19])}: {e(str(h['from']))} → {e(str(h['to']))} by {e(h['by'])}" for h in data["status_history"]]))
    parts.append("<h2>Audit entries</h2>" + _html_list(
        [f"{e(a['at'][:19])} {e(a['action'])} by {e(a['actor'])}" for a in data["audit_entries"]]))
    parts.append("<h2>Assistant conversations that name you</h2>" + _html_list(
        [f"{e(t['title'])} ({len(t['messages'])} messages)" for t in data["chat_threads"]]))
    return ("<!doctype html><html><head><meta charset='utf-8'><title>Subject access export</title></head><body>"
            + "\n".join(parts) + "</body></html>")


def write_subject_zip(data: dict, originals: list[tuple[Path, str]], out: Path) -> Path:
    """Write ``subject.json``, ``summary.html`` and ``originals/`` to ``out`` atomically; returns the path."""
    out = Path(out)
    if out.suffix.lower() != ".zip":
        out = out.with_suffix(".zip")
    tmp = out.with_name(out.name + ".part")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("subject.json", json.dumps(data, ensure_ascii=False, indent=2, default=str))
        z.writestr("summary.html", summary_html(data))
        for path, name in originals:
            if path.is_file():
                z.write(path, f"originals/{name}")
    os.replace(tmp, out)
    return out
