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
    recursively for PDF/DOCX. Hidden files (".name"), Word lock files ("~$name") and links
    to folders found in folders are skipped, and reported as ``skipped`` rather than silently
    dropped; so is a given folder that holds no document at all, so that a batch never ends
    as "ingested 0, skipped 0" with no reason. FIFOs, devices and links to files are listed
    too: the check before copy gives each a status.
    """
    out: list[Path] = []
    skipped: list[tuple[Path, str]] = []
    for p in paths:
        if p.is_dir():
            found = _walk(p, out, skipped)
            if not found:
                skipped.append((p, NOTHING_HERE))
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


NOTHING_HERE = "No PDF or Word (.docx) file in this folder or its subfolders; nothing to import."
FOLDER_LINK = ("A link to a folder; links to folders are not followed (they may lead outside the folder "
               "you chose). Import the folder it points to instead.")


def _walk(folder: Path, out: list[Path], skipped: list[tuple[Path, str]]) -> int:
    """Add the folder's documents to ``out`` and its skipped entries to ``skipped``; how many it added."""
    before = len(out) + len(skipped)
    for f in sorted(folder.rglob("*")):
        if f.is_symlink() and f.is_dir():  # rglob does not descend into it: say so rather than go quiet
            skipped.append((f, FOLDER_LINK))
            continue
        if f.suffix.lower() not in SUPPORTED or f.is_dir():
            continue  # FIFOs, devices and links to files are kept: the check before copy gives them a status
        if f.name.startswith("~$"):
            skipped.append((f, "A Word lock file (~$…), not a document; skipped."))
        elif f.name.startswith("."):
            skipped.append((f, "A hidden file (its name starts with '.'); skipped. Rename it to import it."))
        else:
            out.append(f)
    return len(out) + len(skipped) - before


def import_roots(inputs: list[Path]) -> list[Path]:
    """The folders the user chose: given folders, and the folder of each given file."""
    roots = []
    for p in inputs:
        try:
            roots.append(p.resolve() if p.is_dir() else p.absolute().parent.resolve())
        except (OSError, RuntimeError):
            continue
    return roots
