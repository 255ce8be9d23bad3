"""The Qt-free facade that the GUI and the CLI both call.

Every user-visible operation is one method here; long ones take plain
``progress(done, total, note)`` and ``should_cancel()`` callables so any front end
can drive them from a worker thread.
"""

from __future__ import annotations

import json
import logging
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.config import AppPaths, Settings, app_paths, load_settings
from cvrag_desktop.domain import confidence_map
from cvrag_desktop.errors import CvragError, DiskFull, InvalidInput, NotFound
from cvrag_desktop.ingestion.pipeline import FileOutcome, Ingestor, IngestReport

log = logging.getLogger(__name__)
CANDIDATE_FIELDS = (
    "id", "name", "emails", "phones", "current_title", "current_company", "years_of_experience", "skills",
    "degrees", "institutions", "companies", "languages", "location", "source_path", "stored_path", "confidence",
)  # "confidence": {field: {"score", "low", "reason"}} for the scored name, current title and company


def document_preview(stored: str, page: int | None = 0, bbox=None) -> tuple[str, int, tuple | None]:
    """The PDF to preview for a library copy, with ``page``/``bbox`` as they apply to it (runs in a worker).

    A PDF is its own preview. A Word copy's preview PDF (made at import) is made now when
    missing, and a box from a record imported before previews is translated onto it
    (``preview/docx_preview.py``); an unreadable file raises its typed error.
    """
    if Path(stored).suffix.lower() != ".docx":
        return stored, page or 0, tuple(bbox) if bbox else None
    from cvrag_desktop.preview.docx_preview import preview_for_view

    return preview_for_view(stored, page, bbox)


def document_preview_boxes(stored: str, boxes: list) -> list:
    """``(page, bbox)`` boxes of a record as they fall on its preview (blind screening's black boxes).

    Only a Word record imported before previews needs translating; anything else is returned as is.
    """
    if Path(stored).suffix.lower() != ".docx" or not boxes:
        return list(boxes)
    from cvrag_desktop.preview.docx_preview import translate_boxes

    return translate_boxes(stored, boxes)


def snap_label(row: dict) -> str:
    """A person's label from its primary document row (see ``catalog.people.person_label``)."""
    from cvrag_desktop.catalog.people import person_label

    return person_label(row.get("name"), row.get("record") or {})


