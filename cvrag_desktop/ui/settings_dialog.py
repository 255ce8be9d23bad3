"""Settings dialog: language model endpoint (with a connection test), OCR, workers, index location.

Values are validated with the same pydantic ``Settings`` model the core uses, plus a
few checks a form needs (a URL must name a host); invalid values are refused with a
message next to the buttons and nothing is saved. Saving writes ``settings.json``
through ``config.save_settings`` and updates the running session.
"""

from __future__ import annotations

from urllib.parse import urlparse

from pydantic import ValidationError
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from cvrag_desktop.config import Settings, save_settings
from cvrag_desktop.ui.errors import InlineMessage
from cvrag_desktop.ui.tasks import TaskRunner


def check_url(url: str, what: str) -> str:
    """A normalised http(s) URL with a host, or ValueError with a sentence for the user."""
    url = url.strip().rstrip("/")
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise ValueError(f"{what} must look like http://host:port (got {url or 'nothing'!r}).")
    try:
        parsed.port  # noqa: B018 - raises on an invalid port
    except ValueError as exc:
        raise ValueError(f"{what} has an invalid port.") from exc
    return url


def describe_health(health) -> str:
    """One paragraph about an ``LlmHealth``: reachable, models, which aliases can run."""
    if not health.reachable:
        return f"Not reachable: {health.error or 'no answer'}. The app works in deterministic mode."
    lines = [f"Connected. {len(health.models)} model(s) installed: {', '.join(health.models[:8]) or 'none'}."]
    for alias, ok in sorted(health.aliases.items()):
        model = health.alias_models.get(alias, "?")
        lines.append(f"{alias} → {model}: {'installed' if ok else 'not installed (ollama pull ' + model + ')'}")
    return "\n".join(lines)


class SettingsDialog(QDialog):
    """Edit and persist the user settings."""

    def __init__(self, services, runner: TaskRunner, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.services = services
        self.runner = runner
        s: Settings = services.settings
        self.saved: Settings | None = None
        self.message = InlineMessage(self)
        self.llm_enabled = QCheckBox("Use a local language model when one answers", checked=s.llm_enabled)
        self.llm_url = QLineEdit(s.llm_base_url)
        self.test_btn = QPushButton("Test connection")
        self.test_btn.clicked.connect(self.test_connection)
        self.test_result = QLabel("")
        self.test_result.setWordWrap(True)
        url_row = QHBoxLayout()
        url_row.addWidget(self.llm_url, 1)
        url_row.addWidget(self.test_btn)
        self.ocr = QCheckBox("Read scanned (image-only) CVs with OCR", checked=s.ocr_enabled)
        self.workers = QSpinBox(minimum=1, maximum=32, value=s.workers)
        self.workers.setToolTip("Parallel parsing processes during an import")
        self.index_url = QLineEdit(s.index_url or "")
        self.index_url.setPlaceholderText(f"Local folder: {services.paths.index_dir}")
        self.index_url.setToolTip("Leave empty for the local on-disk index; or a Qdrant server URL")
        models = QLabel(str(services.paths.models_dir))
        models.setToolTip("Put an optional cross-encoder reranker (ONNX) here")
        open_models = QPushButton("Open")
        open_models.clicked.connect(self._open_models)
        models_row = QHBoxLayout()
        models_row.addWidget(models, 1)
        models_row.addWidget(open_models)
        form = QFormLayout()
        form.addRow("", self.llm_enabled)
        form.addRow("Ollama URL", url_row)
        form.addRow("", self.test_result)
        form.addRow("", self.ocr)
        form.addRow("Import workers", self.workers)
        form.addRow("Qdrant server URL", self.index_url)
        form.addRow("Models folder", models_row)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addLayout(form)
        layout.addWidget(self.buttons)

    def _open_models(self) -> None:
        folder = self.services.paths.models_dir
        folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    def collect(self) -> Settings:
        """The settings in the form, validated; raises ValueError with a user-facing sentence."""
        llm_url = check_url(self.llm_url.text(), "The Ollama URL")
        index_url = self.index_url.text().strip()
        if index_url:
            index_url = check_url(index_url, "The Qdrant server URL")
        data = self.services.settings.model_dump()
        data.update(llm_enabled=self.llm_enabled.isChecked(), llm_base_url=llm_url, ocr_enabled=self.ocr.isChecked(),
                    workers=self.workers.value(), index_url=index_url or None)
        try:
            return Settings.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise ValueError(f"{'.'.join(str(x) for x in first['loc'])}: {first['msg']}") from exc

    def test_connection(self) -> None:
        """Probe the endpoint in a worker and list the installed models and alias status."""
        try:
            url = check_url(self.llm_url.text(), "The Ollama URL")
        except ValueError as exc:
            self.message.show_message(str(exc), "error")
            return
        self.message.clear_message()
        self.test_btn.setEnabled(False)
        self.test_result.setText(f"Contacting {url}…")

        def run(ctx):
            from cvrag_desktop.llm.health import probe_uncached

            return probe_uncached(url)

        self.runner.start("llm-test", run, on_result=lambda h: self.test_result.setText(describe_health(h)),
                          on_error=lambda e: self.test_result.setText(f"Test failed: {e}"),
                          on_finished=lambda: self.test_btn.setEnabled(True))

    def save(self) -> None:
        """Validate, persist and apply; stays open with a message when a value is invalid."""
        try:
            settings = self.collect()
        except ValueError as exc:
            self.message.show_message(str(exc), "error")
            return
        try:
            save_settings(settings, self.services.paths)
        except OSError as exc:
            self.message.show_message(f"Could not save the settings: {exc}", "error")
            return
        self.services.settings = settings
        self.saved = settings
        self.accept()
