"""At start-up: a missing, empty or damaged catalog is explained and, if the user agrees, rebuilt
from the library (never silently replaced by an empty one). The rebuild runs in a worker thread
while a progress dialog keeps the GUI responsive."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

import threading
import time

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QMessageBox, QProgressDialog

from cvrag_desktop.app.output import safe
from cvrag_desktop.errors import CatalogDamaged, CatalogMissing

TITLE = "CV RAG: catalog needs repair"


def ask_rebuild(message: str) -> bool:
    """Explain the problem and offer the rebuild (tests replace this)."""
    answer = QMessageBox.question(
        None, TITLE, f"{safe(message)}\n\nRebuild the catalog from the library now? Every stored CV is imported "
        "again (the damaged file is kept aside).",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes)
    return answer == QMessageBox.StandardButton.Yes


def ensure_catalog(services: App, ask=ask_rebuild) -> bool:
    """True when the catalog opens (after a rebuild the user agreed to); False to quit."""
    try:
        services.library.open_catalog()
        return True
    except (CatalogDamaged, CatalogMissing) as exc:
        if not ask(exc.message):
            return False
    box: dict = {}
    progress = {"done": 0, "total": 0}

    def work() -> None:
        try:
            box["report"] = services.library.rebuild_catalog(
                progress=lambda d, t, _n: progress.update(done=d, total=t))
        except Exception as exc:  # shown below
            box["error"] = exc

    worker = threading.Thread(target=work, name="catalog-rebuild", daemon=True)
    worker.start()
    dialog = QProgressDialog("Rebuilding the catalog from the library…", "", 0, 0)
    dialog.setCancelButton(None)
    dialog.setWindowModality(Qt.WindowModality.ApplicationModal)
    dialog.show()
    while worker.is_alive():
        if progress["total"]:
            dialog.setMaximum(progress["total"])
            dialog.setValue(progress["done"])
        QCoreApplication.processEvents()
        time.sleep(0.02)
    dialog.close()
    if "error" in box:
        QMessageBox.critical(None, TITLE, f"The rebuild failed: {safe(box['error'])}")
        return False
    return True
