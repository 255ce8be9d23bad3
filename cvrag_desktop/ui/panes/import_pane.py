"""Import pane: drop files or folders, watch the queue, cancel, retry failures, resume.

The whole batch runs in one worker calling ``services.ingest`` (parsing itself is
spread over worker processes by the pipeline; catalog writes stay serialized there).
Per-file outcomes arrive through ``on_file`` and update the queue table; the GUI
thread only moves rows. On start-up :meth:`ImportPane.resume_interrupted` finishes
what a closed or crashed session left queued (``services.resume_pending``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

import time
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from cvrag_desktop.ui.importing.import_files import (  # noqa: F401 (SUPPORTED re-exported)
    SUPPORTED,
    list_import_files,
    mark_generated,
    name_the_original,
)
from cvrag_desktop.ui.importing.import_progress import ImportProgress, format_eta  # noqa: F401 (format_eta re-exported)
from cvrag_desktop.ui.models.import_queue import ImportQueueModel, status_label
from cvrag_desktop.ui.panes.import_sources import ImportSources
from cvrag_desktop.ui.shell import core
from cvrag_desktop.ui.shell.errors import InlineMessage, report_error
from cvrag_desktop.ui.shell.tasks import TaskContext, TaskRunner

TASK = "import"
POLL = "import-poll"
POLL_MS = 2500  # how often the files being read are looked up (a worker; each look costs the GUI a repaint)


class ImportPane(ImportSources, QWidget):
    """Drag-and-drop import with a live queue, progress, ETA, cancel and retry."""

    batch_finished = Signal(object)  # IngestReport, or None when cancelled/failed
    candidates_changed = Signal()
    forgot_failed = Signal(object)  # the forget report of "Forget failed…"

    def __init__(self, services: App, runner: TaskRunner, qsettings: QSettings | None = None, parent=None) -> None:
        super().__init__(parent)
        self.services = services
        self.runner = runner
        self.qsettings = qsettings
        self.model = ImportQueueModel(self)
        self._pending_inputs: list[Path] = []
        self._started = 0.0
        self._dirty = False
        self.last_report = None  # the IngestReport of the last batch that finished
        self.setAcceptDrops(True)
        self._build()
        self._refresh_timer = QTimer(self, interval=2000)
        self._refresh_timer.timeout.connect(self._flush_changes)
        self.tracker = ImportProgress()
        self._counts = (0, 0)  # files done, total (last progress report)
        self._poll_timer = QTimer(self, interval=POLL_MS)
        self._poll_timer.timeout.connect(self._poll_running)

    def _build(self) -> None:
        self.message = InlineMessage(self)
        self.drop_hint = QLabel("Drop CV files (PDF, DOCX) or folders here, or use Add files… / Add folder…")
        self.drop_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.drop_hint.setMinimumHeight(56)
        self.drop_hint.setStyleSheet("QLabel{border:2px dashed palette(mid);border-radius:8px;padding:8px;}")
        self.add_files_btn = QPushButton("Add files…")
        self.add_folder_btn = QPushButton("Add folder…")
        self.cancel_btn = QPushButton("Cancel")
        self.retry_btn = QPushButton("Retry failed")
        self.clear_btn = QPushButton("Clear finished")
        self.forget_failed_btn = QPushButton("Forget failed…")
        self.forget_failed_btn.setToolTip("Remove files whose import failed: their records and stored copies")
        self.add_files_btn.clicked.connect(self.open_files_dialog)
        self.add_folder_btn.clicked.connect(self.open_folder_dialog)
        self.cancel_btn.clicked.connect(self.cancel)
        self.retry_btn.clicked.connect(self.retry_failed)
        self.clear_btn.clicked.connect(self.model.clear_finished)
        self.forget_failed_btn.clicked.connect(self.forget_failed)
        buttons = QHBoxLayout()
        for b in (self.add_files_btn, self.add_folder_btn, self.cancel_btn, self.retry_btn, self.clear_btn,
                  self.forget_failed_btn):
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress_label = QLabel("No import running.")
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for col, width in enumerate((260, 110, 200, 60, 70)):
            self.table.setColumnWidth(col, width)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.drop_hint)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.progress_label)
        layout.addWidget(self.table, 1)
        for sig in (self.model.dataChanged, self.model.rowsInserted, self.model.modelReset):
            sig.connect(self._sync_buttons)
        self.catalog_failed = 0  # failed imports in the catalog (earlier sessions too): refresh_failed()
        self._sync_buttons()

    # ---- user actions ------------------------------------------------------------------
    def confirm(self, title: str, text: str) -> bool:
        """Ask a yes/no question (tests replace this)."""
        from PySide6.QtWidgets import QMessageBox

        answer = QMessageBox.question(self, title, text, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def forget_failed(self) -> None:
        """Remove every failed import (catalog rows and stored copies), after confirmation."""
        if self.runner.busy(TASK):
            self.message.show_message("Wait for the import to finish, then forget the failed files.", "info")
            return
        svc = self.services
        if not self.confirm("Forget failed imports", "Remove every file whose import failed?\n\nTheir records and "
                            "the copies stored in the library are deleted; the original files are not touched."):
            return

        def done(report: dict) -> None:
            self.model.drop_failed()
            self.catalog_failed = 0
            self._sync_buttons()
            self.message.show_message(f"Forgot {len(report['files'])} failed import(s); removed "
                                      f"{report['files_removed']} stored copy(ies).", "info")
            self.forgot_failed.emit(report)

        self.runner.run(lambda ctx: svc.library.forget_failed(), on_result=done,
                        on_error=lambda exc: report_error(exc, self.message, self, svc.paths.log_dir))

    def import_paths(self, paths: list[Path]) -> None:
        """Queue files/folders; starts now, or after the running batch."""
        self.message.clear_message()
        if self.runner.busy(TASK):
            self._pending_inputs.extend(paths)
            self.message.show_message(f"{len(paths)} more item(s) will be imported after the current batch.", "info")
            return
        self.last_report = None
        self._start(lambda ctx: self._run_ingest(ctx, paths), f"Importing {len(paths)} item(s)…")

    def retry_failed(self) -> None:
        """Import again every file whose import failed."""
        failed = [Path(p) for p in self.model.failed_paths()]
        if not failed:
            self.message.show_message("Nothing to retry: no file failed.", "info")
            return
        self.import_paths(failed)

    def cancel(self) -> None:
        """Stop the running import after the files in progress; they are resumed later."""
        if self.runner.busy(TASK):
            self.runner.cancel(TASK)
            self._pending_inputs.clear()
            self.progress_label.setText("Cancelling… (files in progress finish first)")
            self.cancel_btn.setEnabled(False)

    def resume_interrupted(self) -> None:
        """Finish files a previous session left queued or processing (called at start-up)."""
        if self.runner.busy(TASK):
            return
        self._start(self._run_resume, "Checking for an interrupted import…", quiet_if_empty=True)

    # ---- worker side (runs off the GUI thread) -----------------------------------------
    def _run_ingest(self, ctx: TaskContext, paths: list[Path]):
        ctx.item(("listed", list_import_files(paths)))
        core.open_index(self.services)  # opened once, even if another worker asks at the same time
        svc = self.services
        report = svc.library.ingest(paths, progress=ctx.progress, should_cancel=ctx.should_cancel,
                            on_file=lambda outcome: ctx.item(name_the_original(svc, outcome)),
                            workers=svc.settings.workers)
        mark_generated(self.services, paths, report)
        return report

    def _run_resume(self, ctx: TaskContext):
        pending = [f["original_path"] for f in self.services.library.files()
                   if f["status"] in ("queued", "processing")]
        if not pending:
            return None
        ctx.item(("resume", pending))
        core.open_index(self.services)
        return self.services.library.resume_pending(progress=ctx.progress, should_cancel=ctx.should_cancel,
                                            on_file=ctx.item, workers=self.services.settings.workers)

    # ---- GUI side ------------------------------------------------------------------------
    def _start(self, fn, label: str, quiet_if_empty: bool = False) -> None:
        self._started = time.monotonic()
        self.tracker = ImportProgress(workers=max(1, int(self.services.settings.workers or 1)))
        self._counts = (0, 0)
        self._quiet = quiet_if_empty
        if not quiet_if_empty:
            self.progress_label.setText(label)
            self.progress.setRange(0, 0)  # busy until the first progress report
        self.runner.start(TASK, fn, on_result=self._on_result, on_error=self._on_error,
                          on_progress=self._on_progress, on_item=self._on_item, on_finished=self._on_finished)
        self._refresh_timer.start()
        self._poll_timer.start()
        self._sync_buttons()

    def _on_item(self, obj: object) -> None:
        if isinstance(obj, tuple):
            kind, paths = obj
            self.model.add_paths(paths, status="queued")
            if kind == "resume":
                self.message.show_message(
                    f"Resuming an interrupted import: {len(paths)} file(s) were left unfinished.", "info")
                self.progress_label.setText("Resuming…")
                self.progress.setRange(0, 0)
            return
        outcome = obj  # FileOutcome
        if outcome.status == "processing":  # a phase event (reading, waiting for OCR, OCR page n/m, indexing)
            phase = getattr(outcome, "phase", None) or "reading"
            self.model.set_phase(outcome.path, phase, getattr(outcome, "step", None), getattr(outcome, "steps", None))
            self.tracker.set_phase(outcome.path, phase, getattr(outcome, "step", None), getattr(outcome, "steps", None))
            return
        self.tracker.file_done(outcome.path, outcome.seconds)
        self.model.update(outcome.path, status=outcome.status, candidate=outcome.name or "",
                          pages=outcome.pages, seconds=outcome.seconds, error=outcome.error or "")
        if outcome.status == "done":
            self._dirty = True

    def _on_progress(self, done: int, total: int, _note: str) -> None:
        # the pipeline's note repeats its own ETA; the line is built from the tracker alone
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self._counts = (done, total)
        self.progress_label.setText(self.tracker.text(done, total))

    def _poll_running(self) -> None:
        """Which files a worker holds now (catalog ``processing`` marks), read in a worker."""
        if not self.runner.busy(TASK) or self.runner.busy(POLL):
            return
        svc = self.services

        def read(ctx):
            return {f["original_path"]: f.get("started_at") or time.time() for f in svc.library.files("processing")}

        self.runner.start(POLL, read, on_result=self._running)

    def _running(self, started: dict) -> None:
        if not self.runner.busy(TASK):
            return
        started = {p: t for p, t in started.items() if self.model.status_of(p) in ("listed", "queued", "processing")}
        self.tracker.set_running(started)
        self.model.set_running(started)
        done, total = self._counts
        if total:
            self.progress_label.setText(self.tracker.text(done, total))

    def _on_result(self, report) -> None:
        if report is not None:
            self.last_report = report
        self.batch_finished.emit(report)
        if report is None:
            return
        counts = self.model.counts()
        problems = sum(v for k, v in counts.items() if k not in ("done", "duplicate", "queued", "listed", "skipped"))
        skipped = sum(1 for f in report.files if f.status == "skipped")
        summary = f"Imported {report.ingested}, duplicates {report.duplicates}, problems {len(report.failed)}"
        summary += (f", skipped {skipped}" if skipped else "") + f" in {report.seconds:.1f} s."
        self.progress_label.setText(summary)
        llm_note = getattr(report, "llm_note", None)  # the model was marked down: the rest went without it
        if report.failed:
            kinds = sorted({status_label(f["status"]) for f in report.failed})
            self.message.show_message(
                f"{len(report.failed)} file(s) could not be imported ({', '.join(kinds)}). "
                "See the Error column; 'Retry failed' tries them again." + (f" {llm_note}" if llm_note else ""),
                "warning")
        elif llm_note:
            self.message.show_message(llm_note, "warning")
        elif report.warnings:  # imported, not whole (a long scan's first pages, invisible text left out)
            self.message.show_message(f"{len(report.warnings)} file(s) imported with a note (for example, only a "
                                      "long scan's first pages read); the Error column says what.", "info")
        elif skipped:  # hidden and lock files found in a folder: said, so nothing seems lost
            self.message.show_message(f"{skipped} file(s) were skipped (hidden files or Word lock files); "
                                      "the Error column says why.", "info")
        elif problems == 0 and not self._quiet:
            self.message.clear_message()

    def _on_error(self, exc: BaseException) -> None:
        self.progress_label.setText("Import stopped.")
        report_error(exc, self.message, self, self.services.paths.log_dir)
        self.batch_finished.emit(None)

    def _on_finished(self) -> None:
        self._refresh_timer.stop()
        self._poll_timer.stop()
        self.refresh_failed()
        if self.progress.maximum() == 0:
            self.progress.setRange(0, 1)
            self.progress.setValue(0)
        if self.runner.busy(TASK):
            return
        cancelled = any(r.status in ("listed", "queued", "processing") for r in self.model.rows)
        if cancelled:
            self.model.mark_pending_as("cancelled")
            self.progress_label.setText("Import cancelled. Unfinished files resume on the next import or start-up.")
            self.batch_finished.emit(None)
        self._flush_changes(force=True)
        self._sync_buttons()
        if self._pending_inputs:
            nxt, self._pending_inputs = self._pending_inputs, []
            self.import_paths(nxt)

    def _flush_changes(self, force: bool = False) -> None:
        if self._dirty or force:
            self._dirty = False
            self.candidates_changed.emit()

    def _sync_buttons(self, *_args) -> None:
        busy = self.runner.busy(TASK)
        failed = len(self.model.failed_paths())
        self.cancel_btn.setEnabled(busy)
        self.retry_btn.setEnabled(not busy and failed > 0)
        self.retry_btn.setToolTip(f"Import the {failed} failed file(s) again" if failed else "No file failed")
        self.forget_failed_btn.setEnabled(not busy and (failed > 0 or self.catalog_failed > 0))
        self.clear_btn.setEnabled(any(r.status in ("done", "duplicate") for r in self.model.rows))

    def refresh_failed(self) -> None:
        """Count the catalog's failed imports in a worker (after each batch and the start-up check),
        so "Forget failed…" is enabled exactly when there is something to forget."""
        svc = self.services

        def counted(n: int) -> None:
            self.catalog_failed = n
            self._sync_buttons()

        self.runner.start("import-failed-count", lambda _ctx: len(svc.library.failed_files()), on_result=counted)

    @property
    def busy(self) -> bool:
        """True while an import runs."""
        return self.runner.busy(TASK)
