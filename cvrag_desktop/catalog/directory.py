"""The people of a catalog: documents grouped into persons, with the recruiter's merges and splits.

:class:`PeopleDirectory` reads every document once, groups them with
:func:`cvrag_desktop.catalog.people.group_documents` and keeps the result until the
catalog or the links change (same change marker as the assistant's facts: number of
candidates and latest import time, plus the links version). ``app/people.py`` turns it into
the browser's and the CLI's person rows and records merges and splits through it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.people import (
    DocumentKeys,
    Grouping,
    document_keys,
    group_documents,
    newest_date,
    person_label,
)


@dataclass
class Snapshot:
    """The documents (flat catalog rows; ``record`` holds only what grouping reads) and their grouping."""

    rows: dict[str, dict]
    grouping: Grouping
    namesakes: dict[str, int]  # person id -> number of other people with the same name key


class PeopleDirectory:
    """Grouped people of one catalog, rebuilt lazily when the catalog changes."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._lock = threading.Lock()
        self._marker: tuple | None = None
        self._snapshot: Snapshot | None = None
        self._keys: dict[tuple, DocumentKeys] = {}

    def snapshot(self) -> Snapshot:
        """The current grouping (recomputed only after an import, a delete, a merge or a split)."""
        row = self.catalog.query("SELECT COUNT(*), MAX(created_at) FROM candidates")[0]
        marker = (row[0], row[1], self.catalog.links_version())
        with self._lock:
            if marker != self._marker or self._snapshot is None:
                self._snapshot = self._build()
                self._marker = marker
            return self._snapshot

    def _build(self) -> Snapshot:
        rows: dict[str, dict] = {}
        keys = []
        cache: dict[tuple, DocumentKeys] = {}
        for r in self.catalog.person_rows():
            r["record"] = grouping_record(r)
            rows[r["candidate_id"]] = r
            stamp = (r["candidate_id"], r.get("created_at"))
            k = self._keys.get(stamp) or document_keys(r["candidate_id"], r.get("name"), r["record"],
                                                       r.get("created_at") or 0.0)
            cache[stamp] = k
            keys.append(k)
        self._keys = cache  # a document's keys are computed once per import, not per refresh
        grouping = group_documents(keys, self.catalog.person_links())
        by_key: dict[str, int] = {}
        key_of = {k.candidate_id: k.key for k in keys}
        for pid in grouping.people:
            by_key[key_of[pid]] = by_key.get(key_of[pid], 0) + 1
        namesakes = {pid: (by_key[key_of[pid]] - 1 if key_of[pid] else 0) for pid in grouping.people}
        return Snapshot(rows, grouping, namesakes)

    def documents(self, candidate_id: str) -> list[dict]:
        """The documents of the person a document (or person id) belongs to, newest first; [] if unknown."""
        snap = self.snapshot()
        ids = snap.grouping.documents_of(candidate_id)
        return [document_row(snap.rows[cid], primary=(n == 0)) for n, cid in enumerate(ids)]

    def merge_links(self, candidate_ids: list[str]) -> list[str]:
        """Record that the people of these documents are one; returns every document of the merged person."""
        snap = self.snapshot()
        docs: list[str] = []
        for cid in candidate_ids:
            for d in snap.grouping.documents_of(cid):
                if d not in docs:
                    docs.append(d)
        anchor = docs[0]
        self.catalog.set_person_links(same=[(anchor, d) for d in docs[1:]])
        return docs

    def split_links(self, candidate_id: str) -> list[str]:
        """Record that a document is not the same person as the rest of its person; returns the rest."""
        rest = [d for d in self.snapshot().grouping.documents_of(candidate_id) if d != candidate_id]
        # the rest stays one person as it was shown (a chain of "same" links through the
        # split document would otherwise fall apart with it)
        self.catalog.set_person_links(clear=[candidate_id], apart=[(candidate_id, d) for d in rest],
                                      same=[(rest[0], d) for d in rest[1:]])
        return rest


def grouping_record(row: dict) -> dict:
    """The parts of a stored record that grouping and labels read, shaped like the record."""
    return {
        "emails": row.get("emails") or [], "phones": row.get("phones") or [], "skills": row.get("skills") or [],
        "education": [None] * (row.get("n_education") or 0), "cv_date": row.get("cv_date"),
        "current_title": row.get("current_title"), "current_company": row.get("current_company"),
        "location": row.get("location"),
        "experiences": [{"title": t, "company": c, "start": s, "end": e, "is_current": bool(cur)}
                        for t, c, s, e, cur in row.get("roles") or []],
    }


def document_row(row: dict, primary: bool = False) -> dict:
    """One document of a person as the browser's document list and the CLI show it."""
    rec = row.get("record") or {}
    return {
        "id": row["candidate_id"], "name": row.get("name"), "file_name": row.get("file_name"),
        "source_path": row.get("source_path"), "stored_path": row.get("stored_path"),
        "imported_at": row.get("created_at"), "cv_date": rec.get("cv_date"), "newest_date": newest_date(rec),
        "current_title": row.get("current_title"), "current_company": row.get("current_company"),
        "label": person_label(row.get("name"), rec), "primary": primary,
    }