class Services:
    """One application session: settings, catalog and the operations on them."""

    def __init__(self, paths: AppPaths | None = None, settings: Settings | None = None) -> None:
        self.paths = (paths or app_paths()).ensure()
        self.settings = settings or load_settings(self.paths)
        self._catalog: Catalog | None = None
        self._index = None
        self._assistant = None
        self._people = None
        self._open_lock = threading.RLock()  # workers may reach the lazy parts at the same time
        self.resumed_forgets: list[dict] = []
        self.last_forget: dict = {}

    @property
    def catalog(self) -> Catalog:
        """The catalog, opened on first use."""
        with self._open_lock:
            if self._catalog is None:
                self._catalog = Catalog(self.paths.catalog_db, self.paths.library_dir)
                if not self._catalog.read_only and self._catalog.pending_forgets():
                    self.resumed_forgets = self._resume_forgets()
                if not self._catalog.read_only:
                    self._expire_leftovers()
            return self._catalog

    @property
    def index(self):
        """The search index (opened and reconciled with the catalog on first use)."""
        with self._open_lock:
            if self._index is None:
                from cvrag_desktop.index.service import SearchService

                self._index = SearchService(self.catalog, self.paths, self.settings)
                if not self.catalog.read_only:  # a read-only home is searched as it is
                    self._index.start()  # reconciles, unless the last clean close left it in sync
                if not self.catalog.read_only and self.catalog.pending_forgets():
                    self.resumed_forgets = self._resume_forgets()
            return self._index

    @property
    def assistant(self):
        """The chat assistant: grounded, cited answers; conversation memory in the data dir."""
        with self._open_lock:
            if self._assistant is None:
                from cvrag_desktop.assistant.service import AssistantService

                self._assistant = AssistantService(self.catalog, self.index, self.paths, self.settings)
            return self._assistant

    def search(self, query: str | None, filters=None, k: int = 8, strategy: str = "hybrid") -> list[dict]:
        """Hybrid / metadata / filtered search over the indexed chunks (see ``index.service``)."""
        return self.index.search(query, filters, k=k, strategy=strategy)

    def search_with_floor(self, query: str, filters=None, k: int = 200, strategy: str = "hybrid",
                          person_of=None) -> dict:
        """Ranked search split at the relevance floor (``index.relevance``): main and weaker matches.

        Returns ``{main, weaker}`` (hit lists in rank order), ``main_people`` / ``weaker_people``
        (how many people each holds, grouped by ``person_of(candidate_id)``, by document
        when none is given) and, when nothing passes the floor, ``suggestions``: the library's
        skills and names closest to the query.
        """
        from cvrag_desktop.index.relevance import split_by_floor

        hits = self.search(query, filters, k, strategy)
        key = (lambda h: person_of(h["candidate_id"]) or h["candidate_id"]) if person_of else None
        main, weaker, _ = split_by_floor(hits, query, key) if key else split_by_floor(hits, query)
        group = key or (lambda h: h["candidate_id"])
        main_people = len({group(h) for h in main})
        out = {"main": main, "weaker": weaker, "main_people": main_people,
               "weaker_people": len({group(h) for h in weaker} - {group(h) for h in main}), "suggestions": []}
        if not main:
            out["suggestions"] = self.closest_terms(query)
        return out

    def closest_terms(self, query: str, limit: int = 5) -> list[str]:
        """The skills and candidate names of the library closest in spelling to ``query`` (empty search)."""
        from rapidfuzz import fuzz, process

        names: dict[str, None] = {}
        for r in self.catalog.candidate_rows():
            for v in [r.get("name"), *(r.get("skills") or [])]:
                if v:
                    names.setdefault(v)
        found = process.extract(query, list(names), scorer=fuzz.WRatio, limit=limit, score_cutoff=60)
        return [m[0] for m in found]

    @property
    def audit(self):
        """The audit trail of this data home (``catalog/compliance/audit.py``): hash-chained, pseudonymous."""
        from cvrag_desktop.catalog.compliance.audit import audit_for

        return audit_for(self.catalog)

    def close(self) -> None:
        """Release files (conversation store, index lock, catalog connection)."""
        if self._assistant is not None:
            self._assistant.close()
            self._assistant = None
        if self._index is not None:
            self._index.close()
            self._index = None
        self._people = None
        if self._catalog is not None:
            from cvrag_desktop.catalog.compliance.audit import close_audit

            close_audit(self._catalog)
            self._catalog.close()
            self._catalog = None

    @property
    def shortlists(self):
        """Named shortlists with a note per candidate (catalog tables)."""
        from cvrag_desktop.shortlists import ShortlistStore

        return ShortlistStore(self.catalog)

    # ---- ingestion ---------------------------------------------------------------------
    def _llm_fill(self) -> Callable | None:
        """The optional LLM gap-filling pass, when enabled and an endpoint answers."""
        if not self.settings.llm_enabled:
            return None
        try:
            from cvrag_desktop.llm.health import probe

            health = probe(self.settings.llm_base_url)
            if not health.reachable:
                return None
            from cvrag_desktop.ingestion.llm_fill import fill_gaps
        except Exception as exc:  # LLM stack missing or broken: deterministic mode
            log.info("LLM pass unavailable: %s", exc)
            return None

        def fill(cv, text):
            merged, _notes = fill_gaps(cv, text)
            return merged

        return fill

    def llm_status(self) -> str | None:
        """Why the language model is not being asked right now (marked down by the circuit breaker), or None.

        The import summary and the GUI status bar show it: the import went on without the model.
        """
        from cvrag_desktop.llm import DEFAULT_ALIAS, get_route
        from cvrag_desktop.llm.breaker import BREAKER

        try:
            endpoint = get_route(DEFAULT_ALIAS, base_url=self.settings.llm_base_url).api_base
        except Exception:  # an unreadable model config: nothing was asked, nothing is down
            return None
        return BREAKER.status(endpoint)

    def ingest(self, inputs: list[Path], *, use_llm: bool = True, workers: int | None = None,
               progress: Callable[[int, int, str], None] | None = None,
               should_cancel: Callable[[], bool] | None = None,
               on_file: Callable[[FileOutcome], None] | None = None) -> IngestReport:
        """Import files/folders into the catalog (see :class:`Ingestor`)."""
        if not inputs:
            raise InvalidInput("Give at least one file or folder to import.")
        missing = [str(p) for p in inputs if not p.exists()]
        if missing and len(missing) == len(inputs):
            raise InvalidInput(f"Nothing to import: {', '.join(missing)} does not exist.")
        from cvrag_desktop.catalog.store.disk_space import INDEX_ROOM_MB, ensure_room

        ensure_room(self.paths.data_dir, "the import did not start", INDEX_ROOM_MB)  # (catalog/store/disk_space.py)
        started = time.perf_counter()
        index = self.index
        from cvrag_desktop.llm.breaker import BREAKER

        ingestor = Ingestor(
            self.catalog, self.paths, self.settings.limits, allow_ocr=self.settings.ocr_enabled,
            llm_fill=self._llm_fill() if use_llm else None, on_saved=index.enqueue,
        )
        with BREAKER.batch():  # a model that hangs on one file is not waited for again in this batch
            report = ingestor.ingest(inputs, workers=workers or self.settings.workers, progress=progress,
                                     should_cancel=should_cancel, on_file=on_file)
            report.llm_note = self.llm_status() if ingestor.llm_fill is not None else None
        index.wait_idle()
        report.seconds = round(time.perf_counter() - started, 2)  # the whole import, indexing included
        if getattr(index, "disk_full", None) is not None:  # the catalog holds them; the index could not grow
            raise DiskFull(f"{index.disk_full.message} {report.ingested} CV(s) were imported, {index.unindexed} of "
                           "them are not searchable yet: they are indexed at the next start once space is freed "
                           "(or run `cvrag reindex`).")
        return report

    def resume_pending(self, **kwargs) -> IngestReport:
        """Finish files an interrupted import left queued or processing."""
        index = self.index
        ingestor = Ingestor(self.catalog, self.paths, self.settings.limits, allow_ocr=self.settings.ocr_enabled,
                            on_saved=index.enqueue)
        report = ingestor.ingest([], **kwargs)
        index.wait_idle()
        return report

    # ---- candidates --------------------------------------------------------------------
    def list_candidates(self) -> list[dict]:
        """Every candidate as a flat row with the stable CLI field names."""
        rows = []
        for r in self.catalog.candidate_rows():
            r["id"] = r["candidate_id"]
            rows.append({k: r.get(k) for k in CANDIDATE_FIELDS})
        return rows

    def get_candidate(self, candidate_id: str) -> dict:
        """The full record of one candidate: structured fields, provenance and chunks.

        ``confidence`` maps each scored field ("name", "experiences[0].title", ...) to
        ``{"score", "low", "reason"}`` (empty for a record imported before confidence existed).
        """
        row = self.catalog.candidate(candidate_id)
        if row is None:
            raise NotFound(f"No candidate with id {candidate_id!r}.")
        record = json.loads(row["record"])
        return {
            "id": candidate_id,
            "source_path": row.get("source_path"),
            "stored_path": row.get("stored_path"),
            **record,
            "confidence": confidence_map(record.get("provenance")),
            "chunks": [c.model_dump() for c in self.catalog.chunks(candidate_id)],
        }

    def delete_candidate(self, candidate_id: str) -> dict:
        """Forget a candidate everywhere (see :meth:`forget`); returns the forget report."""
        if self.catalog.candidate(candidate_id) is None:
            raise NotFound(f"No candidate with id {candidate_id!r}.")
        return self.forget([candidate_id])

    def forget(self, candidate_ids: list[str], file_ids: list[int] = (), audit_action: str = "forget") -> dict:
        """Forget candidates (and file rows) for real, as one journalled operation.

        Catalog rows go at once (one transaction, with a journal entry); then the library
        copies, every chat thread that cites or names them (removed whole: the report's
        ``threads_removed`` lists them), the rows in catalog backups, and the index
        entries. A step that cannot run now (another process holds the index) stays in
        the journal and is finished at the next start (``pending``).
        """
        from cvrag_desktop.catalog.compliance.forget import run_forget

        entry = self.catalog.begin_forget(list(candidate_ids), list(file_ids))
        if entry is None:
            return {"candidate_ids": [], "files_removed": 0, "threads_removed": [], "pending": []}
        self._people = None
        # audited by references, which are then dropped: the entry stays, tied to nobody (catalog/compliance/audit.py);
        # an audit store that cannot be written never stops an erasure (the report says so)
        audit_error = None
        try:
            self.audit.record(audit_action, entry["candidate_ids"], {
                "documents_forgotten": len(entry["candidate_ids"]), "files": len(entry["stored_paths"])})
            self.audit.forget_subjects(entry["candidate_ids"])
        except (CvragError, OSError) as exc:
            audit_error = getattr(exc, "message", str(exc))
            log.warning("forget not audited: %s", audit_error)
        report = run_forget(self.catalog, entry, **self._forget_steps())
        if audit_error:
            report["audit_error"] = f"the audit trail could not record this forget: {audit_error}"
        return report

    def _forget_steps(self) -> dict:
        def delete_from_index(ids: list[str]) -> None:
            self.index.forget_candidates(ids)

        def scrub_threads(needles: list[str]) -> list[dict]:
            if self._assistant is not None:
                return self._assistant.threads_store.scrub(needles)
            from cvrag_desktop.assistant.memory import THREADS_FILE, scrub_threads_file

            return scrub_threads_file(self.paths.data_dir / THREADS_FILE, needles)

        def scrub_thread_copy(path: Path, needles: list[str]) -> None:
            from cvrag_desktop.assistant.memory import scrub_threads_file

            scrub_threads_file(path, needles)

        return {"delete_from_index": delete_from_index, "scrub_threads": scrub_threads,
                "scrub_thread_copy": scrub_thread_copy}

    def _resume_forgets(self) -> list[dict]:
        from cvrag_desktop.catalog.compliance.forget import resume_forgets

        if getattr(self, "_resuming", False):
            return []
        self._resuming = True
        try:
            from cvrag_desktop.catalog.compliance.audit import audit_for

            for e in self._catalog.pending_forgets():  # (a crash before the references were dropped)
                audit_for(self._catalog).forget_subjects(e["candidate_ids"])
            return resume_forgets(self._catalog, **self._forget_steps())
        except Exception as exc:  # never block opening: the journal stays for the next start
            log.warning("resuming an interrupted forget failed: %s", exc)
            return []
        finally:
            self._resuming = False

    def failed_files(self) -> list[dict]:
        """Files whose import failed (any status but done / queued / processing)."""
        return [f for f in self.catalog.files() if f["status"] not in ("done", "queued", "processing")]

    def forget_failed(self) -> dict:
        """Remove failed imports: their catalog rows and library copies (``cvrag forget --failed``)."""
        failed = self.failed_files()
        report = self.forget([], [f["file_id"] for f in failed])
        report["files"] = [{"file_name": f["file_name"], "status": f["status"]} for f in failed]
        return report

    def rebuild_catalog(self, progress=None, should_cancel=None) -> dict:
        """Rebuild a missing, empty or damaged catalog by re-importing every file in the library.

        The damaged file is moved aside once (``catalog.damaged-<time>.sqlite3``, a leftover with a
        retention: ``catalog/compliance/leftovers.py``). An interrupted rebuild is continued, not set aside
        again, and the catalog says it is incomplete until every library file was imported
        (``catalog/store/rebuild.py``).
        """
        from cvrag_desktop.catalog.store import rebuild
        from cvrag_desktop.catalog.store.health import library_files

        with self._open_lock:
            self.close()
            db = self.paths.catalog_db
            files = library_files(self.paths.library_dir)
            marker = rebuild.read_marker(db)
            resumed = marker is not None
            moved = None
            if not resumed:
                moved = rebuild.set_aside(db)
                rebuild.create_marked(db, len(files), moved)
            self._catalog = Catalog(db)
        # the library copies are the inputs (content-addressed: importing one copies nothing)
        report = self.ingest([self.paths.library_dir], use_llm=False, progress=progress, should_cancel=should_cancel)
        state = rebuild.rebuild_state(self.catalog)
        finished = not report.cancelled and state is not None and \
            state["imported"] + state["failed"] >= len(library_files(self.paths.library_dir))
        if finished:
            rebuild.clear_marker(self.catalog)
        aside = moved.name if moved else ((marker or {}).get("aside") if resumed else None)
        return {"library_files": len(files), "ingested": report.ingested, "duplicates": report.duplicates,
                "failed": report.failed, "resumed": resumed, "complete": finished,
                "damaged_catalog_kept_as": str(self.paths.data_dir / aside) if aside else None,
                "incomplete": None if finished else (rebuild.rebuild_state(self.catalog) or {}).get("message")}

    def rebuild_status(self) -> dict | None:
        """An interrupted catalog rebuild (counts and what to run), or None when the catalog is whole."""
        from cvrag_desktop.catalog.store.rebuild import rebuild_state

        return rebuild_state(self.catalog)

    # ---- leftovers (set-aside copies: forgotten with the person, expire after a retention) ----
    def leftovers(self) -> list[dict]:
        """Copies a repair or crash set aside (damaged catalog / conversations / index, import temps)."""
        from cvrag_desktop.catalog.compliance.leftovers import find_leftovers

        return [x.as_dict(self.paths.data_dir) for x in find_leftovers(self.paths.data_dir)]

    def purge_leftovers(self) -> list[dict]:
        """Remove every set-aside copy now (``cvrag doctor --purge-leftovers``); returns what went."""
        from cvrag_desktop.catalog.compliance.leftovers import purge_leftovers

        if self.catalog.read_only and self.leftovers():
            from cvrag_desktop.catalog.store.read_only import refuse

            raise refuse(self.paths.data_dir, "the set-aside copies cannot be removed from it")
        return [x.as_dict(self.paths.data_dir) for x in purge_leftovers(self.paths.data_dir, expired_only=False)]

    def _expire_leftovers(self) -> None:
        from cvrag_desktop.catalog.compliance.leftovers import purge_leftovers

        try:
            for x in purge_leftovers(self.paths.data_dir):
                log.info("removed %s (%s): its retention ended", x.path, x.kind)
        except OSError as exc:  # never block opening
            log.warning("expiring leftovers failed: %s", exc)

    # ---- people (one person, many documents) ------------------------------------------------
    @property
    def people(self):
        """Documents grouped into people (rule + the recruiter's merges and splits), cached."""
        with self._open_lock:
            if self._people is None:
                from cvrag_desktop.catalog.directory import PeopleDirectory

                self._people = PeopleDirectory(self.catalog)
            return self._people

    @property
    def criteria_facts(self):
        """The parsed facts the chat counts with (the assistant's own), so facets and counts agree."""
        with self._open_lock:
            if self._assistant is not None:
                return self._assistant.facts
            if getattr(self, "_criteria_facts", None) is None:
                from cvrag_desktop.assistant.facts.store import CatalogFacts

                self._criteria_facts = CatalogFacts(self.catalog)
            return self._criteria_facts

    def list_people(self, with_documents: bool = False) -> list[dict]:
        """One row per person: the newest document's fields, ``id`` = person id, label and document count.

        ``label`` tells namesakes apart ("name · title · company"); ``display`` is the label
        when another person shares the name, else the name. ``with_documents`` adds each
        document's flat row (``document_rows``, newest first).
        """
        from cvrag_desktop.assistant.facts.criteria import person_criteria, skill_names

        snap = self.people.snapshot()
        facts = self.criteria_facts.all()
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
        docs = self.people.documents(person)
        if not docs:
            raise NotFound(f"No person or document with id {person!r}.")
        return docs

    def merge_people(self, candidate_ids: list[str]) -> dict:
        """Make the people of these documents one person (remembered; wins over the automatic rule)."""
        ids = list(dict.fromkeys(candidate_ids))
        for cid in ids:
            self.person_documents(cid)  # NotFound for an unknown id
        if len({self.people.snapshot().grouping.by_document[c] for c in ids}) < 2:
            raise InvalidInput("Give documents of at least two different people to merge.")
        docs = self.people.merge_links(ids)
        person = self.people.snapshot().grouping.by_document[docs[0]]
        self.audit.record("people.merge", docs, {"documents_merged": len(docs)})
        return {"person_id": person, "documents": self.people.snapshot().grouping.people[person]}

    def split_document(self, candidate_id: str) -> dict:
        """Take one document out of its person: it becomes a person of its own (remembered)."""
        docs = self.person_documents(candidate_id)
        if len(docs) < 2:
            raise InvalidInput(f"Document {candidate_id!r} is already a person of its own.")
        rest = self.people.split_links(candidate_id)
        self.audit.record("people.split", [candidate_id], {"documents": rest})
        by_doc = self.people.snapshot().grouping.by_document
        return {"person_id": by_doc[candidate_id], "rest_person_id": by_doc[rest[0]]}

    def delete_person(self, person: str) -> list[str]:
        """Forget a person: every document (catalog rows, index entries, library copies, threads); returns ids."""
        ids = [d["id"] for d in self.person_documents(person)]
        self.last_forget = self.forget(ids)
        return ids

    # ---- screening (status, tags, rating, note per person; saved searches) -----------------
    @property
    def screening(self):
        """The recruiter's screening state per person and the saved searches (catalog tables)."""
        from cvrag_desktop.catalog.screening import ScreeningStore

        return ScreeningStore(self.catalog)

    def screening_of(self, people: list[str]) -> dict[str, dict]:
        """The screening state of people (given by person or document id), keyed as given."""
        groups = {p: [d["id"] for d in self.person_documents(p)] for p in people}
        return {p: s.as_dict() for p, s in self.screening.states(groups).items()}

    def set_screening(self, people: list[str], **changes) -> dict[str, dict]:
        """Change status / rating / note / tags (``add_tags``, ``remove_tags``) of people, on all their documents."""
        from cvrag_desktop.catalog.compliance.audit_events import screening_entries

        groups = {p: [d["id"] for d in self.person_documents(p)] for p in dict.fromkeys(people)}
        if not groups:
            raise InvalidInput("Give at least one person.")
        before = self.screening.states(groups)
        after = self.screening.update(groups, **changes)
        entries = screening_entries(groups, before, after)
        if entries:
            self.audit.record_many(entries)
        return {p: s.as_dict() for p, s in after.items()}

    # ---- blind screening (pseudonyms, redaction, the reveal log) ----------------------------
    @property
    def blind(self):
        """The blind-mode setting and the reveal log (``catalog/privacy/blind.py``)."""
        from cvrag_desktop.catalog.privacy.blind import BlindStore

        return BlindStore(self.catalog)

    def set_blind(self, on: bool) -> bool:
        """Turn blind screening on or off for this library; returns the new state."""
        was = self.blind.enabled()
        self.blind.set_enabled(bool(on))
        if was != bool(on):
            self.audit.record("settings.blind_mode", details={"on": bool(on)})
        return self.blind.enabled()

    def reveal_candidate(self, candidate_id: str, by: str | None = None, reason: str = "") -> dict:
        """Record a deliberate reveal of one candidate's identity; returns the candidate's unredacted row."""
        row = self.catalog.candidate(candidate_id)
        if row is None:
            raise NotFound(f"No candidate with id {candidate_id!r}.")
        record = self.blind.reveal(candidate_id, by, reason)
        from cvrag_desktop.catalog.privacy.blind import identifiers, redact_text

        # the reason is kept (oversight), with the person's own name and contacts cut (it outlives a forget)
        self.audit.record("blind.reveal", [candidate_id], {"reason": redact_text(record.reason, identifiers(row))},
                          actor=record.revealed_by)
        return {"id": candidate_id, "name": row.get("name"), "revealed_by": record.revealed_by,
                "revealed_at": record.revealed_at}

    # ---- saved job matches (JD text + ranked matrix, ``catalog/job_matches.py``) -------------
    def save_match(self, result: dict, jd_text: str, title: str | None = None) -> dict:
        """Keep a job-match result (``match_jd``) with its description in the library; returns its summary."""
        from cvrag_desktop.catalog.job_matches import JobMatchStore

        saved = JobMatchStore(self.catalog).save(result, jd_text, title)
        from cvrag_desktop.catalog.compliance.audit import digest

        self.audit.record("job_match.save", details={
            "match_id": saved["match_id"], "description": digest((jd_text or "").strip()),
            "ranking": [c["candidate_id"] for c in result.get("candidates") or []]})
        return saved

    def list_matches(self) -> list[dict]:
        """Saved job matches, newest first (id, title, created time, LLM flag, number of candidates)."""
        from cvrag_desktop.catalog.job_matches import JobMatchStore

        return JobMatchStore(self.catalog).list()

    def open_match(self, match_id: int) -> dict:
        """A saved job match: title, description text and ``result`` (the shape ``match_jd`` returns)."""
        from cvrag_desktop.catalog.job_matches import JobMatchStore

        return JobMatchStore(self.catalog).get(match_id)

    def delete_match(self, match_id: int) -> None:
        """Delete a saved job match."""
        from cvrag_desktop.catalog.job_matches import JobMatchStore

        JobMatchStore(self.catalog).delete(match_id)
        self.audit.record("job_match.delete", details={"match_id": int(match_id)})

    # ---- exports (audited: what kind, how many rows, of whom, blind or not; never the contents) ----
    def _room_to_export(self) -> None:
        """An export is audited: on a (nearly) full disk it is refused before its file is written."""
        if not self.catalog.read_only:
            from cvrag_desktop.catalog.store.disk_space import ensure_room

            ensure_room(self.paths.data_dir, "nothing was exported")

    def export_candidates_csv(self, rows: list[dict], path: Path, notes: dict | None = None,
                              blind: bool = False) -> int:
        """Write candidates to CSV (``export.export_candidates_csv``) and audit it; returns the rows written."""
        from cvrag_desktop.export import export_candidates_csv

        self._room_to_export()
        if blind:  # a document row takes its person's pseudonym (the table's, the chat's), not its own
            by_doc = self.people.snapshot().grouping.by_document
            rows = [r if r.get("person_id") else {**r, "person_id": by_doc.get(str(r.get("id")))} for r in rows]
        n = export_candidates_csv(rows, Path(path), notes, blind=blind)
        self.audit.record_shown("export.candidates", details={"ranking": [str(r.get("id")) for r in rows],
                                                              "rows": n, "blind": bool(blind)})
        return n

    def export_people_csv(self, rows: list[dict], path: Path, notes: dict | None, states: dict,
                          blind: bool = False) -> int:
        """Write people with their screening to CSV (``screening.export_people_csv``) and audit it."""
        from cvrag_desktop.catalog.screening import export_people_csv

        self._room_to_export()
        n = export_people_csv(rows, Path(path), notes, states)
        ids = [str(r.get("person_id") or r.get("id")) for r in rows]
        self.audit.record_shown("export.people", details={
            "ranking": [i for i in ids if self.catalog.candidate(i)], "rows": n, "blind": bool(blind)})
        return n

    def export_match_csv(self, result: dict, path: Path, blind: bool = False) -> int:
        """Write a job match's requirement x candidate matrix to CSV (``pseudonymous`` when blind) and audit it."""
        from cvrag_desktop.assistant.jobmatch.export import pseudonymous, write_matrix_csv

        self._room_to_export()
        n = write_matrix_csv(pseudonymous(result) if blind else result, Path(path))
        self.audit.record_shown("export.job_match", details={
            "ranking": [c["candidate_id"] for c in result.get("candidates") or []], "rows": n, "blind": bool(blind)})
        return n

    # ---- why this rank (``assistant/jobmatch/rank_explain.py``) ----------------------------------------
    def explain_match(self, result: dict, candidate_id: str, jd_text: str | None = None) -> dict:
        """Why one job-match row has its rank: each requirement with its cited CV line, the rule, the model's part."""
        from cvrag_desktop.assistant.jobmatch.rank_explain import explain_match

        return explain_match(result, candidate_id, catalog=self.catalog, jd_text=jd_text)

    def explain_search(self, query: str, person: str | None = None, filters=None, rank: int | None = None) -> dict:
        """Why one person (or, with ``rank``, whoever is at that place) has their place in a ranked search
        (the search is run again, as the GUI runs it)."""
        from cvrag_desktop.assistant.jobmatch.rank_explain import explain_search, rank_search_people

        owners = {d: pid for pid, ids in self.people.snapshot().grouping.people.items() for d in ids}
        found = self.search_with_floor(query, filters, 200, "hybrid", person_of=owners.get)
        people = rank_search_people(found["main"], found["weaker"], owners.get)
        if person is None:
            if rank is None or not 1 <= int(rank) <= len(people):
                raise NotFound(f"This search ranks {len(people)} people: give a rank from 1 to {len(people)}."
                               if people else "This search finds nobody.")
            person = people[int(rank) - 1]["person_id"]
        pid = owners.get(person, person)
        for p in people:
            for h in p["hits"]:
                h.setdefault("source_path", (self.catalog.candidate(h["candidate_id"]) or {}).get("file_name") or "")
        reranker = bool(getattr(getattr(self.index, "reranker_info", None), "available", False))
        row = next((r for r in self.list_people() if r["id"] == pid), {})
        return explain_search(query, people, pid, name=row.get("display") or row.get("name") or "",
                              reranker=reranker, filters=filters)

    def export_explanation(self, explanation: dict, path: Path, title: str | None = None) -> Path:
        """Write a candidate-facing explanation (HTML or text; no other candidate in it) and audit the export."""
        from cvrag_desktop.assistant.jobmatch.rank_explain_export import write_explanation

        self._room_to_export()
        out = write_explanation(explanation, Path(path), title)
        self.audit.record_shown("export.explanation", [explanation["candidate_id"]], {
            "kind": explanation["kind"], "format": out.suffix.lstrip(".").lower(), "rank": explanation["rank"],
            "ranked": explanation["ranked"], "requirements": len(explanation["requirements"]),
            "flags": len(explanation.get("flags") or [])})
        return out

    # ---- audit trail (``catalog/compliance/audit.py``) --------------------------------------------------
    def person_refs(self, person: str) -> list[str]:
        """The audit references of a person's documents (the person given by any of its ids)."""
        return self.audit.known_refs([d["id"] for d in self.person_documents(person)])

    def audit_entries(self, since: str | None = None, action: str | None = None,
                      person: str | None = None) -> list[dict]:
        """Audit entries, oldest first, filtered by time (ISO), action (name or ``prefix.``) and person."""
        refs = self.person_refs(person) if person else None
        return self._with_pseudonyms([e.as_dict() for e in self.audit.entries(since, action, refs)])

    def _with_pseudonyms(self, entries: list[dict]) -> list[dict]:
        """Each entry with ``pseudonym``: its person's ``Candidate 7F3A`` as the table and chat show it, worked
        out now from the reference (never stored in the log; a forgotten person's entries have none)."""
        from cvrag_desktop.catalog.privacy.blind import pseudonym

        docs = self.audit.subjects(e.get("person") for e in entries)
        by_doc = self.people.snapshot().grouping.by_document
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
        from cvrag_desktop.catalog.compliance.audit_events import export_audit_csv

        self._room_to_export()
        refs = self.person_refs(person) if person else None
        entries = self._with_pseudonyms([e.as_dict() for e in self.audit.entries(since, action, refs)])
        n = export_audit_csv(entries, Path(path))
        self.audit.record_shown("audit.export", details={"rows": n, "filtered": bool(since or action or person)})
        return n

    # ---- subject-access export (``catalog/compliance/subject_export.py``) -------------------------------
    def export_subject(self, person: str, out: Path) -> dict:
        """Everything held about one person (records, originals, audit entries, chat turns) as a zip.

        Returns ``{"path", "documents", "originals", "audit_entries", "chat_threads"}``; audited.
        """
        from cvrag_desktop.assistant.memory import THREADS_FILE
        from cvrag_desktop.assistant.thread_export import threads_naming
        from cvrag_desktop.catalog.compliance.forget_needles import identity_of
        from cvrag_desktop.catalog.compliance.subject_export import collect_subject, write_subject_zip

        self._room_to_export()
        docs = [d["id"] for d in self.person_documents(person)]
        needles: list[str] = []
        originals = []
        for cid in docs:
            row = self.catalog.candidate(cid) or {}
            needles += identity_of(cid, {**row, "emails": json.dumps(row.get("emails") or []),
                                         "phones": json.dumps(row.get("phones") or [])})
            needles += [c.chunk_id for c in self.catalog.chunks(cid)]
            path = Path(row["stored_path"]) if row.get("stored_path") else None  # (absolute: the library copy)
            if path is not None and path.is_file():
                originals.append((path, f"{cid[:12]}-{Path(row.get('file_name') or path.name).name}"))
        chat = threads_naming(self.paths.data_dir / THREADS_FILE, needles)
        points = None
        try:  # the index's payloads are derived from the catalog rows; listed too (what a grep of the home finds)
            points = [p for p in self.index.store.scroll() if p.get("candidate_id") in docs]
        except CvragError as exc:
            log.info("subject export without the index points: %s", exc)
        data = collect_subject(self.catalog, self.audit, docs[0], docs, chat, points)
        written = write_subject_zip(data, originals, Path(out))
        self.audit.record_shown("export.subject", docs, {"documents": docs[1:], "originals": len(originals),
                                                         "chat_threads": len(chat)})
        return {"path": str(written), "documents": len(docs), "originals": len(originals),
                "audit_entries": len(data["audit_entries"]), "chat_threads": len(chat)}

    # ---- retention (``catalog/compliance/retention.py``; the purge is the total forget) -------------------
    @property
    def retention(self):
        """The library's retention period, consents and clocks."""
        from cvrag_desktop.catalog.compliance.retention import RetentionStore

        return RetentionStore(self.catalog)

    def set_retention(self, preset: str | None, days: int | None = None) -> dict:
        """Choose the library's retention period (a named preset or ``custom`` days); audited."""
        before = self.retention.policy()
        policy = self.retention.set_policy(preset, days)
        self.audit.record("settings.retention", details={"preset": policy.preset, "days": policy.days,
                                                         "before": before.days})
        return policy.as_dict()

    def set_consent(self, person: str, until: str | None) -> dict:
        """Record a person's consent to be kept until a day (YYYY-MM-DD), or withdraw it (None); audited."""
        from cvrag_desktop.catalog.privacy.blind import current_user

        docs = [d["id"] for d in self.person_documents(person)]
        day = self.retention.set_consent(docs, until, current_user())
        self.audit.record("retention.consent", docs, {"documents": docs[1:], "until": day})
        return {"person_id": docs[0], "consent_until": day}

    def _retention_people(self) -> tuple[dict, dict]:
        groups = {p["id"]: p["document_ids"] for p in self.list_people()}
        states = self.screening.states(groups)
        return groups, {p: s.status for p, s in states.items()}

    def retention_status(self, now=None) -> dict:
        """The policy and every person's clock (last activity, consent, due date), soonest due first."""
        groups, statuses = self._retention_people()
        names = {p["id"]: p.get("display") or p.get("name") for p in self.list_people()}
        clocks = [{**c.as_dict(), "name": names.get(c.person_id)} for c in
                  self.retention.clocks(groups, statuses, now)]
        return {"policy": self.retention.policy().as_dict(), "people": clocks}

    def retention_due(self, within_days: int = 30, now=None) -> list[dict]:
        """People due for deletion within ``within_days`` (the review list)."""
        groups, statuses = self._retention_people()
        names = {p["id"]: p.get("display") or p.get("name") for p in self.list_people()}
        return [{**c.as_dict(), "name": names.get(c.person_id)} for c in
                self.retention.due(groups, statuses, within_days, now)]

    def retention_purge(self, person_ids: list[str], now=None) -> dict:
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
            reports.append(self.forget(due[pid]["documents"], audit_action="retention.purge"))
        self.audit.record("retention.purge_batch", details={"people": len(batch), "documents_forgotten": sum(
                                                                len(due[p]["documents"]) for p in batch),
                                                            "policy_days": self.retention.policy().days})
        return {"purged": len(batch), "documents": sum(len(r["candidate_ids"]) for r in reports),
                "threads_removed": [t for r in reports for t in r["threads_removed"]],
                "pending": sorted({s for r in reports for s in r["pending"]})}

    def files(self, status: str | None = None) -> list[dict]:
        """Imported files with their status and error."""
        return self.catalog.files(status)

    # ---- generator ---------------------------------------------------------------------
    def generate(self, count: int, seed: int, out_dir: Path, *, locale: str = "es_ES", layout: str = "mixed",
                 use_llm: bool = False, progress=None, should_cancel=None) -> dict:
        """Write synthetic CVs with ground truth (see ``factory.pipeline.generate_batch``)."""
        from cvrag_desktop.factory.pipeline import generate_batch

        report = generate_batch(count, seed, out_dir, locale=locale, layout=layout, use_llm=use_llm,
                                progress=progress, should_cancel=should_cancel)
        return report.model_dump()

    # ---- diagnostics -------------------------------------------------------------------
    def _leftovers_info(self) -> dict:
        from cvrag_desktop.catalog.compliance.leftovers import RETENTION_DAYS

        items = self.leftovers()
        return {"retention_days": RETENTION_DAYS, "items": items,
                "purge": "cvrag doctor --purge-leftovers" if items else None,
                "note": "set-aside copies are removed when their retention ends, and forgetting a person "
                        "scrubs or removes them too"}

    def doctor(self) -> dict:
        """Where data lives, which optional parts are available, what the catalog holds."""
        from cvrag_desktop.ingestion.read.ocr import available_engine_name
        info: dict = {
            "data_dir": str(self.paths.data_dir),
            "config_dir": str(self.paths.config_dir),
            "log_dir": str(self.paths.log_dir),
            "ocr_engine": available_engine_name(),
            "llm_enabled": self.settings.llm_enabled,
            "llm_base_url": self.settings.llm_base_url,
            "counts": self.catalog.counts(),
            "catalog_rebuild": (self.rebuild_status() or {}).get("message") or "none in progress",
            "leftovers": self._leftovers_info(),
            "disk_free_gb": round(shutil.disk_usage(self.paths.data_dir).free / 1e9, 1),
        }
        if self.catalog.read_only:  # listed and searched as it is; changes are refused (catalog/store/read_only.py)
            info["read_only"] = "the data folder cannot be written: reads work, changes are refused"

        try:
            info["index"] = self.index.status()
        except Exception as exc:
            info["index"] = {"error": str(exc)}
        try:
            from cvrag_desktop.llm.health import probe

            h = probe(self.settings.llm_base_url)
            info["llm"] = h.model_dump()
        except Exception as exc:
            info["llm"] = {"reachable": False, "error": str(exc)}
        return info
