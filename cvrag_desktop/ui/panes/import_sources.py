"""Where an import's files come from (a mixin of :class:`ImportPane`): file and folder dialogs
(remembering the last folder) and drag-and-drop of files and folders."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog

from cvrag_desktop.ui.importing.drops import accept_local_drag, dropped_paths


class ImportSources:
    """Dialogs and drops; expects ``qsettings`` and ``import_paths`` on the pane."""

    def open_files_dialog(self) -> None:
        """Ctrl+O: pick CV files to import."""
        start = self._last_dir()
        files, _ = QFileDialog.getOpenFileNames(self, "Import CVs", start, "CVs (*.pdf *.docx);;All files (*)")
        if files:
            self._remember_dir(Path(files[0]).parent)
            self.import_paths([Path(f) for f in files])

    def open_folder_dialog(self) -> None:
        """Pick a folder of CVs (searched recursively)."""
        folder = QFileDialog.getExistingDirectory(self, "Import a folder of CVs", self._last_dir())
        if folder:
            self._remember_dir(Path(folder))
            self.import_paths([Path(folder)])

    def _last_dir(self) -> str:
        return str(self.qsettings.value("import/last_dir", str(Path.home()))) if self.qsettings else str(Path.home())

    def _remember_dir(self, folder: Path) -> None:
        if self.qsettings:
            self.qsettings.setValue("import/last_dir", str(folder))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept local files and folders."""
        accept_local_drag(event)

    def dropEvent(self, event: QDropEvent) -> None:
        """Import what was dropped."""
        if paths := dropped_paths(event):
            self.import_paths(paths)
