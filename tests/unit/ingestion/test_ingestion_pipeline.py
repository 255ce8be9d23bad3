"""Batch ingestion: fault isolation, dedupe, resume, cancel, bad inputs, workers."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pymupdf
import pytest

from cvrag_desktop.app.assembly import App


def make_cv_pdf(path: Path, name: str = "Jane Roe", email: str = "jane.roe@example.com") -> Path:
    """A small but real one-page CV."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 72
    for size, line in [
        (20, name), (11, "Senior Backend Engineer"), (10, email), (14, "Experience"),
        (10, "Senior Backend Engineer, Acme Corp, Madrid"), (10, "Jan 2019 - Present"),
        (10, "• Built Kafka pipelines in Python and Go"), (14, "Education"),
        (10, "MSc in Computer Science, Universidad Politecnica de Madrid"), (10, "2012 - 2014"),
        (14, "Skills"), (10, "Python, Kubernetes, PostgreSQL, Kafka"),
    ]:
        page.insert_text((72, y), line, fontsize=size)
        y += size + 8
    doc.save(path)
    return path


@pytest.fixture
def svc():
    s = App()
    yield s
    s.close()


def test_folder_with_bad_files_never_aborts(tmp_path, svc, real_cvs_dir):
    d = tmp_path / "in"
    d.mkdir()
    make_cv_pdf(d / "good.pdf")
    (d / "empty.pdf").write_bytes(b"")
    (d / "renamed.pdf").write_text("hello, not a pdf")
    data = (d / "good.pdf").read_bytes()
    (d / "truncated.pdf").write_bytes(data[:300])
    locked = pymupdf.open()
    locked.new_page().insert_text((72, 72), "x")
    locked.save(d / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="a", owner_pw="b")
    many = pymupdf.open()
    for _ in range(2000):
        many.new_page(width=100, height=100)
    many.save(d / "huge.pdf")
    (d / "notes.txt").write_text("ignored: not a CV format")
    report = svc.library.ingest([d], use_llm=False)
    statuses = {Path(f.path).name: f.status for f in report.files}
    assert statuses == {
        "good.pdf": "done", "empty.pdf": "unreadable", "renamed.pdf": "unsupported",
        "truncated.pdf": "unreadable", "locked.pdf": "encrypted", "huge.pdf": "too_large",
    }
    assert report.ingested == 1 and len(report.failed) == 5
    assert all(f["error"] for f in report.failed)
    rows = {r["file_name"]: r for r in svc.library.files()}
    assert rows["locked.pdf"]["status"] == "encrypted" and "password" in rows["locked.pdf"]["error"]
    assert len(svc.people.list_candidates()) == 1


def test_same_file_twice_is_a_duplicate(tmp_path, svc):
    a = make_cv_pdf(tmp_path / "a.pdf")
    shutil.copy(a, tmp_path / "copy_of_a.pdf")
    first = svc.library.ingest([a], use_llm=False)
    second = svc.library.ingest([a, tmp_path / "copy_of_a.pdf"], use_llm=False)
    assert first.ingested == 1 and second.ingested == 0 and second.duplicates == 2
    assert len(svc.people.list_candidates()) == 1


def test_copies_inside_one_import_are_duplicates(tmp_path, svc):
    a = make_cv_pdf(tmp_path / "a.pdf")
    shutil.copy(a, tmp_path / "again.pdf")
    report = svc.library.ingest([a, tmp_path / "again.pdf"], use_llm=False)
    assert report.ingested == 1 and report.duplicates == 1
    assert len(svc.people.list_candidates()) == 1


def test_library_copy_survives_original_deletion(tmp_path, svc):
    a = make_cv_pdf(tmp_path / "a.pdf")
    svc.library.ingest([a], use_llm=False)
    a.unlink()
    row = svc.people.list_candidates()[0]
    assert Path(row["stored_path"]).exists() and row["source_path"].endswith("a.pdf")


def test_missing_and_unreadable_files(tmp_path, svc, monkeypatch):
    good = make_cv_pdf(tmp_path / "good.pdf")
    gone = tmp_path / "gone.pdf"
    blocked = make_cv_pdf(tmp_path / "blocked.pdf", name="Bob Stone", email="bob@x.org")
    real_open = os.open

    def guarded_open(path, *a, **k):  # the import opens sources with os.open (non-blocking: FIFOs never hang)
        if os.fsdecode(path).endswith("blocked.pdf"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *a, **k)

    monkeypatch.setattr(os, "open", guarded_open)
    report = svc.library.ingest([good, gone, blocked], use_llm=False)
    statuses = {Path(f.path).name: (f.status, f.error) for f in report.files}
    assert statuses["good.pdf"][0] == "done"
    assert statuses["gone.pdf"][0] == "missing" and "no longer exists" in statuses["gone.pdf"][1]
    assert statuses["blocked.pdf"][0] == "missing" and "Permission denied" in statuses["blocked.pdf"][1]


def test_non_utf8_file_name(tmp_path, svc):
    folder = tmp_path / "odd"
    folder.mkdir()
    src = make_cv_pdf(tmp_path / "src.pdf")
    raw = os.fsencode(folder) + b"/cv_\xff\xfe.pdf"
    with open(raw, "wb") as fh:
        fh.write(src.read_bytes())
    report = svc.library.ingest([folder], use_llm=False)
    assert report.ingested == 1
    assert "\ufffd" in report.files[0].path  # shown with a replacement character, not a crash


