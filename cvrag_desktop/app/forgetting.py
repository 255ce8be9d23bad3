"""Forgetting for real, as one journalled operation, and finishing one a crash interrupted.

The erasure itself is the catalog's (``catalog/compliance/forget.py``); here it is wired to the parts
the catalog does not own: the index entries and the chat threads. The operation modules
(people, compliance, library) and the catalog's first opening all go through these.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cvrag_desktop.app.types import ForgetReport
from cvrag_desktop.catalog.compliance import forget as forget_mod
from cvrag_desktop.catalog.compliance.audit import audit_for
from cvrag_desktop.catalog.compliance.forget import resume_forgets as resume
from cvrag_desktop.catalog.compliance.leftovers import purge_leftovers
from cvrag_desktop.errors import CvragError

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.catalog.db import Catalog

log = logging.getLogger(__name__)
EMPTY_REPORT: ForgetReport = {"candidate_ids": [], "files_removed": 0, "threads_removed": [], "pending": []}


def forget(app: App, candidate_ids: list[str], file_ids: list[int] = (),
           audit_action: str = "forget") -> ForgetReport:
    """Forget candidates (and file rows) everywhere: catalog rows, library copies, chat threads, backups, index.

    Catalog rows go at once (one transaction, with a journal entry); then the library
    copies, every chat thread that cites or names them (removed whole: the report's
    ``threads_removed`` lists them), the rows in catalog backups, and the index entries.
    A step that cannot run now (another process holds the index) stays in the journal and
    is finished at the next start (``pending``).
    """
    entry = app.catalog.begin_forget(list(candidate_ids), list(file_ids))
    if entry is None:
        return dict(EMPTY_REPORT, candidate_ids=[], threads_removed=[], pending=[])
    app.drop_directory()
    # audited by references, which are then dropped: the entry stays, tied to nobody (catalog/compliance/audit.py);
    # an audit store that cannot be written never stops an erasure (the report says so)
    audit_error = None
    try:
        app.audit.record(audit_action, entry["candidate_ids"], {
            "documents_forgotten": len(entry["candidate_ids"]), "files": len(entry["stored_paths"])})
        app.audit.forget_subjects(entry["candidate_ids"])
    except (CvragError, OSError) as exc:
        audit_error = getattr(exc, "message", str(exc))
        log.warning("forget not audited: %s", audit_error)
    report = forget_mod.run_forget(app.catalog, entry, **forget_steps(app))  # (module attribute: a test interrupts it)
    if audit_error:
        report["audit_error"] = f"the audit trail could not record this forget: {audit_error}"
    return report


def forget_steps(app: App) -> dict[str, Callable]:
    """The steps of a forget that reach beyond the catalog: the index entries and the chat threads."""

    def delete_from_index(ids: list[str]) -> None:
        app.index.forget_candidates(ids)

    def scrub_threads(needles: list[str]) -> list[dict]:
        assistant = app.assistant_if_open
        if assistant is not None:
            return assistant.threads_store.scrub(needles)
        from cvrag_desktop.assistant.memory import THREADS_FILE, scrub_threads_file

        return scrub_threads_file(app.paths.data_dir / THREADS_FILE, needles)

    def scrub_thread_copy(path: Path, needles: list[str]) -> None:
        from cvrag_desktop.assistant.memory import scrub_threads_file

        scrub_threads_file(path, needles)

    return {"delete_from_index": delete_from_index, "scrub_threads": scrub_threads,
            "scrub_thread_copy": scrub_thread_copy}


def resume_forgets(app: App, catalog: Catalog) -> list[dict]:
    """Finish the forgets a crash interrupted in ``catalog`` (run when the catalog or the index is first opened)."""
    try:
        for e in catalog.pending_forgets():  # (a crash before the references were dropped)
            audit_for(catalog).forget_subjects(e["candidate_ids"])
        return resume(catalog, **forget_steps(app))
    except Exception as exc:  # never block opening: the journal stays for the next start
        log.warning("resuming an interrupted forget failed: %s", exc)
        return []


def expire_leftovers(data_dir: Path) -> None:
    """Remove the set-aside copies whose retention ended (never blocks opening)."""
    try:
        for x in purge_leftovers(data_dir):
            log.info("removed %s (%s): its retention ended", x.path, x.kind)
    except OSError as exc:  # never block opening
        log.warning("expiring leftovers failed: %s", exc)
