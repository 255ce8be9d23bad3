"""Library and import: bring CVs in, see what failed, repair the catalog, rebuild the index, generate samples.

Long operations take plain ``progress(done, total, note)`` and ``should_cancel()`` callables
so any front end can drive them from a worker thread.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cvrag_desktop.app.forgetting import forget
from cvrag_desktop.app.types import ForgetReport, Progress, RebuildReport, ShouldCancel
from cvrag_desktop.catalog.compliance.leftovers import find_leftovers, purge_leftovers
from cvrag_desktop.catalog.store import rebuild
from cvrag_desktop.catalog.store.disk_space import INDEX_ROOM_MB, ensure_room
from cvrag_desktop.catalog.store.read_only import refuse
from cvrag_desktop.catalog.store.rebuild import rebuild_state
from cvrag_desktop.errors import DiskFull, InvalidInput
from cvrag_desktop.factory.profiles import factory_data
from cvrag_desktop.ingestion.llm_fill import fill_gaps
from cvrag_desktop.ingestion.pipeline import FileOutcome, Ingestor, IngestReport
from cvrag_desktop.llm.breaker import BREAKER
from cvrag_desktop.llm.health import probe

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

log = logging.getLogger(__name__)
__all__ = ["FileOutcome", "IngestReport", "LibraryOps", "generator_choices"]


class LibraryOps:
    """Import, failed files, catalog rebuild, set-aside leftovers, reindex and the CV generator."""

    def __init__(self, app: App) -> None:
        self._app = app

    def _llm_fill(self) -> Callable | None:
        """The optional LLM gap-filling pass, when enabled and an endpoint answers."""
        settings = self._app.settings
        if not settings.llm_enabled:
            return None
        try:
            health = probe(settings.llm_base_url)
            if not health.reachable:
                return None
        except Exception as exc:  # LLM stack missing or broken: deterministic mode
            log.info("LLM pass unavailable: %s", exc)
            return None

        def fill(cv, text):
            merged, _notes = fill_gaps(cv, text)
            return merged

        return fill

    def ingest(self, inputs: list[Path], *, use_llm: bool = True, workers: int | None = None,
               progress: Progress | None = None, should_cancel: ShouldCancel | None = None,
               on_file: Callable[[FileOutcome], None] | None = None) -> IngestReport:
        """Import files/folders into the catalog and index them (see :class:`Ingestor`)."""
        app = self._app
        if not inputs:
            raise InvalidInput("Give at least one file or folder to import.")
        missing = [str(p) for p in inputs if not p.exists()]
        if missing and len(missing) == len(inputs):
            raise InvalidInput(f"Nothing to import: {', '.join(missing)} does not exist.")
        ensure_room(app.paths.data_dir, "the import did not start", INDEX_ROOM_MB)  # (catalog/store/disk_space.py)
        started = time.perf_counter()
        index = app.index
        ingestor = Ingestor(
            app.catalog, app.paths, app.settings.limits, allow_ocr=app.settings.ocr_enabled,
            llm_fill=self._llm_fill() if use_llm else None, on_saved=index.enqueue,
        )
        with BREAKER.batch():  # a model that hangs on one file is not waited for again in this batch
            report = ingestor.ingest(inputs, workers=workers or app.settings.workers, progress=progress,
                                     should_cancel=should_cancel, on_file=on_file)
            report.llm_note = app.health.llm_status() if ingestor.llm_fill is not None else None
        index.wait_idle()
        index.flush()  # an index that could not save the import is a failure (typed), not a success
        report.seconds = round(time.perf_counter() - started, 2)  # the whole import, indexing included
        if getattr(index, "disk_full", None) is not None:  # the catalog holds them; the index could not grow
            raise DiskFull(f"{index.disk_full.message} {report.ingested} CV(s) were imported, {index.unindexed} of "
                           "them are not searchable yet: they are indexed at the next start once space is freed "
                           "(or run `cvrag reindex`).")
        return report

    def resume_pending(self, **kwargs) -> IngestReport:
        """Finish files an interrupted import left queued or processing."""
        app = self._app
        index = app.index
        ingestor = Ingestor(app.catalog, app.paths, app.settings.limits, allow_ocr=app.settings.ocr_enabled,
                            on_saved=index.enqueue)
        report = ingestor.ingest([], **kwargs)
        index.wait_idle()
        return report

    def open_catalog(self) -> None:
        """Open the catalog now: a damaged or missing one raises its typed error here (the repair offer)."""
        _ = self._app.catalog

    def open_index(self) -> None:
        """Open the search index now (it is reconciled with the catalog on first opening)."""
        _ = self._app.index

    def files(self, status: str | None = None) -> list[dict]:
        """Imported files with their status and error."""
        return self._app.catalog.files(status)

    def failed_files(self) -> list[dict]:
        """Files whose import failed (any status but done / queued / processing)."""
        return [f for f in self._app.catalog.files() if f["status"] not in ("done", "queued", "processing")]

    def forget_failed(self) -> ForgetReport:
        """Remove failed imports: their catalog rows and library copies (``cvrag forget --failed``)."""
        failed = self.failed_files()
        report = forget(self._app, [], [f["file_id"] for f in failed])
        report["files"] = [{"file_name": f["file_name"], "status": f["status"]} for f in failed]
        return report

    def counts(self) -> dict:
        """How many files (per status), candidates and chunks the catalog holds."""
        return self._app.catalog.counts()

    def backup_catalog(self):
        """Write a catalog backup now (the last few are kept); its path, or None when none was written."""
        return self._app.catalog.backup_now()

    def rebuild_catalog(self, progress: Progress | None = None,
                        should_cancel: ShouldCancel | None = None) -> RebuildReport:
        """Rebuild a missing, empty or damaged catalog by re-importing every file in the library.

        The damaged file is moved aside once (``catalog.damaged-<time>.sqlite3``, a leftover with a
        retention: ``catalog/compliance/leftovers.py``). An interrupted rebuild is continued, not set aside
        again, and the catalog says it is incomplete until every library file was imported
        (``catalog/store/rebuild.py``).
        """
        app = self._app
        start = app.replace_catalog(lambda: rebuild.start_rebuild(app.paths.catalog_db, app.paths.library_dir))
        # the library copies are the inputs (content-addressed: importing one copies nothing)
        report = self.ingest([app.paths.library_dir], use_llm=False, progress=progress, should_cancel=should_cancel)
        finished = rebuild.finish_rebuild(app.catalog, app.paths.library_dir, report.cancelled)
        return {"library_files": start.library_files, "ingested": report.ingested, "duplicates": report.duplicates,
                "failed": report.failed, "resumed": start.resumed, "complete": finished,
                "damaged_catalog_kept_as": (str(app.paths.data_dir / start.aside)
                                            if rebuild.was_damaged(start.aside) else None),
                "previous_catalog_kept_as": (str(app.paths.data_dir / start.aside)
                                             if rebuild.was_damaged(start.aside) is False else None),
                "incomplete": None if finished else (rebuild.rebuild_state(app.catalog) or {}).get("message")}

    def rebuild_status(self) -> dict | None:
        """An interrupted catalog rebuild (counts and what to run), or None when the catalog is whole."""
        return rebuild_state(self._app.catalog)

    def reindex(self, progress: Progress | None = None, optimize: bool = False) -> dict:
        """Rebuild the search index from the catalog (``optimize`` seals it: only in a process of its own)."""
        return self._app.index.rebuild(progress=progress, optimize=optimize)

    # ---- leftovers (set-aside copies: forgotten with the person, expire after a retention) ----
    def leftovers(self) -> list[dict]:
        """Copies a repair or crash set aside (damaged catalog / conversations / index, import temps)."""
        data_dir = self._app.paths.data_dir
        return [x.as_dict(data_dir) for x in find_leftovers(data_dir)]

    def purge_leftovers(self) -> list[dict]:
        """Remove every set-aside copy now (``cvrag doctor --purge-leftovers``); returns what went."""
        data_dir = self._app.paths.data_dir
        if self._app.catalog.read_only and self.leftovers():
            raise refuse(data_dir, "the set-aside copies cannot be removed from it")
        return [x.as_dict(data_dir) for x in purge_leftovers(data_dir, expired_only=False)]

    # ---- generator ---------------------------------------------------------------------
    def generate(self, count: int, seed: int, out_dir: Path, *, locale: str = "es_ES", layout: str = "mixed",
                 use_llm: bool = False, progress: Progress | None = None,
                 should_cancel: ShouldCancel | None = None) -> dict:
        """Write synthetic CVs with ground truth (see ``factory.pipeline.generate_batch``)."""
        from cvrag_desktop.factory.pipeline import generate_batch

        report = generate_batch(count, seed, out_dir, locale=locale, layout=layout, use_llm=use_llm,
                                progress=progress, should_cancel=should_cancel)
        return report.model_dump()


def generator_choices() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The locales and layouts the CV generator knows, each after "mixed" (read on demand, so a new
    layout or locale pack shows up without editing a front end)."""
    from cvrag_desktop.factory.render import LAYOUTS

    return ("mixed", *factory_data().locales), ("mixed", *LAYOUTS)