def test_image_only_pdf_with_and_without_ocr(real_cvs_dir, svc, monkeypatch):
    from cvrag_desktop.ingestion.read import ocr

    scan = real_cvs_dir / "pdf" / "DERIVED_imageonly_rendercv_classic_johndoe.pdf"
    monkeypatch.setattr(ocr, "get_engine", lambda: None)
    monkeypatch.setenv("CVRAG_DISABLE_OCR", "1")  # parsing runs in worker processes: they read the environment
    report = svc.library.ingest([scan], use_llm=False)
    assert report.files[0].status == "needs_ocr" and "OCR" in report.files[0].error
    assert svc.people.list_candidates() == []  # never an empty or invented candidate


@pytest.mark.slow
def test_image_only_pdf_is_ocrd(real_cvs_dir, svc):
    from cvrag_desktop.ingestion.read import ocr

    if ocr.get_engine() is None:
        pytest.skip("no OCR engine installed")
    scan = real_cvs_dir / "pdf" / "DERIVED_imageonly_rendercv_classic_johndoe.pdf"
    report = svc.library.ingest([scan], use_llm=False)
    assert report.ingested == 1
    cand = svc.people.list_candidates()[0]
    assert cand["name"] == "John Doe"
    assert any("email.com" in e for e in cand["emails"])


def test_crash_mid_import_resumes(tmp_path, svc):
    """Files left 'processing' by a killed run are redone on the next run."""
    a = make_cv_pdf(tmp_path / "a.pdf")
    b = make_cv_pdf(tmp_path / "b.pdf", name="Bob Stone", email="bob@x.org")
    svc.library.ingest([a], use_llm=False)
    from cvrag_desktop.catalog.library import sha256_file, store_copy

    sha = sha256_file(b)
    stored = store_copy(b, sha, svc.paths.library_dir)
    svc.catalog.upsert_file(sha=sha, original_path=str(b), file_name=b.name, size=1, status="processing",
                            stored_path=str(stored))
    svc.close()
    fresh = App()
    report = fresh.library.resume_pending()
    assert report.ingested == 1
    assert sorted(c["name"] for c in fresh.people.list_candidates()) == ["Bob Stone", "Jane Roe"]
    fresh.close()


def test_cancel_leaves_rest_queued_then_resumes(tmp_path, svc):
    files = [make_cv_pdf(tmp_path / f"c{i}.pdf", name=f"Person Number{chr(65 + i)}", email=f"p{i}@x.org")
             for i in range(4)]
    seen, phases = [], []
    report = svc.library.ingest(files, use_llm=False, workers=1, should_cancel=lambda: len(seen) >= 1,
                        on_file=lambda o: (phases if o.status == "processing" else seen).append(o))
    assert report.cancelled and report.ingested == 1
    # phase events reach on_file but are neither listed nor counted in the report
    assert {o.phase for o in phases} >= {"reading", "indexing"}
    assert all(o.status != "processing" for o in report.files) and len(report.files) == 1
    assert len(svc.library.files("queued")) == 3
    again = svc.library.resume_pending()
    assert again.ingested == 3 and len(svc.people.list_candidates()) == 4


def test_process_pool_matches_inline(tmp_path, real_cvs_dir):
    pdfs = sorted((real_cvs_dir / "pdf").glob("*.pdf"))
    pdfs = [p for p in pdfs if not p.name.startswith("DERIVED")][:6]
    one = App()
    r1 = one.library.ingest(pdfs, use_llm=False, workers=1)
    names1 = sorted(c["name"] or "" for c in one.people.list_candidates())
    one.close()
    os.environ["CVRAG_HOME"] = str(tmp_path / "home2")
    two = App()
    progress = []
    r2 = two.library.ingest(pdfs, use_llm=False, workers=2, progress=lambda d, t, n: progress.append((d, t)))
    names2 = sorted(c["name"] or "" for c in two.people.list_candidates())
    two.close()
    assert r1.ingested == r2.ingested == 6
    assert names1 == names2
    assert progress[-1] == (6, 6)


def test_llm_down_still_ingests(tmp_path, svc):
    """With the LLM endpoint dead (the autouse fixture points at a closed port) ingestion is deterministic."""
    report = svc.library.ingest([make_cv_pdf(tmp_path / "a.pdf")], use_llm=True)
    assert report.ingested == 1
    assert svc.people.list_candidates()[0]["current_company"] == "Acme Corp"


def test_chunks_fit_the_embedding_window(tmp_path, svc, real_cvs_dir):
    from cvrag_desktop.ingestion.chunking import MAX_TOKENS, approx_tokens

    svc.library.ingest([real_cvs_dir / "pdf" / "rendercv_classic_johndoe.pdf"], use_llm=False)
    cid = svc.people.list_candidates()[0]["id"]
    chunks = svc.catalog.chunks(cid)
    assert {c.section for c in chunks} >= {"education", "experience", "skills"}
    for c in chunks:
        assert approx_tokens(c.text) <= MAX_TOKENS + 60
        assert c.header.startswith("John Doe") and c.header not in c.text
        assert c.page is not None and c.bbox is not None
