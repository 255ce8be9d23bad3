"""Content-addressed copies of imported files (``library/<sha256><ext>``).

Previews and citations keep working after the recruiter moves or deletes the
original; identical files are stored once.

A file is checked before anything is copied (:func:`check_source`): it must be a
regular file (a FIFO or a device would hang or never end), a symlink must point inside
the folders the user chose, and its size and leading bytes must be those of an
acceptable PDF or DOCX. The copy (:func:`copy_into_library`) hashes the bytes it
actually copies, stops at the size limit even if the file grows meanwhile, verifies the
written copy against that hash (re-read), and names it by its real type (a DOCX called ``.pdf``
is stored as ``.docx``). A source rewritten during the copy (size, mtime or inode moved, or it no
longer hashes to the bytes copied) is copied once more, then refused as ``changed``: a torn copy
is never stored.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from cvrag_desktop.errors import CvragError, DiskFull, FileMissing, PdfUnreadable, TooLarge, UnsupportedFormat

CHUNK = 1 << 20
KIND_EXT = {"pdf": ".pdf", "docx": ".docx"}


class UnsafeFile(CvragError):
    """The path is a link leading outside the chosen folders (or otherwise not safe to read)."""

    status = "refused"


@dataclass(frozen=True)
class Checked:
    """A source file that passed :func:`check_source`."""

    path: Path  # the resolved path that will be read
    size: int
    kind: str  # pdf | docx


@dataclass(frozen=True)
class Copied:
    """A verified copy waiting in the library under a temporary name."""

    tmp: Path
    sha: str
    size: int
    kind: str


def _missing(exc: OSError, name: str) -> FileMissing:
    if isinstance(exc, FileNotFoundError):
        return FileMissing(f"The file no longer exists: {name}")
    return FileMissing(f"The file cannot be read ({exc.strerror or exc}): {name}")


def _write_error(exc: OSError, library: Path) -> CvragError:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return DiskFull(f"The disk holding the library ({library}) is full: free some space and import again.")
    return CvragError(f"The library folder {library} cannot be written ({exc.strerror or exc}).")


def sniff_bytes(head: bytes, name: str) -> str:
    """``pdf`` or ``docx`` from a file's leading bytes (never from its name)."""
    if not head:
        raise PdfUnreadable(f"The file is empty (0 bytes): {name}")
    if b"%PDF-" in head[:1024]:
        return "pdf"
    if head.startswith(b"PK\x03\x04"):
        return "docx"
    raise UnsupportedFormat(f"{name} is not a PDF or Word (.docx) document (its content does not match its name).")


def _inside(path: Path, roots: list[Path]) -> bool:
    return any(path == r or path.is_relative_to(r) for r in roots)


