"""Batch ingestion: discover → hash/dedupe → copy → parse (worker pool) → store.

Parsing runs in worker processes (PyMuPDF is not thread-safe and the GIL would
serialise it); everything that writes (catalog, later the index) happens on the
calling thread, one file at a time — the serialized write lane. One bad file never
stops a batch: it gets a status and a reason. Files are marked ``processing``
before work starts, so a crash leaves them to be redone on the next run.

While a file is worked on, ``on_file`` also receives *phase events*: a
:class:`FileOutcome` with ``status="processing"`` and ``phase`` set (``reading``,
``ocr_wait``, ``ocr`` with ``step``/``steps`` = page n of m, ``indexing``). They are
not outcomes: the report neither lists nor counts them. A scan is read on the
sandbox's OCR lane, so it no longer holds up the files behind it.

Which files a batch takes is ``ingestion/discover.py``; what a worker does with one file is
``ingestion/parse_job.py``; this module is the writing side that runs them.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from cvrag_desktop.catalog import queries as catalog_queries
from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.library import (
    check_source,
    commit_copy,
    copy_into_library,
    discard_copy,
    preview_path,
)
from cvrag_desktop.config import AppPaths, IngestLimits
from cvrag_desktop.domain import Chunk, NormalizedCV
from cvrag_desktop.errors import CvragError
from cvrag_desktop.ingestion.discover import discover, display_path, import_roots
from cvrag_desktop.ingestion.parse_job import limit_message, parse_file, warm_worker
from cvrag_desktop.ingestion.preview.docx_preview import write_preview
from cvrag_desktop.ingestion.read.budget import plan_memory
from cvrag_desktop.ingestion.read.sandbox import shared_sandbox

log = logging.getLogger(__name__)
Progress = Callable[[int, int, str], None]


class FileOutcome(BaseModel):
    """What happened to one file of a batch."""

    path: str
    status: str
    error: str | None = None  # why it failed; for a file imported with a warning, that warning (shown beside it)
    warning: str | None = None  # imported, but not whole: "OCR read the first 10 of 100 pages; ..."
    candidate_id: str | None = None
    name: str | None = None
    pages: int | None = None
    seconds: float | None = None
    peak_rss_mb: float | None = None  # the parse worker's peak resident memory while it read this file
    # phase events only (status "processing"; never in the report): what is happening to the file now
    phase: str | None = Field(default=None, exclude=True)  # reading | ocr_wait | ocr | indexing
    step: int | None = Field(default=None, exclude=True)  # OCR: the page being read (1-based) ...
    steps: int | None = Field(default=None, exclude=True)  # ... of this many image-only pages


class IngestReport(BaseModel):
    """Summary of a batch (the CLI prints it as JSON)."""

    ingested: int = 0
    duplicates: int = 0
    failed: list[dict] = Field(default_factory=list)
    seconds: float = 0.0
    cancelled: bool = False
    files: list[FileOutcome] = Field(default_factory=list)
    warnings: list[dict] = Field(default_factory=list)  # imported files with a warning: {path, warning}
    llm_note: str | None = None  # the language model was marked down during the batch (llm/breaker.py)


class Ingestor:
    """Runs batches against one catalog; the GUI and the CLI share it through the application layer (``app/library.py``)."""

    def __init__(self, catalog: Catalog, paths: AppPaths, limits: IngestLimits, *, allow_ocr: bool = True,
                 llm_fill: Callable[[NormalizedCV, str], NormalizedCV] | None = None,
                 on_saved: Callable[[str], None] | None = None) -> None:
        self.catalog = catalog
        self.paths = paths
        self.limits = limits
        self.allow_ocr = allow_ocr
        self.llm_fill = llm_fill
        self.on_saved = on_saved

    def ingest(self, inputs: list[Path], *, workers: int = 1, progress: Progress | None = None,
               should_cancel: Callable[[], bool] | None = None,
               on_file: Callable[[FileOutcome], None] | None = None, as_of: dt.date | None = None) -> IngestReport:
        """Import files and folders; returns per-file outcomes. Pending files of a crashed run are redone."""
        started = time.perf_counter()
        report = IngestReport()
        files, skipped = discover(inputs)
        roots = import_roots(inputs)
        max_bytes = self.limits.max_file_mb * 1_000_000
        jobs: list[tuple[int, str, str, str]] = []  # file_id, sha, stored, display

        def finish(outcome: FileOutcome) -> None:
            report.files.append(outcome)
            if outcome.status == "done":
                report.ingested += 1
                if outcome.warning:
                    report.warnings.append({"path": outcome.path, "warning": outcome.warning})
            elif outcome.status == "duplicate":
                report.duplicates += 1
            elif outcome.status != "skipped":
                report.failed.append({"path": outcome.path, "status": outcome.status, "error": outcome.error})
            if on_file:
                on_file(outcome)

        for f, reason in skipped:
            finish(FileOutcome(path=display_path(f), status="skipped", error=reason))
        # stage 1 (this thread): check, copy into the library while hashing, dedupe, register as queued
        batch_shas: set[str] = set()
        library = self.paths.library_dir
        failed_paths = catalog_queries.unhashed_failure_paths(self.catalog)
        for f in files:
            shown = display_path(f)
            try:
                checked = check_source(f, roots, max_bytes)
                copied = copy_into_library(checked, library, max_bytes, display_path(Path(f.name)))
                sha = copied.sha
                if sha in batch_shas:
                    discard_copy(copied)
                    finish(FileOutcome(path=shown, status="duplicate",
                                       error="Same content as another file of this import."))
                    continue
                batch_shas.add(sha)
                row = self.catalog.file_by_sha(sha)
                if row is not None and row["status"] == "done":
                    discard_copy(copied)
                    finish(FileOutcome(path=shown, status="duplicate", candidate_id=row["candidate_id"],
                                       error="Already imported (same content)."))
                    continue
                stored = commit_copy(copied, library)
                file_id = self.catalog.upsert_file(sha=sha, original_path=shown, file_name=display_path(Path(f.name)),
                                                   size=copied.size, status="queued", stored_path=str(stored))
                if shown in failed_paths:
                    self._forget_failed_row(shown)
                jobs.append((file_id, sha, str(stored), shown))
            except CvragError as exc:
                self._record_failure(shown, exc.status, exc.message)
                finish(FileOutcome(path=shown, status=exc.status, error=exc.message))
        queued_ids = {j[0] for j in jobs}
        for row in self.catalog.files():  # resume: left queued/processing by an interrupted run
            if row["status"] in ("queued", "processing") and row["file_id"] not in queued_ids and row["stored_path"] \
                    and Path(row["stored_path"]).exists():
                jobs.append((row["file_id"], row["sha256"], row["stored_path"], row["original_path"]))
        total = len(files) + len(skipped) + len(jobs) - len(queued_ids)
        done = len(report.files)
        if progress:
            progress(done, total, "")
        self._run_jobs(jobs, workers, report, finish, progress, should_cancel, total, done, as_of, on_file)
        report.seconds = round(time.perf_counter() - started, 3)
        return report

    def _record_failure(self, shown: str, status: str, error: str) -> None:
        """A file refused before it had a hash: one row per path, updated on each run (not one per run)."""
        rows = catalog_queries.unhashed_failure_ids(self.catalog, shown)
        if rows:
            self.catalog.mark_file(rows[0], status=status, error=error, finished_at=time.time())
            if len(rows) > 1:  # rows duplicated by earlier versions
                catalog_queries.delete_unhashed_rows(self.catalog, rows[1:])
            return
        self.catalog.upsert_file(sha=None, original_path=shown, file_name=shown.rsplit("/", 1)[-1],
                                 size=None, status=status, error=error)

    def _forget_failed_row(self, shown: str) -> None:
        """A path that failed before (e.g. missing) and now imports: drop its stale failure row."""
        catalog_queries.delete_unhashed_path(self.catalog, shown)

    def _run_jobs(self, jobs, workers, report, finish, progress, should_cancel, total, done, as_of,
                  on_file=None) -> None:
        limits = self.limits.model_dump()
        as_of_s = as_of.isoformat() if as_of else None
        started = time.perf_counter()
        first_done = done
        if not jobs:
            return

        def on_start(job) -> None:
            self.catalog.mark_file(job[0], status="processing", started_at=time.time())

        def on_phase(job, phase: str, step: int | None = None, steps: int | None = None) -> None:
            if on_file:
                on_file(FileOutcome(path=job[3], status="processing", phase=phase, step=step, steps=steps))

        def on_result(job, result: dict) -> None:
            nonlocal done
            file_id, sha, stored, shown = job
            if result.get("ok"):
                on_phase(job, "indexing")  # catalog write (+ LLM pass) and the hand-off to the index lane
            if not result.get("ok"):
                original = shown.rsplit("/", 1)[-1]
                if not result.get("error"):
                    result["error"] = limit_message(original, result, self.limits)
                    if result.get("limit") == "crash" and result.get("exitcode") == -9:
                        result["status"] = "too_large"
                else:  # the worker read the library copy: name the user's file, not its hash
                    result["error"] = result["error"].replace(Path(stored).name, original)
            finish(self._store(file_id, sha, shown, result, stored))
            done += 1
            if progress:
                progress(done, total, progress_note(shown, done - first_done, total - done,
                                                    time.perf_counter() - started))

        # one budget for the tree: parent + parse workers + OCR worker (fewer workers when it is small)
        plan = plan_memory(self.limits.memory_budget_mb, max(1, workers), self.limits.max_worker_mb)
        if plan.note:
            log.info("memory budget: %s", plan.note)
        box = shared_sandbox(plan.workers, plan.parse_cap_mb, parse_file, warm_worker,
                             ocr_cap_mb=plan.ocr_cap_mb, ocr_pixels=plan.ocr_max_pixels, ocr_threads=plan.ocr_threads)
        # OCR is deferred to the sandbox's OCR lane (only when allowed: otherwise such a file is needs_ocr)
        tasks = [(job, (job[2], job[1][:16], limits, self.allow_ocr, as_of_s, self.allow_ocr)) for job in jobs]
        left = box.run(tasks, self.limits.max_seconds, on_result, should_cancel=should_cancel, on_start=on_start,
                       phase_s={"ocr": self.limits.max_ocr_seconds}, on_phase=on_phase)
        if left:
            report.cancelled = True
            self.catalog.mark_files([job[0] for job in left], status="queued")

    def _store(self, file_id: int, sha: str, shown: str, result: dict, stored: str | None = None) -> FileOutcome:
        """Write one parse result to the catalog (serialized lane); a rejected file's library copy is removed."""
        seconds = round(result.get("seconds", 0.0), 3)
        if not result["ok"]:
            self.catalog.mark_file(file_id, status=result["status"], error=result["error"],
                                   finished_at=time.time(), seconds=seconds, stored_path=None)
            if stored:
                Path(stored).unlink(missing_ok=True)
            return FileOutcome(path=shown, status=result["status"], error=result["error"], seconds=seconds,
                               peak_rss_mb=result.get("peak_rss_mb"))
        cv = NormalizedCV.model_validate_json(result["cv"])
        if self.llm_fill is not None:
            try:
                cv = self.llm_fill(cv, result["text"])
            except CvragError as exc:
                log.info("LLM pass skipped for %s: %s", shown, exc.message)
        candidate_id = sha[:16]
        chunks = [Chunk(**c) for c in result["chunks"]]
        self.catalog.save_candidate(candidate_id, sha, cv, chunks, file_id, pages=result["pages"],
                                    method=result["method"], finished_at=time.time(), seconds=seconds)
        if result.get("preview_pdf") and stored:  # after the row: a forget always knows the preview
            self._keep_preview(Path(stored), result["preview_pdf"], shown)
        warning = " ".join(result.get("warnings") or []) or None
        if warning:  # kept with the file's record: the import queue shows it after a restart too
            self.catalog.mark_file(file_id, error=warning)
        if self.on_saved:
            self.on_saved(candidate_id)
        return FileOutcome(path=shown, status="done", candidate_id=candidate_id, name=cv.name,
                           pages=result["pages"], seconds=seconds, peak_rss_mb=result.get("peak_rss_mb"),
                           error=warning, warning=warning)

    @staticmethod
    def _keep_preview(stored: Path, pdf: bytes, shown: str) -> None:
        """Write a Word copy's preview beside the library (``<data>/previews/<sha>.pdf``); a failure is logged."""
        try:
            write_preview(preview_path(stored), pdf)
        except OSError as exc:  # the record is still good: the preview is made again on first view
            log.warning("the preview of %s could not be written (%s)", shown, exc)


def progress_note(shown: str, finished: int, remaining: int, elapsed: float) -> str:
    """"cv.pdf · about 12 s left": the file just finished and an ETA from the rate so far."""
    name = shown.rsplit("/", 1)[-1]
    if finished <= 0 or remaining <= 0:
        return name
    eta = elapsed / finished * remaining
    return f"{name} · about {eta:.0f} s left" if eta < 120 else f"{name} · about {eta / 60:.0f} min left"
