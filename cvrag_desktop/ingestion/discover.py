"""Which files an import takes: folders searched for PDF and Word files, hidden and lock files reported.

The first step of a batch (``ingestion/pipeline.py``), kept apart because it is pure path
logic: given files are taken as they are, folders are walked, duplicates by resolved path
dropped, and the folders the user chose remembered so the check before copy can tell a
link that leaves them.
"""

from __future__ import annotations

import os
from pathlib import Path

SUPPORTED = (".pdf", ".docx")


def display_path(path: Path) -> str:
    """A printable form of a path, even when its name is not valid UTF-8."""
    return os.fsencode(path).decode("utf-8", "replace")


def discover(paths: list[Path]) -> tuple[list[Path], list[tuple[Path, str]]]:
    """Files to import and files skipped with a reason.

    Given files are taken as-is (they are checked before any copy); folders are searched
    recursively for PDF/DOCX. Hidden files (".name") and Word lock files ("~$name") found
    in folders are skipped, and reported as ``skipped`` rather than silently dropped. FIFOs,
    devices and links are listed too: the check before copy gives each a status.
    """
    out: list[Path] = []
    skipped: list[tuple[Path, str]] = []
    for p in paths:
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                if f.suffix.lower() not in SUPPORTED or (f.is_dir() and not f.is_symlink()):
                    continue  # FIFOs, devices and links are kept: the check before copy gives them a status
                if f.name.startswith("~$"):
                    skipped.append((f, "A Word lock file (~$…), not a document; skipped."))
                elif f.name.startswith("."):
                    skipped.append((f, "A hidden file (its name starts with '.'); skipped. Rename it to import it."))
                else:
                    out.append(f)
        else:
            out.append(p)
    seen: set[bytes] = set()
    unique = []
    for f in out:
        try:
            key = os.fsencode(f.resolve())
        except (OSError, RuntimeError):
            key = os.fsencode(f)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique, skipped


def import_roots(inputs: list[Path]) -> list[Path]:
    """The folders the user chose: given folders, and the folder of each given file."""
    roots = []
    for p in inputs:
        try:
            roots.append(p.resolve() if p.is_dir() else p.absolute().parent.resolve())
        except (OSError, RuntimeError):
            continue
    return roots
