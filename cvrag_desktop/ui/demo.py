"""Generated (demo) CVs: which imported files the CV factory made, so they are marked (Qt-free).

The factory writes ``manifest.json`` (``"generator": "cvrag-desktop factory"``) beside its
PDFs. After an import, the documents read from such files get the reserved tag
:data:`DEMO_TAG` (kept in the catalog with the person's screening, removed with it): the
table shows a "demo" badge, the Tag filter finds them, and exports leave them out unless
that filter is chosen.
"""

from __future__ import annotations

import json
from pathlib import Path

DEMO_TAG = "demo (generated)"
GENERATOR = "cvrag-desktop factory"


def _manifest_files(manifest: Path) -> set[str]:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    if not isinstance(data, dict) or data.get("generator") != GENERATOR:
        return set()
    return {str(manifest.parent / e["pdf"]) for e in data.get("cvs") or [] if isinstance(e, dict) and e.get("pdf")}


def generated_files(inputs: list[Path]) -> set[str]:
    """Paths (as the import names them) of the factory's PDFs among ``inputs`` (files or folders)."""
    manifests: set[Path] = set()
    for p in inputs:
        p = Path(p)
        if p.is_dir():
            manifests.update(p.rglob("manifest.json"))
        elif (p.parent / "manifest.json").is_file():
            manifests.add(p.parent / "manifest.json")
    out: set[str] = set()
    for m in manifests:
        out |= _manifest_files(m)
    return out


def is_demo(row: dict) -> bool:
    """True for a table row of a generated CV."""
    return DEMO_TAG in (row.get("tags") or [])
