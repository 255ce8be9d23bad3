"""Generate pane: make synthetic CVs (with ground truth) for demos and quality checks,
then open the folder or import them in one click. Runs ``services.generate`` in a worker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from cvrag_desktop.app.library import generator_choices
from cvrag_desktop.ui.shell.errors import InlineMessage, report_error
from cvrag_desktop.ui.shell.tasks import TaskRunner

# The factory validates these names (InvalidInput for unknown ones); the combos are editable
# so a comma-separated list also works.


def factory_choices() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The locales and layouts the factory knows, each after "mixed" (read when the pane is built, so a new
    layout or locale pack shows up without editing the pane)."""
    return generator_choices()


TASK = "generate"


class GeneratePane(QWidget):
    """Count, locale, layout, seed, LLM toggle, output folder; progress; open or import the result."""

    import_requested = Signal(list)  # [Path]
    generated = Signal(dict)

    def __init__(self, services: App, runner: TaskRunner, qsettings: QSettings | None = None, parent=None) -> None:
        super().__init__(parent)
        self.services = services
        self.runner = runner
        self.qsettings = qsettings
        self.last_out: Path | None = None
        self.message = InlineMessage(self)
        self.count = QSpinBox(minimum=1, maximum=10_000, value=20)
        self.locale = QComboBox(editable=True)
        locales, layouts = factory_choices()
        self.locale.addItems(locales)
        self.layout_box = QComboBox(editable=True)
        self.layout_box.addItems(layouts)
        self.seed = QSpinBox(minimum=0, maximum=2_000_000_000, value=42)
        self.use_llm = QCheckBox("Enrich prose with the local language model (slow; falls back to templates)")
        default_out = Path(tempfile.gettempdir()) / "cvrag-generated"
        if qsettings is not None:
            default_out = Path(str(qsettings.value("generate/out_dir", str(default_out))))
        self.out_dir = QLineEdit(str(default_out))
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        out_row = QHBoxLayout()
        out_row.addWidget(self.out_dir, 1)
        out_row.addWidget(browse)
        form = QFormLayout()
        form.addRow("How many CVs", self.count)
        form.addRow("Locale", self.locale)
        form.addRow("Layout", self.layout_box)
        form.addRow("Seed", self.seed)
        form.addRow("", self.use_llm)
        form.addRow("Output folder", out_row)
        self.generate_btn = QPushButton("Generate")
        self.cancel_btn = QPushButton("Cancel")
        self.open_btn = QPushButton("Open folder")
        self.import_btn = QPushButton("Import these")
        self.generate_btn.clicked.connect(self.start)
        self.cancel_btn.clicked.connect(lambda: self.runner.cancel(TASK))
        self.open_btn.clicked.connect(self.open_folder)
        self.import_btn.clicked.connect(self._import)
        buttons = QHBoxLayout()
        for b in (self.generate_btn, self.cancel_btn, self.open_btn, self.import_btn):
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.progress = QProgressBar()
        self.status = QLabel("Synthetic CVs come with ground-truth JSON beside each PDF.")
        intro = QLabel("<b>Generate synthetic CVs</b> — realistic, reproducible (same seed, same CVs), for demos "
                       "and for measuring extraction quality.")
        intro.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addStretch(1)
        layout.setAlignment(Qt.AlignmentFlag.AlignTop)
        self._sync()

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Output folder", self.out_dir.text())
        if folder:
            self.out_dir.setText(folder)

    def start(self) -> None:
        """Generate with the current parameters."""
        self.message.clear_message()
        out = Path(self.out_dir.text().strip()).expanduser()
        if not self.out_dir.text().strip():
            self.message.show_message("Choose an output folder.", "error")
            return
        if self.qsettings is not None:
            self.qsettings.setValue("generate/out_dir", str(out))
        params = {"count": self.count.value(), "seed": self.seed.value(), "out_dir": out,
                  "locale": self.locale.currentText().strip(), "layout": self.layout_box.currentText().strip(),
                  "use_llm": self.use_llm.isChecked()}
        svc = self.services
        self.progress.setRange(0, params["count"])
        self.progress.setValue(0)
        self.status.setText("Generating…")
        self.runner.start(
            TASK,
            lambda ctx: svc.library.generate(params["count"], params["seed"], params["out_dir"], locale=params["locale"],
                                     layout=params["layout"], use_llm=params["use_llm"], progress=ctx.progress,
                                     should_cancel=ctx.should_cancel),
            on_result=self._done, on_error=self._failed, on_progress=self._progress, on_finished=self._sync)
        self._sync()

    def _progress(self, done: int, total: int, note: str) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.status.setText(f"{done} / {total}" + (f" · {note}" if note else ""))

    def _done(self, report: dict) -> None:
        self.last_out = Path(report["out_dir"])
        n, failed = len(report.get("generated") or []), len(report.get("failed") or [])
        self.status.setText(f"Generated {n} CV(s) in {report.get('seconds', 0):.1f} s into {self.last_out}"
                            + (f"; {failed} failed" if failed else "") + ".")
        if failed:
            self.message.show_message(f"{failed} CV(s) could not be generated; see the manifest.", "warning")
        self.generated.emit(report)
        self._sync()

    def _failed(self, exc: BaseException) -> None:
        self.status.setText("Generation stopped.")
        report_error(exc, self.message, self, self.services.paths.log_dir)

    def open_folder(self) -> None:
        """Show the output folder in the file manager."""
        folder = self.last_out or Path(self.out_dir.text())
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    def _import(self) -> None:
        if self.last_out is not None:
            self.import_requested.emit([self.last_out])

    def _sync(self) -> None:
        busy = self.runner.busy(TASK)
        self.generate_btn.setEnabled(not busy)
        self.cancel_btn.setEnabled(busy)
        self.open_btn.setEnabled(self.last_out is not None)
        self.import_btn.setEnabled(self.last_out is not None and not busy)
