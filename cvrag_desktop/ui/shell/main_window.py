"""The main window: a sidebar of four panes, menus with shortcuts, the status bar, and
persistence of geometry and the last pane (QSettings in the config dir)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

from contextlib import suppress

from PySide6.QtCore import QSettings, QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QListWidget,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QWidget,
)

from cvrag_desktop.ui.blind_mode import BlindMode
from cvrag_desktop.ui.dialogs.audit_dialog import AuditDialog
from cvrag_desktop.ui.dialogs.retention_dialog import RetentionDialog
from cvrag_desktop.ui.dialogs.settings_dialog import SettingsDialog
from cvrag_desktop.ui.panes.candidates_pane import CandidatesPane
from cvrag_desktop.ui.panes.chat_pane import ChatPane
from cvrag_desktop.ui.panes.generate_pane import GeneratePane
from cvrag_desktop.ui.panes.import_pane import ImportPane
from cvrag_desktop.ui.shell import core
from cvrag_desktop.ui.shell.about import about_html
from cvrag_desktop.ui.shell.fit import SplitterShares, fit_window
from cvrag_desktop.ui.shell.gc_guard import MainThreadGC
from cvrag_desktop.ui.shell.keyboard import CandidateKeys, shortcuts_html
from cvrag_desktop.ui.shell.status import AppStatusBar
from cvrag_desktop.ui.shell.tasks import TaskRunner
from cvrag_desktop.ui.shell.theme import ThemeController

PANES = ("Import", "Candidates", "Chat", "Generate")  # the recruiter's panes first; Generate makes demo data
IMPORT, CANDIDATES, CHAT, GENERATE = range(4)
CLOSE_WAIT_MS = 8000
WARM_UP_FALLBACK_MS = 4000  # warm up anyway when the candidate list has not come by then
SAMPLE_COUNT = 20
DEFAULT_SIZE = (1400, 860)  # fitted to the screen's available area (ui/shell/fit.py)


def ui_settings(services: App) -> QSettings:
    """The window's QSettings: an INI file in the config dir (so CVRAG_HOME isolates it)."""
    return QSettings(str(services.paths.config_dir / "ui.ini"), QSettings.Format.IniFormat)


