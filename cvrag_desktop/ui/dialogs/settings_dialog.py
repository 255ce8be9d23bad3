"""Settings dialog: language model endpoint (with a connection test), OCR, workers, index location.

Values are validated with the same pydantic ``Settings`` model the core uses, plus a
few checks a form needs (a URL must name a host); invalid values are refused with a
message next to the buttons and nothing is saved. Saving writes ``settings.json``
through ``config.save_settings`` and updates the running session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

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

from cvrag_desktop.app.rules import Settings
from cvrag_desktop.ui.shell.errors import InlineMessage
from cvrag_desktop.ui.shell.fit import remember_size
from cvrag_desktop.ui.shell.tasks import TaskRunner


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


def plain_connection_error(error: str | None) -> str:
    """A connection failure in a recruiter's words (the technical text goes in the tooltip)."""
    low = (error or "").lower()
    if "refused" in low or "errno 111" in low or "10061" in low:
        return "nothing is running at that address"
    if "timed out" in low or "timeout" in low:
        return "it did not answer in time"
    if "name or service" in low or "getaddrinfo" in low or "nodename" in low or "resolve" in low:
        return "that computer name is unknown"
    return "it did not answer"


def describe_health(health) -> str:
    """One paragraph about an ``LlmHealth``: reachable, models, which aliases can run — or what to do."""
    if not health.reachable:
        return (f"Not reachable: {plain_connection_error(health.error)}. To use a language model, start Ollama "
                "on this computer (for example run “ollama serve”) and check the address. Until then the app "
                "works without one: answers are quoted from the CVs by rules.")
    lines = [f"Connected. {len(health.models)} model(s) installed: {', '.join(health.models[:8]) or 'none'}."]
    for alias, ok in sorted(health.aliases.items()):
        model = health.alias_models.get(alias, "?")
        lines.append(f"{alias} → {model}: {'installed' if ok else 'not installed (ollama pull ' + model + ')'}")
    return "\n".join(lines)


def two_line(main: str, technical: str) -> QLabel:
    """A form label in plain words with the technical name underneath, smaller."""
    label = QLabel(f"{main}<br><span style='font-size:small;opacity:0.65'>{technical}</span>")
    label.setToolTip(technical)
    return label


class SettingsDialog(QDialog):
    """Edit and persist the user settings."""

    def __init__(self, services: App, runner: TaskRunner, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.services = services
        self.runner = runner
        s: Settings = services.settings
        self.saved: Settings | None = None
        self.message = InlineMessage(self)
        self.llm_enabled = QCheckBox("Use a language model on this computer when one is running (optional: "
                                     "better-worded answers)", checked=s.llm_enabled)
        self.llm_url = QLineEdit(s.llm_base_url)
        self.test_btn = QPushButton("Test connection")
        self.test_btn.clicked.connect(self.test_connection)
        self.test_result = QLabel("")
        self.test_result.setWordWrap(True)
        url_row = QHBoxLayout()
        url_row.addWidget(self.llm_url, 1)
        url_row.addWidget(self.test_btn)
        self.ocr = QCheckBox("Read scanned CVs (pictures of pages) — slower", checked=s.ocr_enabled)
        self.ocr.setToolTip("Text recognition (OCR) for CVs that are images without text")
        self.workers = QSpinBox(minimum=1, maximum=32, value=s.workers)
        self.workers.setToolTip("How many CVs are read at the same time during an import (parallel parsing "
                                "processes). More is faster on a computer with more cores, and uses more memory.")
        self.index_url = QLineEdit(s.index_url or "")
        self.index_url.setPlaceholderText(f"Leave empty: kept on this computer ({services.paths.index_dir})")
        self.index_url.setToolTip("Only for teams with a shared search server (a Qdrant server URL). "
                                  "Leave empty to keep the search index on this computer.")
        models = QLabel(str(services.paths.models_dir))
        models.setToolTip("An optional model that re-orders search results (a cross-encoder reranker in "
                          "ONNX format) can be put here")
        open_models = QPushButton("Open")
        open_models.clicked.connect(self._open_models)
        models_row = QHBoxLayout()
        models_row.addWidget(models, 1)
        models_row.addWidget(open_models)
        form = QFormLayout()
        form.addRow("", self.llm_enabled)
        form.addRow(two_line("Language model address", "Ollama URL"), url_row)
        form.addRow("", self.test_result)
        form.addRow("", self.ocr)
        form.addRow(two_line("CVs read at once", "import workers"), self.workers)
        form.addRow(two_line("Shared search server (teams)", "Qdrant server URL — optional"), self.index_url)
        form.addRow(two_line("Extra models folder", "reranker models — optional"), models_row)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addLayout(form)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.sizing = remember_size(self, services, "settings", self.sizeHint())  # fitted to the screen

    def _open_models(self) -> None:
        folder = self.services.paths.models_dir
        folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    def collect(self) -> Settings:
        """The settings in the form, validated; raises ValueError with a user-facing sentence."""
        llm_url = check_url(self.llm_url.text(), "The language model address (Ollama URL)")
        index_url = self.index_url.text().strip()
        if index_url:
            index_url = check_url(index_url, "The shared search server (Qdrant server URL)")
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
            url = check_url(self.llm_url.text(), "The language model address (Ollama URL)")
        except ValueError as exc:
            self.message.show_message(str(exc), "error")
            return
        self.message.clear_message()
        self.test_btn.setEnabled(False)
        self.test_result.setText(f"Contacting {url}…")

        svc = self.services

        def run(ctx):
            return svc.health.probe_endpoint(url)

        def shown(health) -> None:
            self.test_result.setText(describe_health(health))
            self.test_result.setToolTip(health.error or "")

        self.runner.start("llm-test", run, on_result=shown,
                          on_error=lambda e: self.test_result.setText(
                              f"Test failed: {plain_connection_error(str(e))}."),
                          on_finished=lambda: self.test_btn.setEnabled(True))

    def save(self) -> None:
        """Validate, persist and apply; stays open with a message when a value is invalid."""
        try:
            settings = self.collect()
        except ValueError as exc:
            self.message.show_message(str(exc), "error")
            return
        try:
            self.services.health.save_settings(settings)
        except OSError as exc:
            self.message.show_message(f"Could not save the settings: {exc}", "error")
            return
        self.saved = settings
        self.accept()
