"""Batch ingestion: discover → hash/dedupe → copy → parse (worker pool) → store.

Parsing runs in worker processes (PyMuPDF is not thread-safe and the GIL would
serialise it); everything that writes (catalog, later the index) happens on the
calling thread, one file at a time — the serialized write lane. One bad file never
stops a batch: it gets a status and a reason. Files are marked ``processing``
before work starts, so a crash leaves them to be redone on the next run.
"""

from __future__ import annotations

import atexit
import concurrent.futures as cf
import datetime as dt
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.library import sha256_file, store_copy
from cvrag_desktop.config import AppPaths, IngestLimits
from cvrag_desktop.domain import NormalizedCV
from cvrag_desktop.errors import CvragError

log = logging.getLogger(__name__)
SUPPORTED = (".pdf", ".docx")
Progress = Callable[[int, int, str], None]


class FileOutcome(BaseModel):
    """What happened to one file of a batch."""

    path: str
    status: str
    error: str | None = None
    candidate_id: str | None = None
    name: str | None = None
    pages: int | None = None
    seconds: float | None = None


class IngestReport(BaseModel):
    """Summary of a batch (the CLI prints it as JSON)."""

    ingested: int = 0
    duplicates: int = 0
    failed: list[dict] = Field(default_factory=list)
    seconds: float = 0.0
    cancelled: bool = False
    files: list[FileOutcome] = Field(default_factory=list)


def display_path(path: Path) -> str:
    """A printable form of a path, even when its name is not valid UTF-8."""
    return os.fsencode(path).decode("utf-8", "replace")


