"""What an import will visit and which of its files the CV factory made (Qt-free helpers of the Import pane)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

import os
from pathlib import Path

from cvrag_desktop.ui.demo import DEMO_TAG, generated_files

SUPPORTED = (".pdf", ".docx")


def mark_generated(services: App, paths: list[Path], report) -> int:
    """Tag the documents read from the CV factory's files as demo (runs in the import worker)."""
    generated = generated_files(paths)
    ids = [o.candidate_id for o in report.files
           if o.status == "done" and o.candidate_id and o.path in generated]
    if ids:
        services.screening.set_screening(ids, add_tags=[DEMO_TAG])
    return len(ids)


def list_import_files(paths: list[Path]) -> list[str]:
    """The files an import of ``paths`` will visit, as the pipeline names them (for the queue table)."""
    out: list[str] = []
    for p in paths:
        if p.is_dir():
            out.extend(str(f) for f in sorted(p.rglob("*"))
                       if f.is_file() and f.suffix.lower() in SUPPORTED and not f.name.startswith(("~$", ".")))
        else:
            out.append(os.fsencode(p).decode("utf-8", "replace"))
    return list(dict.fromkeys(out))


def name_the_original(services: App, outcome):
    """A duplicate of a file imported earlier, with that file's name in its message ("Already
    imported (same content) as anna_cv.pdf"), so the user knows which one it repeats; other
    outcomes unchanged. Reads the catalog: call it in the import's worker."""
    if outcome.status != "duplicate" or not outcome.candidate_id:
        return outcome
    original = next((f for f in services.library.files("done") if f.get("candidate_id") == outcome.candidate_id), None)
    name = (original or {}).get("file_name") or Path((original or {}).get("original_path") or "").name
    if not name:
        return outcome
    return outcome.model_copy(update={"error": f"Already imported (same content) as {name}."})
