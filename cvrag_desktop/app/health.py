"""Settings and health: the doctor's facts, the language model's state, the status bar, diagnostics, previews.

Everything a front end shows about the installation itself (where data lives, which
optional parts work, whether a model answers) rather than about candidates.
"""

from __future__ import annotations

import logging
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING

from cvrag_desktop.app.types import WarmUp
from cvrag_desktop.catalog.compliance.leftovers import RETENTION_DAYS
from cvrag_desktop.config import save_settings
from cvrag_desktop.diagnostics import export_diagnostics, first_run_report
from cvrag_desktop.ingestion.preview.docx_preview import preview_for_view, translate_boxes
from cvrag_desktop.ingestion.read.ocr import available_engine_name
from cvrag_desktop.llm import DEFAULT_ALIAS, get_route
from cvrag_desktop.llm.breaker import BREAKER
from cvrag_desktop.llm.health import clear_probe_cache, probe, probe_uncached

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.config import Settings

log = logging.getLogger(__name__)


class HealthOps:
    """Doctor, language-model status, status-bar facts, start-up warm-up, settings, diagnostics, previews."""

    def __init__(self, app: App) -> None:
        self._app = app

    def llm_status(self) -> str | None:
        """Why the language model is not being asked right now (marked down by the circuit breaker), or None.

        The import summary and the GUI status bar show it: the import went on without the model.
        """
        try:
            endpoint = get_route(DEFAULT_ALIAS, base_url=self._app.settings.llm_base_url).api_base
        except Exception:  # an unreadable model config: nothing was asked, nothing is down
            return None
        return BREAKER.status(endpoint)

    def _leftovers_info(self) -> dict:
        items = self._app.library.leftovers()
        return {"retention_days": RETENTION_DAYS, "items": items,
                "purge": "cvrag doctor --purge-leftovers" if items else None,
                "note": "set-aside copies are removed when their retention ends, and forgetting a person "
                        "scrubs or removes them too"}

    def doctor(self) -> dict:
        """Where data lives, which optional parts are available, what the catalog holds."""
        app = self._app
        info: dict = {
            "data_dir": str(app.paths.data_dir),
            "config_dir": str(app.paths.config_dir),
            "log_dir": str(app.paths.log_dir),
            "ocr_engine": available_engine_name(),
            "llm_enabled": app.settings.llm_enabled,
            "llm_base_url": app.settings.llm_base_url,
            "counts": app.catalog.counts(),
            "catalog_rebuild": (app.library.rebuild_status() or {}).get("message") or "none in progress",
            "leftovers": self._leftovers_info(),
            "disk_free_gb": round(shutil.disk_usage(app.paths.data_dir).free / 1e9, 1),
        }
        if app.catalog.read_only:  # listed and searched as it is; changes are refused (catalog/store/read_only.py)
            info["read_only"] = "the data folder cannot be written: reads work, changes are refused"

        try:
            info["index"] = app.index.status()
        except Exception as exc:
            info["index"] = {"error": str(exc)}
        try:
            h = probe(app.settings.llm_base_url)
            info["llm"] = h.model_dump()
        except Exception as exc:
            info["llm"] = {"reachable": False, "error": str(exc)}
        return info

    def first_run_report(self) -> dict:
        """``doctor()`` plus the models found, the OCR engine, the LLM state with a fix, where data lives."""
        return first_run_report(self._app)

    def export_diagnostics(self, out: Path) -> Path:
        """Write a zip of versions, settings, doctor facts and logs (no CV text) for support."""
        return export_diagnostics(self._app, Path(out))

    # ---- the status bar (runs in a worker) --------------------------------------------------
    def status_info(self) -> dict:
        """What the status bar shows, in the shape of ``doctor()`` (runs in a worker).

        Not ``doctor()`` itself: it also constructs the OCR engine, whose first import
        (OpenCV's native module) holds the GIL for 150–220 ms and would freeze the window;
        OCR runs in the import's worker processes, so the GUI process never needs it.
        """
        app = self._app
        info: dict = {"counts": app.catalog.counts()}
        try:  # people, as the Candidates pane counts them (a person with two CVs is one candidate)
            info["people"] = len(app.people.list_people())
        except Exception:
            info["people"] = None
        try:
            info["index"] = app.index.status()
        except Exception as exc:
            info["index"] = {"error": str(exc)}
        partial = app.library.rebuild_status()  # a partial rebuild must not pass for the whole library
        info["catalog_incomplete"] = partial["message"] if partial else None
        return info | self.llm_info()

    def llm_info(self) -> dict:
        """The language-model part of the status alone: a short HTTP probe, answered before the index opens."""
        settings = self._app.settings
        info: dict = {"llm_enabled": settings.llm_enabled, "llm_base_url": settings.llm_base_url}
        try:
            info["llm"] = probe(settings.llm_base_url).model_dump()
        except Exception as exc:
            info["llm"] = {"reachable": False, "error": str(exc)}
        info["llm_down"] = self.llm_status()
        return info

    def warm_up(self) -> WarmUp:
        """Open everything the first minutes need, one step after the other (runs in one worker).

        Index, embedding models, assistant, the language-model probe (imports LiteLLM) and the
        status-bar facts: doing them in sequence in a single worker keeps at most one thread
        busy with imports and module initialisation, which hold the GIL, so the GUI thread
        keeps its turn. Returns ``timings`` (ms), ``doctor`` (for the status bar) and
        ``llm_up``; a failure is logged by type only and reported as ``error``.
        """
        app = self._app
        timings: dict[str, int] = {}
        out: WarmUp = {"timings": timings}
        steps = (
            ("index_ms", app.library.open_index),
            ("models_ms", lambda: app.search.search("warm up", None, 1, "hybrid")),  # loads dense + sparse models
            ("assistant_ms", app.chat.open),
            ("llm_ms", lambda: out.__setitem__("llm_up", app.chat.llm_available())),
            ("status_ms", lambda: out.__setitem__("doctor", self.status_info())),
        )
        for name, step in steps:
            t0 = time.perf_counter()
            try:
                step()
            except Exception as exc:  # the panes report their own errors when used
                log.warning("warm-up step %s failed: %s", name, type(exc).__name__)
                out["error"] = type(exc).__name__
            timings[name] = round((time.perf_counter() - t0) * 1000)
        return out

    # ---- settings ---------------------------------------------------------------------------
    def save_settings(self, settings: Settings) -> None:
        """Persist ``settings`` in the config folder and use them in this session from now on.

        A change of what ranks or answers (the model, its endpoint, the index) is audited.
        """
        with self._app.audit.held():  # (the file holds the trail's anchor: no append of ours in between)
            changed = save_settings(settings, self._app.paths)
        if changed:  # (the home's one trail: its head is anchored in the catalog and the settings)
            self._app.audit.record("settings.change", details={"changed": changed,
                                                               "llm_enabled": settings.llm_enabled})
        self._app.settings = settings

    def probe_endpoint(self, url: str):
        """Ask a language-model endpoint now (no cached answer): reachable, models, aliases, error."""
        return probe_uncached(url)

    def forget_probe_answers(self) -> None:
        """Drop the cached endpoint answers (after the settings changed, the next probe asks again)."""
        clear_probe_cache()


def document_preview(stored: str, page: int | None = 0, bbox=None) -> tuple[str, int, tuple | None]:
    """The PDF to preview for a library copy, with ``page``/``bbox`` as they apply to it (runs in a worker).

    A PDF is its own preview. A Word copy's preview PDF (made at import) is made now when
    missing, and a box from a record imported before previews is translated onto it
    (``ingestion/preview/docx_preview.py``); an unreadable file raises its typed error.
    """
    if Path(stored).suffix.lower() != ".docx":
        return stored, page or 0, tuple(bbox) if bbox else None
    return preview_for_view(stored, page, bbox)

def document_preview_boxes(stored: str, boxes: list) -> list:
    """``(page, bbox)`` boxes of a record as they fall on its preview (blind screening's black boxes).

    Only a Word record imported before previews needs translating; anything else is returned as is.
    """
    if Path(stored).suffix.lower() != ".docx" or not boxes:
        return list(boxes)
    return translate_boxes(stored, boxes)
