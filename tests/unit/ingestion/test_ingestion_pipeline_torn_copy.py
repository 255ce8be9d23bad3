"""Torn-file detection (issue 22, 9d): a source rewritten while it is copied into the library is
copied once more, and refused as ``changed`` if it changes again — a torn copy is never stored.

The "save in progress" is simulated deterministically: the source is opened through a wrapper
whose first read rewrites the file on disk (same size, mtime put back, so only the hash after the
copy can tell), with small read blocks so the copy really mixes the old and the new bytes.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.catalog import library
from tests.unit.ingestion.test_ingestion_pipeline import make_cv_pdf


@pytest.fixture
def svc():
    s = App()
    yield s
    s.close()


class _SavedWhileRead:
    """A source file object whose first read triggers ``rewrite`` (another program saving the file)."""

    def __init__(self, fh, rewrite) -> None:
        self._fh, self._rewrite, self._first = fh, rewrite, True

    def read(self, n: int = -1) -> bytes:
        data = self._fh.read(n)
        if self._first:
            self._first = False
            self._rewrite()
        return data

    def fileno(self) -> int:
        return self._fh.fileno()

    def close(self) -> None:
        self._fh.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self._fh.close()


def _saving(monkeypatch, path: Path, versions: list[bytes], saves: int) -> list[int]:
    """Make the first ``saves`` opens of ``path`` rewrite it in place (open n writes ``versions[n % len]``) on their first read."""
    real_open = library._open_regular
    opened = [0]

    def rewrite() -> None:
        st = path.stat()
        with open(path, "r+b") as fh:  # in place: same inode, same size
            fh.write(versions[opened[0] % len(versions)])
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # the mtime put back: only the hash can tell

    def open_regular(p, shown):
        fh = real_open(p, shown)
        if Path(p) != path or opened[0] >= saves:
            return fh
        opened[0] += 1
        return _SavedWhileRead(fh, rewrite)

    monkeypatch.setattr(library, "CHUNK", 512)  # several blocks: the copy mixes old and new bytes
    monkeypatch.setattr(library, "_open_regular", open_regular)
    return opened


def _library_files(svc) -> list[Path]:
    return sorted(p for p in svc.paths.library_dir.rglob("*") if p.is_file())


def test_a_file_that_keeps_changing_is_refused_and_nothing_torn_is_stored(tmp_path, svc, monkeypatch):
    src = make_cv_pdf(tmp_path / "cv.pdf")
    first = src.read_bytes()
    second = make_cv_pdf(tmp_path / "other.pdf", name="Jana Roe").read_bytes()
    # MuPDF writes a random /ID, escaped to a length that varies by a byte or two: pad after %%EOF
    # (readers ignore it) so the two saves have the same size, as an editor saving in place would
    size = max(len(first), len(second))
    first, second = first.ljust(size, b"\n"), second.ljust(size, b"\n")
    src.write_bytes(first)
    assert len(first) == len(second) and first != second
    _saving(monkeypatch, src, [first, second], saves=100)  # saved again and again during the import
    report = svc.library.ingest([src], use_llm=False)
    (outcome,) = report.files
    assert outcome.status == "changed"
    assert outcome.error == "cv.pdf changed while being imported; try again when it is saved."
    assert report.ingested == 0 and report.failed[0]["status"] == "changed"
    assert _library_files(svc) == []  # neither a torn copy nor a temporary one is left
    assert svc.people.list_candidates() == []
    rows = svc.catalog.files()
    assert [(r["status"], r["sha256"]) for r in rows] == [("changed", None)]


def test_a_file_saved_once_during_the_copy_is_copied_again(tmp_path, svc, monkeypatch):
    src = make_cv_pdf(tmp_path / "cv.pdf")
    saved = make_cv_pdf(tmp_path / "saved.pdf", name="Jana Roe").read_bytes()
    size = max(len(saved), src.stat().st_size)  # the same size (MuPDF's random /ID varies it), saved in place
    src.write_bytes(src.read_bytes().ljust(size, b"\n"))
    saved = saved.ljust(size, b"\n")
    opened = _saving(monkeypatch, src, [saved], saves=1)
    report = svc.library.ingest([src], use_llm=False)
    assert opened[0] == 1
    (outcome,) = report.files
    assert outcome.status == "done", outcome.error
    (stored,) = _library_files(svc)
    sha = hashlib.sha256(saved).hexdigest()
    assert stored.read_bytes() == saved  # the whole saved version, not a mix of the two
    assert stored.name == f"{sha}.pdf"  # named by the hash of the bytes actually copied
    assert [r["sha256"] for r in svc.catalog.files()] == [sha]
    assert [c["name"] for c in svc.people.list_candidates()] == ["Jana Roe"]


def test_a_torn_read_is_caught_by_the_size_and_mtime_too(tmp_path, monkeypatch):
    src = make_cv_pdf(tmp_path / "cv.pdf")
    real_copy = library._copy_bytes

    def growing(fh, dst, max_bytes, shown, lib):  # appended to while copied: the stat check sees it
        out = real_copy(fh, dst, max_bytes, shown, lib)
        with open(src, "ab") as more:
            more.write(b"\n% appended by a save in progress\n")
        return out

    monkeypatch.setattr(library, "_copy_bytes", growing)
    checked = library.check_source(src, None, 10_000_000)
    with pytest.raises(library.SourceChanged):
        library.copy_into_library(checked, tmp_path / "lib", 10_000_000, "cv.pdf")
    assert list((tmp_path / "lib").iterdir()) == []
