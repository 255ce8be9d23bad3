"""What each audited action writes: screening changes as entries, and the trail as CSV.

The application layer (``app/``) and the stores call these so that the GUI and the CLI log the
same entries. Details are ids, enumerated values and counts: a tag is stored as a short
digest (a tag is free text the recruiter typed and may name someone), a note as its
length, a job description as its digest — never the text itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from cvrag_desktop.catalog.compliance.audit import AuditEntry, digest
from cvrag_desktop.catalog.csv_export import neutralise, write_csv_table
from cvrag_desktop.catalog.screening import reason_kind

# "pseudonym" (the person's "Candidate 7F3A", as table and chat show it) is worked out when exported, never
# stored: the chain holds only the reference in "person"; it is empty for a forgotten person
CSV_COLUMNS = ("seq", "at", "actor", "action", "person", "pseudonym", "details", "prev", "hash")


def screening_entries(groups: Mapping[str, list[str]], before: Mapping, after: Mapping) -> list[tuple]:
    """One ``(action, documents, details)`` per person and changed field (status with its reason's kind,
    rating, tags, note)."""
    out: list[tuple] = []
    for pid, docs in groups.items():
        old, new = before[pid], after[pid]
        subjects = list(dict.fromkeys(docs))
        if old.status != new.status:
            detail = {"from": old.status, "to": new.status}
            if new.reason:  # the preset kind and the length: never the recruiter's words
                detail.update(reason=reason_kind(new.reason), reason_chars=len(new.reason))
            out.append(("screening.status", subjects, detail))
        elif old.reason != new.reason:  # the same status, its reason given or changed
            out.append(("screening.reason", subjects, {"status": new.status, "reason": reason_kind(new.reason),
                                                       "reason_chars": len(new.reason)}))
        if old.rating != new.rating:
            out.append(("screening.rating", subjects, {"from": old.rating, "to": new.rating}))
        was, now = {t.casefold(): t for t in old.tags}, {t.casefold(): t for t in new.tags}
        added, removed = [now[k] for k in now if k not in was], [was[k] for k in was if k not in now]
        if added or removed:
            out.append(("screening.tags", subjects, {"added": [digest(t.casefold()) for t in added],
                                                     "removed": [digest(t.casefold()) for t in removed],
                                                     "tags_now": len(new.tags)}))
        if old.note != new.note:
            out.append(("screening.note", subjects, {"chars": len(new.note), "cleared": not new.note}))
    return out


def ranking_details(candidate_ids: Iterable[str], **extra) -> dict:
    """Details of a ranking shown or exported: the documents in rank order (stored as references)."""
    ids = list(candidate_ids)
    return {**extra, "ranking": ids, "shown": len(ids)}


def export_audit_csv(entries: Iterable[AuditEntry | Mapping], path: Path) -> int:
    """Write entries as CSV (UTF-8 with BOM, formulas made inert like every export), atomically; returns rows.

    ``entries`` are :class:`AuditEntry` objects or their dicts; a dict may carry the read-time
    ``pseudonym`` (``App.audit_entries``), which fills that column."""
    rows = [list(CSV_COLUMNS)]
    for e in entries:
        d = dict(e) if isinstance(e, Mapping) else e.as_dict()
        d["pseudonym"] = d.get("pseudonym") or ""
        d["details"] = json.dumps(d["details"], sort_keys=True, ensure_ascii=False)
        rows.append([neutralise(d[k]) for k in CSV_COLUMNS])
    return write_csv_table(rows, path) - 1
