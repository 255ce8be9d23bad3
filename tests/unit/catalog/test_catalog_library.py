"""Files are checked before they are copied into the library, and the copy is verified."""

from __future__ import annotations

import hashlib
import os
import threading

import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.config import IngestLimits
from tests.support import hostile


@pytest.fixture
def svc():
    s = App()
    yield s
    s.close()


def _ingest_with_timeout(svc, inputs, seconds=60):
    """Run an import on a thread so a hang fails the test instead of freezing the run."""
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("report", svc.library.ingest(inputs, use_llm=False)), daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "the import hung"
    return box["report"]


def _library(svc):
    lib = svc.paths.library_dir
    return sorted(p.name for p in lib.iterdir()) if lib.exists() else []


def _status(report):
    return {f.path.rsplit("/", 1)[-1]: (f.status, f.error) for f in report.files}


def test_fifo_and_dev_zero_on_the_command_line_do_not_hang(tmp_path, svc):
    fifo = tmp_path / "cv.pdf"
    os.mkfifo(fifo)
    good = hostile.good_cv_pdf(tmp_path / "good.pdf")
    report = _ingest_with_timeout(svc, [fifo, tmp_path.joinpath("/dev/zero"), good])
    st = _status(report)
    assert st["cv.pdf"][0] == "unsupported" and "pipe" in st["cv.pdf"][1]
    assert st["zero"][0] == "unsupported" and "device" in st["zero"][1]
    assert st["good.pdf"][0] == "done"
    assert len(_library(svc)) == 1


def test_symlink_leaving_the_chosen_folder_is_refused(tmp_path, svc):
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = hostile.good_cv_pdf(outside / "secret.pdf", name="Secret Person", email="s@x.org")
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / "cv.pdf").symlink_to(secret)
    inside = hostile.good_cv_pdf(folder / "real.pdf")
    (folder / "alias.pdf").symlink_to(inside)  # a link that stays inside is fine (and a duplicate)
    report = _ingest_with_timeout(svc, [folder])
    st = _status(report)
    assert st["cv.pdf"][0] == "refused" and "outside the folders" in st["cv.pdf"][1]
    assert report.ingested == 1
    assert [c["name"] for c in svc.people.list_candidates()] == ["Jane Roe"]
    assert len(_library(svc)) == 1


def test_oversized_file_is_not_copied(tmp_path, svc):
    svc.settings.limits = IngestLimits(max_file_mb=1)
    big = hostile.good_cv_pdf(tmp_path / "big.pdf")
    with big.open("ab") as fh:
        fh.write(b"%" + b"x" * 2_000_000 + b"\n")
    report = _ingest_with_timeout(svc, [big])
    status, error = _status(report)["big.pdf"]
    assert status == "too_large" and "max_file_mb" in error and "not copied" in error
    assert _library(svc) == []


def test_docx_named_pdf_is_stored_as_docx_and_copy_is_verified(tmp_path, svc):
    real = hostile.good_cv_docx(tmp_path / "x.docx")
    named = tmp_path / "cv.pdf"
    real.rename(named)
    report = _ingest_with_timeout(svc, [named])
    assert report.ingested == 1
    stored = [p for p in svc.paths.library_dir.iterdir()]
    assert len(stored) == 1 and stored[0].suffix == ".docx"
    digest = hashlib.sha256(stored[0].read_bytes()).hexdigest()
    assert stored[0].stem == digest == hashlib.sha256(named.read_bytes()).hexdigest()


def test_rejected_files_are_not_kept_and_refusals_keep_one_row(tmp_path, svc):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "renamed.pdf").write_text("hello, not a pdf")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\n garbage that is no PDF at all\n" * 20)
    (folder / ".hidden.pdf").write_bytes(hostile.good_cv_pdf(tmp_path / "h.pdf").read_bytes())
    os.mkfifo(folder / "pipe.pdf")
    gone = tmp_path / "gone.pdf"
    for _ in range(3):
        report = _ingest_with_timeout(svc, [folder, gone])
    st = _status(report)
    assert st["renamed.pdf"][0] == "unsupported"
    assert st["broken.pdf"][0] == "unreadable"
    assert st[".hidden.pdf"][0] == "skipped" and "hidden" in st[".hidden.pdf"][1]
    assert st["gone.pdf"][0] == "missing"
    assert st["pipe.pdf"][0] == "unsupported" and "pipe" in st["pipe.pdf"][1]
    assert _library(svc) == []  # nothing rejected stays in the library
    rows = svc.catalog.query("SELECT original_path, COUNT(*) AS n FROM files GROUP BY original_path")
    assert all(r["n"] == 1 for r in rows), [dict(r) for r in rows]


def test_disk_full_is_its_own_status(tmp_path, svc, monkeypatch):
    import errno

    from cvrag_desktop.catalog import library

    good = hostile.good_cv_pdf(tmp_path / "good.pdf")
    real_open = library.Path.open

    class FullFile:
        """A library temp file on a full disk: writing fails with ENOSPC."""

        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

        def __getattr__(self, name):
            return getattr(self.fh, name)

    def opener(self, mode="r", *a, **k):
        fh = real_open(self, mode, *a, **k)
        return FullFile(fh) if mode == "xb" else fh

    monkeypatch.setattr(library.Path, "open", opener)
    report = _ingest_with_timeout(svc, [good])
    status, error = _status(report)["good.pdf"]
    assert status == "disk_full" and "full" in error
    monkeypatch.setattr(library.Path, "open", real_open)
    assert _library(svc) == []  # not even the temporary copy
