"""Ask where to save an export, starting in the folder the last export went to (remembered in QSettings)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

LAST_DIR_KEY = "export/last_dir"


def ask_save_path(parent: QWidget, qsettings, title: str, suggested: str, file_filter: str) -> Path | None:
    """The path the user chose (None when cancelled); the folder is remembered for the next export."""
    start = Path(str(qsettings.value(LAST_DIR_KEY, str(Path.home())))) if qsettings is not None else Path.home()
    chosen, _ = QFileDialog.getSaveFileName(parent, title, str(start / suggested), file_filter)
    if not chosen:
        return None
    path = Path(chosen)
    wanted = file_filter.partition("(*")[2].partition(")")[0]  # "CSV (*.csv)" -> ".csv"
    if wanted.startswith(".") and " " not in wanted and path.suffix.lower() != wanted:
        path = path.with_name(path.name + wanted)  # a save dialog adds the type's extension, as on every desktop
    if qsettings is not None:
        qsettings.setValue(LAST_DIR_KEY, str(path.parent))
    return path
