"""Compliance: the audit trail, retention clocks and the confirmed purge, subject-access export, forgetting.

The rules live in the catalog (``catalog/compliance/audit.py``, ``retention.py``, ``subject_export.py``,
``forget.py``); here they are applied to people as the recruiter sees them (a person given
by any of its document ids), and each act is itself audited.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from cvrag_desktop.app.forgetting import forget
from cvrag_desktop.app.guards import room_to_export
from cvrag_desktop.app.types import ConsentResult, ForgetReport, PurgeReport, RetentionStatus, SubjectExport
from cvrag_desktop.catalog.compliance.audit_events import export_audit_csv
from cvrag_desktop.catalog.compliance.forget_needles import identity_of
from cvrag_desktop.catalog.compliance.retention import RetentionStore
from cvrag_desktop.catalog.compliance.subject_export import collect_subject, write_subject_zip
from cvrag_desktop.catalog.compliance.subject_redact import SubjectPeople
from cvrag_desktop.catalog.privacy.blind import current_user, pseudonym
from cvrag_desktop.errors import CvragError, InvalidInput

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

log = logging.getLogger(__name__)


class ComplianceOps:
    """Audit trail, retention, subject-access export and the total forget."""

    def __init__(self, app: App) -> None:
        self._app = app

    @property
    def audit(self):
        """The audit trail of this data home: hash-chained, pseudonymous."""
        return self._app.audit

    @property
    def retention(self):
        """The library's retention period, consents and clocks (``catalog/compliance/retention.py``)."""
        return RetentionStore(self._app.catalog)

    def _docs(self, person: str) -> list[str]:
        return [d["id"] for d in self._app.people.person_documents(person)]

    def forget(self, candidate_ids: list[str], file_ids: list[int] = (), audit_action: str = "forget") -> ForgetReport:
        """Forget candidates (and file rows) for real, as one journalled operation (see ``app/forgetting.py``)."""
        return forget(self._app, candidate_ids, file_ids, audit_action)

    # ---- audit trail ----------------------------------------------------------------------------
    def person_refs(self, person: str) -> list[str]:
        """The audit references of a person's documents (the person given by any of its ids)."""
        return self.audit.known_refs(self._docs(person))

    def audit_entries(self, since: str | None = None, action: str | None = None,
                      person: str | None = None) -> list[dict]:
        """Audit entries, oldest first, filtered by time (ISO), action (name or ``prefix.``) and person."""
        refs = self.person_refs(person) if person else None
        return self._with_pseudonyms([e.as_dict() for e in self.audit.entries(since, action, refs)])

    def _with_pseudonyms(self, entries: list[dict]) -> list[dict]:
        """Each entry with ``pseudonym``: its person's ``Candidate 7F3A`` as the table and chat show it, worked
        out now from the reference (never stored in the log; a forgotten person's entries have none)."""
        docs = self.audit.subjects(e.get("person") for e in entries)
        by_doc = self._app.directory.snapshot().grouping.by_document
        for e in entries:
            person = by_doc.get(docs.get(e.get("person") or "", ""))
            e["pseudonym"] = pseudonym(person) if person else None
        return entries

    def audit_verify(self) -> dict:
        """Check the audit chain; names the first broken link."""
        return self.audit.verify()

    def audit_export(self, path: Path, since: str | None = None, action: str | None = None,
                     person: str | None = None) -> int:
        """Write audit entries to CSV (formulas made inert); the export is itself audited."""
        room_to_export(self._app)
        refs = self.person_refs(person) if person else None
        entries = self._with_pseudonyms([e.as_dict() for e in self.audit.entries(since, action, refs)])
        n = export_audit_csv(entries, Path(path))
        self.audit.record_shown("audit.export", details={"rows": n, "filtered": bool(since or action or person)})
        return n

    def audit_retention_days(self, days: int | None = None) -> int:
        """How long the audit trail is kept (days); with ``days``, set it first."""
        return self.audit.set_retention_days(days) if days is not None else self.audit.retention_days()

    # ---- subject-access export ----------------------------------------------------------------
    def export_subject(self, person: str, out: Path) -> SubjectExport:
        """Everything held about one person (records, originals, audit entries, chat turns) as a zip; audited."""
        from cvrag_desktop.assistant.memory import THREADS_FILE
        from cvrag_desktop.assistant.thread_export import subject_turns, threads_naming
        app = self._app
        room_to_export(app)
        docs = self._docs(person)
        needles: list[str] = []
        originals = []
        for cid in docs:
            row = app.catalog.candidate(cid) or {}
            needles += identity_of(cid, {**row, "emails": json.dumps(row.get("emails") or []),
                                         "phones": json.dumps(row.get("phones") or [])})
            needles += [c.chunk_id for c in app.catalog.chunks(cid)]
            path = Path(row["stored_path"]) if row.get("stored_path") else None  # (absolute: the library copy)
            if path is not None and path.is_file():
                originals.append((path, f"{cid[:12]}-{Path(row.get('file_name') or path.name).name}"))
        people = SubjectPeople(app.catalog, docs, self.audit.known_refs(docs))  # them, and everyone else
        chat = subject_turns(threads_naming(app.paths.data_dir / THREADS_FILE, needles), docs, people)
        points = None
        try:  # the index's payloads are derived from the catalog rows; listed too (what a grep of the home finds)
            points = [p for p in app.index.store.scroll() if p.get("candidate_id") in docs]
        except CvragError as exc:
            log.info("subject export without the index points: %s", exc)
        data = collect_subject(app.catalog, self.audit, docs[0], docs, chat, points, people)
        written = write_subject_zip(data, originals, Path(out))
        self.audit.record_shown("export.subject", docs, {"documents": docs[1:], "originals": len(originals),
                                                         "chat_threads": len(chat)})
        return {"path": str(written), "documents": len(docs), "originals": len(originals),
                "audit_entries": len(data["audit_entries"]), "chat_threads": len(chat)}

    # ---- retention (the purge is the total forget) ------------------------------------------------
    def set_retention(self, preset: str | None, days: int | None = None) -> dict:
        """Choose the library's retention period (a named preset or ``custom`` days); audited."""
        store = self.retention
        before = store.policy()
        policy = store.set_policy(preset, days)
        self.audit.record("settings.retention", details={"preset": policy.preset, "days": policy.days,
                                                         "before": before.days})
        return policy.as_dict()

    def retention_policy(self) -> dict:
        """The library's retention policy (period, preset, its source and the not-legal-advice notice)."""
        return self.retention.policy().as_dict()

    def set_consent(self, person: str, until: str | None) -> ConsentResult:
        """Record a person's consent to be kept until a day (YYYY-MM-DD), or withdraw it (None); audited."""
        docs = self._docs(person)
        day = self.retention.set_consent(docs, until, current_user())
        self.audit.record("retention.consent", docs, {"documents": docs[1:], "until": day})
        return {"person_id": docs[0], "consent_until": day}

    def _retention_people(self) -> tuple[dict, dict, dict]:
        people = self._app.people.list_people()
        groups = {p["id"]: p["document_ids"] for p in people}
        states = self._app.screening.states(groups)
        names = {p["id"]: p.get("display") or p.get("name") for p in self._app.people.list_people()}
        return groups, {p: s.status for p, s in states.items()}, names

    def retention_status(self, now=None) -> RetentionStatus:
        """The policy and every person's clock (last activity, consent, due date), soonest due first."""
        groups, statuses, names = self._retention_people()
        clocks = [{**c.as_dict(), "name": names.get(c.person_id)} for c in
                  self.retention.clocks(groups, statuses, now)]
        return {"policy": self.retention.policy().as_dict(), "people": clocks}

    def retention_due(self, within_days: int = 30, now=None) -> list[dict]:
        """People due for deletion within ``within_days`` (the review list)."""
        groups, statuses, names = self._retention_people()
        return [{**c.as_dict(), "name": names.get(c.person_id)} for c in
                self.retention.due(groups, statuses, within_days, now)]

    def retention_purge(self, person_ids: list[str], now=None) -> PurgeReport:
        """Forget the confirmed batch: each given person must be due now. The purge is audited by reference only.

        The caller shows the batch and asks first (``cvrag retention purge --confirm``, a dialog):
        nothing here runs without that list.
        """
        due = {c["person_id"]: c for c in self.retention_due(0, now)}
        batch = list(dict.fromkeys(person_ids))
        not_due = [p for p in batch if p not in due]
        if not_due:
            raise InvalidInput(f"{len(not_due)} of these people are not due for deletion (any more): "
                               f"{', '.join(not_due[:5])}. List them again with `cvrag retention due --days 0`.")
        reports = []
        for pid in batch:
            reports.append(forget(self._app, due[pid]["documents"], audit_action="retention.purge"))
        self.audit.record("retention.purge_batch", details={"people": len(batch), "documents_forgotten": sum(
                                                                len(due[p]["documents"]) for p in batch),
                                                            "policy_days": self.retention.policy().days})
        return {"purged": len(batch), "documents": sum(len(r["candidate_ids"]) for r in reports),
                "threads_removed": [t for r in reports for t in r["threads_removed"]],
                "pending": sorted({s for r in reports for s in r["pending"]})}
