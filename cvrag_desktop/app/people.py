"""People and their documents: list, show, merge, split, forget.

A candidate is a person; a person may have several documents (CVs). Document rows keep the
stable field names the CLI prints; a person row is its newest document's fields plus the
person's label, document count and the criteria the facets filter on.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from cvrag_desktop.app.forgetting import forget
from cvrag_desktop.app.types import ForgetReport, MergeResult, SplitResult
from cvrag_desktop.assistant.facts.facets import person_criteria, skill_names
from cvrag_desktop.catalog.people import person_label
from cvrag_desktop.domain import confidence_map
from cvrag_desktop.errors import InvalidInput, NotFound

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

CANDIDATE_FIELDS = (
    "id", "name", "emails", "phones", "current_title", "current_company", "years_of_experience", "skills",
    "degrees", "institutions", "companies", "languages", "location", "source_path", "stored_path", "confidence",
)  # "confidence": {field: {"score", "low", "reason"}} for the scored name, current title and company


def snap_label(row: dict) -> str:
    """A person's label from its primary document row (see ``catalog.people.person_label``)."""
    return person_label(row.get("name"), row.get("record") or {})


class PeopleOps:
    """Candidates (documents) and people: listing, the full record, merge/split, forget."""

    def __init__(self, app: App) -> None:
        self._app = app

    @property
    def directory(self):
        """The grouping of documents into people (cached; rebuilt after a change)."""
        return self._app.directory

    def list_candidates(self) -> list[dict]:
        """Every candidate document as a flat row with the stable CLI field names."""
        rows = []
        for r in self._app.catalog.candidate_rows():
            r["id"] = r["candidate_id"]
            rows.append({k: r.get(k) for k in CANDIDATE_FIELDS})
        return rows

    def get_candidate(self, candidate_id: str) -> dict:
        """The full record of one candidate: structured fields, provenance and chunks.

        ``confidence`` maps each scored field ("name", "experiences[0].title", ...) to
        ``{"score", "low", "reason"}`` (empty for a record imported before confidence existed).
        """
        catalog = self._app.catalog
        row = catalog.candidate(candidate_id)
        if row is None:
            raise NotFound(f"No candidate with id {candidate_id!r}.")
        record = json.loads(row["record"])
        return {
            "id": candidate_id,
            "source_path": row.get("source_path"),
            "stored_path": row.get("stored_path"),
            **record,
            "confidence": confidence_map(record.get("provenance")),
            "chunks": [c.model_dump() for c in catalog.chunks(candidate_id)],
        }

    def candidate_row(self, candidate_id: str) -> dict | None:
        """One document's catalog row (file name, stored copy, fields), or None when it is gone."""
        return self._app.catalog.candidate(candidate_id)

    def delete_candidate(self, candidate_id: str) -> ForgetReport:
        """Forget one document everywhere (see :func:`~cvrag_desktop.app.forgetting.forget`)."""
        if self._app.catalog.candidate(candidate_id) is None:
            raise NotFound(f"No candidate with id {candidate_id!r}.")
        return forget(self._app, [candidate_id])

    def list_people(self, with_documents: bool = False) -> list[dict]:
        """One row per person: the newest document's fields, ``id`` = person id, label and document count.

        ``label`` tells namesakes apart ("name · title · company"); ``display`` is the label
        when another person shares the name, else the name. ``with_documents`` adds each
        document's flat row (``document_rows``, newest first).
        """
        snap = self.directory.snapshot()
        facts = self._app.criteria_facts.all()
        names = skill_names(facts.values())
        out = []
        for r in snap.rows.values():  # catalog order, like list_candidates
            pid = r["candidate_id"]
            ids = snap.grouping.people.get(pid)
            if ids is None:
                continue
            row = {k: r.get(k) for k in CANDIDATE_FIELDS}
            row["id"] = pid
            label = snap_label(r)
            row.update(person_id=pid, label=label, display=label if snap.namesakes[pid] else r.get("name"),
                       namesakes=snap.namesakes[pid], documents=len(ids), document_ids=list(ids))
            row.update(person_criteria([f for d in ids if (f := facts.get(d))], names))  # what the facets filter on
            if with_documents:
                docs = [snap.rows[d] for d in ids]
                row["document_rows"] = [{**{k: d.get(k) for k in CANDIDATE_FIELDS}, "id": d["candidate_id"],
                                         "file_name": d.get("file_name"), "imported_at": d.get("created_at")}
                                        for d in docs]
            out.append(row)
        return out

    def person_documents(self, person: str) -> list[dict]:
        """The documents of a person (given its id or any of its document ids), newest first."""
        docs = self.directory.documents(person)
        if not docs:
            raise NotFound(f"No person or document with id {person!r}.")
        return docs

    def document_owners(self) -> dict[str, str]:
        """Each document id mapped to its person's id (the grouping as it is now)."""
        return dict(self.directory.snapshot().grouping.by_document)

    def merge_people(self, candidate_ids: list[str]) -> MergeResult:
        """Make the people of these documents one person (remembered; wins over the automatic rule)."""
        people = self.directory
        ids = list(dict.fromkeys(candidate_ids))
        for cid in ids:
            self.person_documents(cid)  # NotFound for an unknown id
        if len({people.snapshot().grouping.by_document[c] for c in ids}) < 2:
            raise InvalidInput("Give documents of at least two different people to merge.")
        docs = people.merge_links(ids)
        person = people.snapshot().grouping.by_document[docs[0]]
        self._app.audit.record("people.merge", docs, {"documents_merged": len(docs)})
        return {"person_id": person, "documents": people.snapshot().grouping.people[person]}

    def split_document(self, candidate_id: str) -> SplitResult:
        """Take one document out of its person: it becomes a person of its own (remembered)."""
        docs = self.person_documents(candidate_id)
        if len(docs) < 2:
            raise InvalidInput(f"Document {candidate_id!r} is already a person of its own.")
        rest = self.directory.split_links(candidate_id)
        self._app.audit.record("people.split", [candidate_id], {"documents": rest})
        by_doc = self.directory.snapshot().grouping.by_document
        return {"person_id": by_doc[candidate_id], "rest_person_id": by_doc[rest[0]]}

    def delete_person(self, person: str) -> list[str]:
        """Forget a person: every document (catalog rows, index entries, library copies, threads); returns ids.

        The forget report is kept as ``App.last_forget`` (the CLI prints it).
        """
        ids = [d["id"] for d in self.person_documents(person)]
        self._app.last_forget = forget(self._app, ids)
        return ids