class MainWindow(QMainWindow):
    """Sidebar + stacked panes; owns the task runner shared by every pane."""

    warmed_up = Signal(dict)  # index, models, assistant, LLM probe and doctor() done (see core.warm_up)

    def __init__(self, services: App, runner: TaskRunner | None = None) -> None:
        super().__init__()
        self.gc_guard = MainThreadGC(self)  # garbage is collected on this thread, never in a worker
        self.services = services
        self.runner = runner or TaskRunner(parent=self)
        self.qsettings = ui_settings(services)
        self.theme = ThemeController(QApplication.instance(), self.qsettings, self)
        self.theme.restore()
        self.setWindowTitle("CV RAG Desktop")
        self.sidebar = QListWidget()
        self.sidebar.addItems(PANES)
        self.sidebar.setFixedWidth(max(self.sidebar.sizeHintForColumn(0), 60) + 28)  # the names, no more
        self.stack = QStackedWidget()
        self.generate = GeneratePane(services, self.runner, self.qsettings)
        self.importer = ImportPane(services, self.runner, self.qsettings)
        self.candidates = CandidatesPane(services, self.runner, self.qsettings)
        self.chat = ChatPane(services, self.runner, self.qsettings)
        self.blind = BlindMode(services, self)  # blind screening: shared by the candidates and the chat
        self.candidates.blind = self.chat.blind = self.blind
        self.blind.changed.connect(self._blind_changed)  # the status bar says so
        # one state every open view obeys, either way: the panes and their previews redraw themselves
        self.blind.follow(self.candidates, self.candidates.blind_changed)
        self.blind.follow(self.chat, self.chat.blind_changed)
        self.candidates.preview.follow_blind(self.blind, services)
        self.chat.preview.follow_blind(self.blind, services)
        self.warm: dict | None = None
        for pane in (self.importer, self.candidates, self.chat, self.generate):  # the order of PANES
            self.stack.addWidget(pane)
        self.sidebar.currentRowChanged.connect(self.stack.setCurrentIndex)
        central = QWidget()
        row = QHBoxLayout(central)
        row.setContentsMargins(4, 4, 4, 4)
        row.addWidget(self.sidebar)
        row.addWidget(self.stack, 1)
        self.setCentralWidget(central)
        self.status = AppStatusBar(services, self.runner, self)
        self.setStatusBar(self.status)
        if not self.qsettings.value("candidates/splitter"):  # first run: facets | table+record | preview
            self.candidate_shares = SplitterShares(self.candidates.splitter, (0.17, 0.48, 0.35))
        self.keys = CandidateKeys(self.candidates)  # search ⇄ results, Tab order, Esc (ui/shell/keyboard.py)
        self._wire()
        self._menus()
        self._restore()

    def _wire(self) -> None:
        self.importer.candidates_changed.connect(self.candidates.reload)
        self.importer.batch_finished.connect(lambda _r: self.status.refresh())
        self.candidates.candidates_changed.connect(self.status.refresh)
        self.generate.import_requested.connect(self._import_generated)
        self.generate.generated.connect(self._generated)
        welcome = self.candidates.welcome
        welcome.import_requested.connect(self.import_files)
        welcome.samples_requested.connect(self.try_samples)
        welcome.settings_requested.connect(self.open_settings)
        welcome.dropped.connect(self._import_generated)

    def try_samples(self) -> None:
        """First run: generate a few invented CVs (marked as demo) and import them."""
        self._samples_pending = True
        self.show_pane(GENERATE)
        self.generate.count.setValue(SAMPLE_COUNT)
        self.generate.start()

    def _generated(self, report: dict) -> None:
        if getattr(self, "_samples_pending", False):
            self._samples_pending = False
            if report.get("generated"):
                self._import_generated([self.generate.last_out])

    def _import_generated(self, paths: list) -> None:
        self.show_pane(IMPORT)
        self.importer.import_paths(paths)

    def _action(self, menu, text: str, slot, shortcut=None) -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
            act.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
        act.triggered.connect(slot)
        menu.addAction(act)
        return act

    def _menus(self) -> None:
        bar = self.menuBar()
        f = bar.addMenu("&File")
        self.import_action = self._action(f, "&Import CVs…", self.import_files, QKeySequence.StandardKey.Open)
        self._action(f, "Import a &folder…", self.importer.open_folder_dialog)
        self.export_action = self._action(f, "&Export to CSV…", self.export, "Ctrl+E")
        f.addSeparator()
        self._action(f, "&Settings…", self.open_settings, QKeySequence.StandardKey.Preferences)
        self._action(f, "&Audit trail…", self.open_audit)
        self._action(f, "&Retention…", self.open_retention)
        f.addSeparator()
        self._action(f, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        e = bar.addMenu("&Edit")
        self.search_action = self._action(e, "&Search candidates", self.focus_search, QKeySequence.StandardKey.Find)
        v = bar.addMenu("&View")
        for i, name in enumerate(PANES):
            self._action(v, name, lambda _c=False, i=i: self.show_pane(i), f"Ctrl+{i + 1}")
        v.addSeparator()
        v.addMenu(self.theme.menu(v))
        v.addAction(self.blind.action)
        self.blind_toolbar = self.addToolBar("Blind screening")
        self.blind_toolbar.setObjectName("blind-toolbar")
        self.blind_toolbar.addAction(self.blind.action)
        c = bar.addMenu("&Chat")
        self.new_chat_action = self._action(c, "&New chat", self.new_chat, QKeySequence.StandardKey.New)
        self.match_action = self._action(c, "&Match a job description…", self.match_job, "Ctrl+J")
        h = bar.addMenu("&Help")
        self._action(h, "Open data folder", lambda: self._open(self.services.paths.data_dir))
        self._action(h, "Open log folder", lambda: self._open(self.services.paths.log_dir))
        self._action(h, "Export &diagnostics…", self.export_diagnostics)
        self._action(h, "&Keyboard shortcuts", self.show_shortcuts, "F1")
        self._action(h, "About", self._about)

    # ---- actions -------------------------------------------------------------------------
    def _blind_changed(self, on: bool) -> None:
        """Blind screening switched: every open view redraws itself (``BlindMode.follow``); the status bar says so."""
        self.status.showMessage("Blind screening on: identities are hidden." if on
                                else "Blind screening off.", 5000)

    def show_pane(self, index: int) -> None:
        """Bring a pane forward."""
        self.sidebar.setCurrentRow(index)

    def current_pane(self) -> int:
        """Index of the visible pane."""
        return self.stack.currentIndex()

    def import_files(self) -> None:
        """Ctrl+O."""
        self.show_pane(IMPORT)
        self.importer.open_files_dialog()

    def focus_search(self) -> None:
        """Ctrl+F."""
        self.show_pane(CANDIDATES)
        self.candidates.focus_search()

    def export(self) -> None:
        """Ctrl+E."""
        self.show_pane(CANDIDATES)
        self.candidates.export_view()

    def new_chat(self) -> None:
        """Ctrl+N."""
        self.show_pane(CHAT)
        self.chat.new_chat()

    def match_job(self):
        """Ctrl+J: the job-description matching dialog (a shortlist it makes shows in the Candidates pane)."""
        self.show_pane(CHAT)
        dlg = self.chat.open_job_match()
        if not getattr(dlg, "_wired", False):
            dlg._wired = True
            dlg.shortlisted.connect(lambda _name, _n: self.candidates.shortlists.reload())
        return dlg

    def open_settings(self) -> SettingsDialog:
        """The settings dialog (non-blocking); refreshes the status bar when saved."""
        dlg = SettingsDialog(self.services, self.runner, self)
        dlg.accepted.connect(self._settings_saved)
        dlg.open()
        return dlg

    def open_audit(self):
        """File ▸ Audit trail…: the read-only audit viewer (``ui/dialogs/audit_dialog.py``), loaded at once."""
        dlg = AuditDialog(self.services, self.runner, self)
        dlg.open()
        dlg.reload()
        dlg.verify()
        return dlg

    def open_retention(self):
        """File ▸ Retention…: the period, the review list and the confirmed purge (``ui/dialogs/retention_dialog.py``)."""
        dlg = RetentionDialog(self.services, self.runner, self.blind, self)
        dlg.purged.connect(lambda _report: (self.candidates.reload(), self.status.refresh()))
        dlg.open()
        dlg.reload()
        return dlg

    def _settings_saved(self) -> None:
        self.services.health.forget_probe_answers()
        self.status.refresh()
        self.chat.refresh()

    def _open(self, folder) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    def export_diagnostics(self, path: str | None = None) -> None:
        """Help ▸ Export diagnostics: a zip of versions, settings and logs, no CV text (in a worker)."""
        if path is None:
            from PySide6.QtWidgets import QFileDialog

            path, _ = QFileDialog.getSaveFileName(self, "Export diagnostics", "cvrag-diagnostics.zip", "Zip (*.zip)")
        if not path:
            return
        svc = self.services
        self.runner.run(lambda _ctx: svc.health.export_diagnostics(path),
                        on_result=lambda out: self.status.showMessage(f"Diagnostics written to {out}", 10000),
                        on_error=lambda exc: QMessageBox.warning(self, "Export diagnostics", str(exc)))

    def show_shortcuts(self) -> QMessageBox:
        """Help ▸ Keyboard shortcuts (F1): every menu shortcut and the navigation keys (non-blocking)."""
        box = QMessageBox(QMessageBox.Icon.NoIcon, "Keyboard shortcuts", shortcuts_html(self.menuBar()),
                          QMessageBox.StandardButton.Close, self)
        box.setTextFormat(Qt.TextFormat.RichText)
        box.open()
        return box

    def _about(self) -> QMessageBox:
        box = QMessageBox(QMessageBox.Icon.NoIcon, "About CV RAG Desktop",
                          about_html(self.services.paths.data_dir, self.services.paths.log_dir),
                          QMessageBox.StandardButton.Close, self)
        box.setTextFormat(Qt.TextFormat.RichText)
        box.open()
        return box

    # ---- lifecycle -----------------------------------------------------------------------
    def start(self) -> None:
        """After the window shows: load candidates, then warm the index and models up in a worker,
        refresh the status, list the conversations and resume an interrupted import.

        The warm-up waits for the candidate list (or ``WARM_UP_FALLBACK_MS``): opening the shard
        and loading the models hold the GIL for seconds in all, and the recruiter's first need is
        the list, so the two do not compete (1,000 CVs: interactive 3.65 -> 2.31 s on 2 cores).
        """
        self._warm_started = False
        self.candidates.loaded.connect(self._start_warm_up)
        QTimer.singleShot(WARM_UP_FALLBACK_MS, self, self._start_warm_up)
        self.candidates.reload()

    def _start_warm_up(self, *_args) -> None:
        if self._warm_started:
            return
        self._warm_started = True
        with suppress(RuntimeError, TypeError):  # already disconnected
            self.candidates.loaded.disconnect(self._start_warm_up)
        svc = self.services
        self.runner.run(lambda ctx: core.warm_up(svc), on_result=self._warmed)

    def _warmed(self, out: dict) -> None:
        self.warm = out
        if out.get("doctor"):
            self.status.show_info(out["doctor"])
        else:
            self.status.refresh()
        self.chat.refresh()
        self.importer.resume_interrupted()
        self.warmed_up.emit(out)

    def _restore(self) -> None:
        geometry = self.qsettings.value("window/geometry")
        if geometry is None or not self.restoreGeometry(geometry):
            fit_window(self, QSize(*DEFAULT_SIZE))
        else:  # saved on a larger screen (a laptop undocked): never restored larger than this one
            fit_window(self, self.size())
        state = self.qsettings.value("window/state")
        if state is not None:
            self.restoreState(state)
        pane = int(self.qsettings.value("window/pane", CANDIDATES))
        self.show_pane(pane if 0 <= pane < len(PANES) else CANDIDATES)

    def save_state(self) -> None:
        """Persist geometry, toolbar/dock state, last pane and splitters."""
        self.qsettings.setValue("window/geometry", self.saveGeometry())
        self.qsettings.setValue("window/state", self.saveState())
        self.qsettings.setValue("window/pane", self.current_pane())
        self.candidates.save_state()
        self.chat.save_state()
        self.qsettings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Persist the layout; stop work (an import in flight is resumed on the next start)."""
        self.save_state()
        self.status.timer.stop()
        self.runner.cancel_all()
        self.runner.wait(CLOSE_WAIT_MS)
        self.gc_guard.stop()
        event.accept()
