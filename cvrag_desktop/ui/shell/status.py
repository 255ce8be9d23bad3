"""Status bar: candidate count, index state and language-model state.

The facts (``app.health.status_info()``, which probes the LLM endpoint) are gathered in a
worker, never on the GUI thread; the bar refreshes on a timer and after imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QLabel, QStatusBar

from cvrag_desktop.ui.shell.tasks import TaskRunner

REFRESH_MS = 30_000
TASK = "status"


def llm_text(info: dict) -> tuple[str, str]:
    """Label and tooltip for the LLM part, from ``doctor()``."""
    llm = info.get("llm") or {}
    if not info.get("llm_enabled", True):
        return "No language model (disabled) — deterministic mode", "Enable it in Settings."
    if info.get("llm_down"):  # the circuit breaker (llm/breaker.py), read through services.health.llm_status()
        return "LLM marked down — deterministic mode", info["llm_down"]
    if not llm.get("reachable"):
        return ("No language model — deterministic mode",
                f"Nothing answered at {info.get('llm_base_url')}: {llm.get('error') or 'no answer'}")
    aliases = llm.get("aliases") or {}
    models = llm.get("alias_models") or {}
    usable = [models.get(a, a) for a, ok in aliases.items() if ok]
    if not usable:
        return ("LLM reachable, models missing — deterministic mode",
                "Installed: " + ", ".join(llm.get("models") or []) or "none")
    return f"LLM: {', '.join(sorted(set(usable)))}", f"Ollama at {info.get('llm_base_url')}"


def status_info(app: App) -> dict:
    """What the bar shows, in the shape of ``doctor()`` (runs in a worker; see ``app.health.status_info``)."""
    return app.health.status_info()


def llm_info(app: App) -> dict:
    """The language-model part of the status alone (runs in a worker): a short HTTP probe, so the
    bar's "LLM: checking…" is answered at once instead of after the index has opened."""
    return app.health.llm_info()


def index_text(info: dict) -> tuple[str, str]:
    """Label and tooltip for the index part (the search index may not be built into this version)."""
    index = info.get("index")
    if not index:
        return "Index: not available", "Hybrid search is not part of this build; the table filters by text."
    if isinstance(index, dict):
        if index.get("error"):
            return "Index: needs rebuild", str(index.get("error"))
        points = index.get("points")
        where = index.get("location") or ""
        return (f"Index: {points} chunks" if points is not None else "Index: ready"), str(where)
    return f"Index: {index}", ""


class AppStatusBar(QStatusBar):
    """Three permanent labels refreshed from ``doctor()`` in a worker."""

    refreshed = Signal(dict)

    def __init__(self, services: App, runner: TaskRunner, parent=None) -> None:
        super().__init__(parent)
        self.services = services
        self.runner = runner
        self.info: dict | None = None
        self.people: int | None = None  # people in the library, as the Candidates pane counts them
        self.candidates = QLabel("… candidates")
        self.index = QLabel("Index: …")
        self.llm = QLabel("LLM: checking…")
        for w in (self.candidates, self.index, self.llm):
            self.addPermanentWidget(w)
        self.timer = QTimer(self, interval=REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.timer.start()

    def refresh(self) -> None:
        """Ask ``doctor()`` again (a newer refresh supersedes a running one)."""
        svc = self.services

        self.runner.start(TASK, lambda ctx: status_info(svc), on_result=self.show_info, on_error=self._failed)
        if self.info is None:  # the first time: the model's state must not wait for the index to open
            self.runner.start(TASK + "-llm", lambda ctx: llm_info(svc), on_result=self._show_llm)

    def _show_llm(self, info: dict) -> None:
        if self.info is None:  # the full status has not come yet (it would be as new or newer)
            self._set_llm(info)

    def _set_llm(self, info: dict) -> None:
        text, tip = llm_text(info)
        self.llm.setText(text)
        self.llm.setToolTip(tip)

    def show_info(self, info: dict) -> None:
        """Show a ``doctor()`` result."""
        self.info = info
        counts = info.get("counts") or {}
        docs = counts.get("candidates", 0)
        if info.get("people") is not None:
            self.people = info["people"]
        n = docs if self.people is None else self.people  # doctor()'s info has no people count: the last one known stays
        problems = sum(v for k, v in counts.items() if k.startswith("files_") and k not in ("files_done",))
        partial = info.get("catalog_incomplete")
        self.candidates.setText(f"{n} candidate{'s' if n != 1 else ''}" + (" — catalog INCOMPLETE" if partial else ""))
        self.candidates.setStyleSheet("color: #b45309; font-weight: bold;" if partial else "")
        tips = [partial] if partial else []
        tips += [f"{docs} CV document(s)"] if docs != n else []
        tips += [f"{problems} file(s) not imported (see the Import pane)"] if problems else []
        self.candidates.setToolTip("; ".join(tips))
        text, tip = index_text(info)
        self.index.setText(text)
        self.index.setToolTip(tip)
        self._set_llm(info)
        self.refreshed.emit(info)

    def _failed(self, exc: BaseException) -> None:
        self.llm.setText("Status unavailable")
        self.llm.setToolTip(str(exc))
