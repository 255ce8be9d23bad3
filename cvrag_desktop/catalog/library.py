"""Content-addressed copies of imported files (``library/<sha256><ext>``).

Previews and citations keep working after the recruiter moves or deletes the
original; identical files are stored once.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from cvrag_desktop.errors import FileMissing

CHUNK = 1 << 20


def sha256_file(path: Path) -> str:
    """Hash a file's content (streamed; large files don't load into memory)."""
    h = hashlib.sha256()
    try:
        with path.open("rb") as fh:
            while block := fh.read(CHUNK):
                h.update(block)
    except FileNotFoundError as exc:
        raise FileMissing(f"The file no longer exists: {path.name}") from exc
    except OSError as exc:
        raise FileMissing(f"The file cannot be read ({exc.strerror or exc}): {path.name}") from exc
    return h.hexdigest()


def store_copy(src: Path, sha: str, library: Path) -> Path:
    """Copy ``src`` into the library under its hash (atomic rename; no-op if already there)."""
    library.mkdir(parents=True, exist_ok=True)
    ext = src.suffix.lower() if src.suffix.lower() in (".pdf", ".docx") else ".bin"
    dest = library / f"{sha}{ext}"
    if dest.exists():
        return dest
    tmp = dest.with_name(dest.name + f".{os.getpid()}.tmp")
    try:
        shutil.copyfile(src, tmp)
        os.replace(tmp, dest)
    except FileNotFoundError as exc:
        raise FileMissing(f"The file no longer exists: {src.name}") from exc
    except OSError as exc:
        raise FileMissing(f"The file cannot be copied ({exc.strerror or exc}): {src.name}") from exc
    finally:
        if tmp.exists():
            tmp.unlink(missing_ok=True)
    return dest