def check_source(path: Path, roots: list[Path] | None, max_bytes: int) -> Checked:
    """Refuse what must not be copied: non-regular files, links leaving ``roots``, oversize, wrong type.

    Uses only ``lstat``/``stat`` and a non-blocking open, so a FIFO or a device given on
    the command line is refused instead of hanging the import.
    """
    name = os.fsdecode(path.name)
    try:
        st = path.lstat()
    except OSError as exc:
        raise _missing(exc, name) from exc
    real = path
    if stat.S_ISLNK(st.st_mode):
        try:
            real = path.resolve(strict=True)
            st = real.stat()
        except (OSError, RuntimeError) as exc:
            raise FileMissing(f"{name} is a link to a file that does not exist.") from exc
        if roots is not None and not _inside(real, roots):
            raise UnsafeFile(f"{name} is a link to {os.fsdecode(real)}, outside the folders chosen for import; "
                             "it was not read.")
    if not stat.S_ISREG(st.st_mode):
        kind = ("a folder" if stat.S_ISDIR(st.st_mode) else "a pipe (FIFO)" if stat.S_ISFIFO(st.st_mode)
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
        raise UnsupportedFormat(f"{name} is {kind}, not a regular file; only PDF and Word files are imported.")
    if st.st_size > max_bytes:
        raise TooLarge(f"{name} is {st.st_size / 1e6:.0f} MB; the limit is {max_bytes / 1e6:.0f} MB "
                       "(max_file_mb). It was not copied.")
    try:
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise _missing(exc, name) from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for a FIFO/device after the stat
            raise UnsupportedFormat(f"{name} is not a regular file; only PDF and Word files are imported.")
        head = os.read(fd, 1024)
    except OSError as exc:
        raise _missing(exc, name) from exc
    finally:
        os.close(fd)
    return Checked(real, st.st_size, sniff_bytes(head, name))


COPY_ATTEMPTS = 2  # a file that changes while it is copied is copied once more before it is refused


class SourceChanged(CvragError):
    """The source changed while it was being copied (a save in progress): no torn copy is kept."""

    status = "changed"


def copy_into_library(checked: Checked, library: Path, max_bytes: int, shown_name: str) -> Copied:
    """Copy a checked file to a temporary name in the library, hashing exactly the bytes copied.

    The copy is re-read and compared with that hash before it is accepted; more than
    ``max_bytes`` (the file grew since it was checked) aborts the copy. A source that changed
    while it was copied (its size, mtime or inode moved, or it no longer hashes to the bytes
    copied: a torn read of a file being saved) is copied once more; if it changes again it is
    refused with status ``changed`` and nothing is kept.
    """
    try:
        library.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _write_error(exc, library) from exc
    for _attempt in range(COPY_ATTEMPTS):
        copied = _copy_once(checked, library, max_bytes, shown_name)
        if copied is not None:
            return copied
    raise SourceChanged(f"{shown_name} changed while being imported; try again when it is saved.")


def _stamp(st: os.stat_result) -> tuple[int, int, int]:
    return st.st_size, st.st_mtime_ns, st.st_ino


def _open_regular(path: Path, shown_name: str):
    """The source opened for reading without blocking (a FIFO swapped in never hangs us); must be regular."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        src = os.fdopen(fd, "rb")
    except OSError as exc:
        raise _missing(exc, shown_name) from exc
    if not stat.S_ISREG(os.fstat(src.fileno()).st_mode):
        src.close()
        raise UnsupportedFormat(f"{shown_name} is not a regular file.")
    return src


def _copy_bytes(src, dst, max_bytes: int, shown_name: str, library: Path) -> tuple[str, int]:
    """Stream ``src`` into ``dst``; the sha256 and size of exactly the bytes written."""
    h = hashlib.sha256()
    size = 0
    while True:
        try:
            block = src.read(CHUNK)
        except OSError as exc:
            raise _missing(exc, shown_name) from exc
        if not block:
            break
        size += len(block)
        if size > max_bytes:
            raise TooLarge(f"{shown_name} grew past the {max_bytes / 1e6:.0f} MB limit (max_file_mb) "
                           "while it was being copied. It was not kept.")
        h.update(block)
        try:
            dst.write(block)
        except OSError as exc:
            raise _write_error(exc, library) from exc
    try:
        dst.flush()  # no fsync (2-3 ms a file): the catalog transaction is the commit point
    except OSError as exc:
        raise _write_error(exc, library) from exc
    return h.hexdigest(), size


def _unchanged(path: Path, before: os.stat_result, after: os.stat_result, sha: str) -> bool:
    """True when the source is still what was copied: same size, mtime and inode (through the open
    file and by its path, so a save that replaced the file is seen) and, read again, the same hash."""
    try:
        now = os.stat(path)
    except OSError:
        return False  # gone or replaced mid-save: the next attempt says which
    if not _stamp(before) == _stamp(after) == _stamp(now):
        return False
    h = hashlib.sha256()
    try:
        with _open_regular(path, path.name) as fh:
            while block := fh.read(CHUNK):
                h.update(block)
    except (OSError, CvragError):
        return False
    return h.hexdigest() == sha


def _copy_once(checked: Checked, library: Path, max_bytes: int, shown_name: str) -> Copied | None:
    """One copy attempt: the verified copy, or None when the source changed while it was read."""
    tmp = library / f".incoming-{os.getpid()}-{os.urandom(6).hex()}.tmp"
    ok = False
    try:
        with _open_regular(checked.path, shown_name) as src:
            before = os.fstat(src.fileno())
            try:
                dst = tmp.open("xb")
            except OSError as exc:
                raise _write_error(exc, library) from exc
            with dst:
                sha, size = _copy_bytes(src, dst, max_bytes, shown_name, library)
            after = os.fstat(src.fileno())
        if not _unchanged(checked.path, before, after, sha):
            return None
        if size == 0:
            raise PdfUnreadable(f"The file is empty (0 bytes): {shown_name}")
        with tmp.open("rb") as fh:
            kind = sniff_bytes(fh.read(1024), shown_name)
        if sha256_file(tmp) != sha:
            raise FileMissing(f"The library copy of {shown_name} does not match what was read; import it again.")
        ok = True
        return Copied(tmp, sha, size, kind)
    finally:
        if not ok:
            with contextlib.suppress(OSError):
                tmp.unlink()


def commit_copy(copied: Copied, library: Path) -> Path:
    """Give a verified copy its content-addressed name (``<sha256>.pdf|.docx``, by real type)."""
    dest = library / f"{copied.sha}{KIND_EXT.get(copied.kind, '.bin')}"
    try:
        if dest.exists():
            copied.tmp.unlink(missing_ok=True)
        else:
            os.replace(copied.tmp, dest)
    except OSError as exc:
        with contextlib.suppress(OSError):
            copied.tmp.unlink()
        raise _write_error(exc, library) from exc
    return dest


PREVIEWS = "previews"  # <data>/previews/<sha256>.pdf: a Word copy's rendered preview (beside, not in, the library)


def preview_path(stored: str | os.PathLike) -> Path:
    """Where the preview PDF of a library copy lives (``<data>/library/<sha>.docx`` → ``<data>/previews/<sha>.pdf``).

    Content-addressed like the copy, and outside the library folder so that a rebuild from
    the library never imports a preview as a CV; forgetting the copy removes it too.
    """
    p = Path(stored)
    return p.parent.parent / PREVIEWS / f"{p.stem}.pdf"


def discard_copy(copied: Copied) -> None:
    """Drop a temporary copy that will not be kept (a duplicate)."""
    with contextlib.suppress(OSError):
        copied.tmp.unlink()


def sha256_file(path: Path) -> str:
    """Hash a file's content (streamed; large files don't load into memory)."""
    h = hashlib.sha256()
    try:
        with path.open("rb") as fh:
            while block := fh.read(CHUNK):
                h.update(block)
    except OSError as exc:
        raise _missing(exc, path.name) from exc
    return h.hexdigest()


def store_copy(src: Path, sha: str, library: Path) -> Path:
    """Copy ``src`` into the library under its hash and real type (no-op if already there)."""
    checked = check_source(src, None, 1 << 62)
    copied = copy_into_library(checked, library, 1 << 62, src.name)
    if copied.sha != sha:
        discard_copy(copied)
        raise FileMissing(f"{src.name} changed while it was being imported; import it again.")
    return commit_copy(copied, library)