def discover(paths: list[Path]) -> list[Path]:
    """Files to import: given files as-is, folders searched recursively for PDF/DOCX."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                if f.is_file() and f.suffix.lower() in SUPPORTED and not f.name.startswith(("~$", ".")):
                    out.append(f)
        else:
            out.append(p)
    seen: set[str] = set()
    unique = []
    for f in out:
        key = os.fsencode(f.resolve() if f.exists() else f)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique


def parse_file(stored: str, candidate_id: str, limits: dict, allow_ocr: bool, as_of: str | None) -> dict:
    """Extract, normalize and chunk one stored file (runs in a worker process; pure)."""
    from cvrag_desktop.ingestion.chunking import build_chunks
    from cvrag_desktop.ingestion.extract import extract_document
    from cvrag_desktop.ingestion.normalize import normalize_document

    started = time.perf_counter()
    try:
        doc = extract_document(Path(stored), IngestLimits(**limits), allow_ocr=allow_ocr)
        cv, blocks = normalize_document(doc, dt.date.fromisoformat(as_of) if as_of else None)
        if not (cv.name or cv.emails or cv.experiences or cv.education):
            from cvrag_desktop.errors import NoCvContent

            raise NoCvContent("No name, contact, work history or education could be read from this file.")
        chunks = build_chunks(candidate_id, cv, doc, blocks)
    except CvragError as exc:
        return {"ok": False, "status": exc.status, "error": exc.message, "seconds": time.perf_counter() - started}
    except Exception as exc:  # a parser bug must not take the batch down
        log.exception("unexpected failure parsing %s", stored)
        return {"ok": False, "status": "failed", "error": f"Unexpected error: {exc!r}",
                "seconds": time.perf_counter() - started}
    return {
        "ok": True,
        "cv": cv.model_dump_json(),
        "chunks": [c.model_dump() for c in chunks],
        "pages": doc.page_count,
        "method": doc.method,
        "text": doc.text,
        "seconds": time.perf_counter() - started,
    }


_POOLS: dict[int, cf.ProcessPoolExecutor] = {}


def _warm_worker() -> None:
    """Import the parsers and load the vocabularies once per worker process."""
    from cvrag_desktop.ingestion import chunking, normalize  # noqa: F401
    from cvrag_desktop.ingestion.lexicon import load_lexicon

    load_lexicon()


def worker_pool(workers: int) -> cf.ProcessPoolExecutor:
    """A process pool kept for the session (spawned, so it is safe beside GUI threads)."""
    pool = _POOLS.get(workers)
    if pool is None:
        ctx = multiprocessing.get_context("spawn")
        pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_warm_worker)
        _POOLS[workers] = pool
        atexit.register(pool.shutdown, wait=False, cancel_futures=True)
    return pool


def parse_files(items: list[tuple[str, str]], limits: dict, allow_ocr: bool, as_of: str | None) -> list[dict]:
    """Parse several stored files in one worker round trip (see :func:`parse_file`)."""
    return [parse_file(stored, cid, limits, allow_ocr, as_of) for stored, cid in items]


class Ingestor:
    """Runs batches against one catalog; the GUI and the CLI share it through ``services``."""

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
        files = discover(inputs)
        jobs: list[tuple[int, str, str, str]] = []  # file_id, sha, stored, display

        def finish(outcome: FileOutcome) -> None:
            report.files.append(outcome)
            if outcome.status == "done":
                report.ingested += 1
            elif outcome.status == "duplicate":
                report.duplicates += 1
            else:
                report.failed.append({"path": outcome.path, "status": outcome.status, "error": outcome.error})
            if on_file:
                on_file(outcome)

        # stage 1 (this thread): hash, dedupe, copy into the library, register as queued
        batch_shas: set[str] = set()
        for f in files:
            shown = display_path(f)
            try:
                sha = sha256_file(f)
                if sha in batch_shas:
                    finish(FileOutcome(path=shown, status="duplicate",
                                       error="Same content as another file of this import."))
                    continue
                batch_shas.add(sha)
                row = self.catalog.file_by_sha(sha)
                if row is not None and row["status"] == "done":
                    finish(FileOutcome(path=shown, status="duplicate", candidate_id=row["candidate_id"],
                                       error="Already imported (same content)."))
                    continue
                stored = store_copy(f, sha, self.paths.library_dir)
                file_id = self.catalog.upsert_file(sha=sha, original_path=shown, file_name=display_path(Path(f.name)),
                                                   size=f.stat().st_size, status="queued", stored_path=str(stored))
                jobs.append((file_id, sha, str(stored), shown))
            except CvragError as exc:
                self.catalog.upsert_file(sha=None, original_path=shown, file_name=shown.rsplit("/", 1)[-1],
                                         size=None, status=exc.status, error=exc.message)
                finish(FileOutcome(path=shown, status=exc.status, error=exc.message))
        queued_ids = {j[0] for j in jobs}
        for row in self.catalog.files():  # resume: left queued/processing by an interrupted run
            if row["status"] in ("queued", "processing") and row["file_id"] not in queued_ids and row["stored_path"] \
                    and Path(row["stored_path"]).exists():
                jobs.append((row["file_id"], row["sha256"], row["stored_path"], row["original_path"]))
        total = len(files) + len(jobs) - len(queued_ids)
        done = len(report.files)
        if progress:
            progress(done, total, "")
        self._run_jobs(jobs, workers, report, finish, progress, should_cancel, total, done, as_of)
        report.seconds = round(time.perf_counter() - started, 3)
        return report

    def _run_jobs(self, jobs, workers, report, finish, progress, should_cancel, total, done, as_of) -> None:
        limits = self.limits.model_dump()
        as_of_s = as_of.isoformat() if as_of else None

        started = time.perf_counter()
        first_done = done

        def handle(job, result: dict) -> None:
            nonlocal done
            file_id, sha, _stored, shown = job
            finish(self._store(file_id, sha, shown, result))
            done += 1
            if progress:
                progress(done, total, progress_note(shown, done - first_done, total - done,
                                                    time.perf_counter() - started))

        def cancelled() -> bool:
            return bool(should_cancel and should_cancel())

        if workers <= 1 or len(jobs) <= 1:
            for job in jobs:
                if cancelled():
                    report.cancelled = True
                    break
                self.catalog.mark_file(job[0], status="processing", started_at=time.time())
                handle(job, parse_file(job[2], job[1][:16], limits, self.allow_ocr, as_of_s))
            return
        pool = worker_pool(workers)  # outlives the batch: worker start-up is paid once per session
        per_task = max(1, min(8, len(jobs) // (workers * 4)))  # fewer round trips for big batches
        pending: dict[cf.Future, list[tuple]] = {}
        queue = list(jobs)
        while queue or pending:
            while queue and len(pending) < workers * 2 and not cancelled():
                batch, queue = queue[:per_task], queue[per_task:]
                self.catalog.mark_files([j[0] for j in batch], status="processing", started_at=time.time())
                args = [(j[2], j[1][:16]) for j in batch]
                pending[pool.submit(parse_files, args, limits, self.allow_ocr, as_of_s)] = batch
            if cancelled():
                report.cancelled = True
                queue.clear()
            if not pending:
                break
            finished, _ = cf.wait(pending, timeout=0.2, return_when=cf.FIRST_COMPLETED)
            for fut in finished:
                batch = pending.pop(fut)
                try:
                    results = fut.result()
                except Exception as exc:  # worker died (e.g. out of memory)
                    _POOLS.pop(workers, None)
                    results = [{"ok": False, "status": "failed", "error": f"Worker crashed: {exc!r}", "seconds": 0}
                               for _ in batch]
                for job, result in zip(batch, results, strict=True):
                    handle(job, result)
        if report.cancelled:
            for job in jobs:
                row = self.catalog.query("SELECT status FROM files WHERE file_id = ?", (job[0],))
                if row and row[0]["status"] in ("processing",):
                    self.catalog.mark_file(job[0], status="queued")

    def _store(self, file_id: int, sha: str, shown: str, result: dict) -> FileOutcome:
        """Write one parse result to the catalog (serialized lane)."""
        seconds = round(result.get("seconds", 0.0), 3)
        if not result["ok"]:
            self.catalog.mark_file(file_id, status=result["status"], error=result["error"],
                                   finished_at=time.time(), seconds=seconds)
            return FileOutcome(path=shown, status=result["status"], error=result["error"], seconds=seconds)
        from cvrag_desktop.domain import Chunk

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
        if self.on_saved:
            self.on_saved(candidate_id)
        return FileOutcome(path=shown, status="done", candidate_id=candidate_id, name=cv.name,
                           pages=result["pages"], seconds=seconds)


def progress_note(shown: str, finished: int, remaining: int, elapsed: float) -> str:
    """"cv.pdf · about 12 s left": the file just finished and an ETA from the rate so far."""
    name = shown.rsplit("/", 1)[-1]
    if finished <= 0 or remaining <= 0:
        return name
    eta = elapsed / finished * remaining
    return f"{name} · about {eta:.0f} s left" if eta < 120 else f"{name} · about {eta / 60:.0f} min left"
