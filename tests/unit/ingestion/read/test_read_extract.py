"""Layout-aware extraction on real CVs: columns, date gutters, cleaning, running lines."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from cvrag_desktop.errors import NeedsOcr, PdfEncrypted, PdfUnreadable, TooLarge, UnsupportedFormat
from cvrag_desktop.ingestion.read.extract import extract_document


def _text(real_cvs_dir: Path, name: str) -> str:
    return extract_document(real_cvs_dir / "pdf" / name).text


def test_sidebar_does_not_interleave_work_history(real_cvs_dir):
    text = _text(real_cvs_dir, "latexcv_sidebarleft.pdf")
    block = text[text.index("WORK EXPERIENCE"):text.index("Achievements include:")]
    assert "yrs" not in block  # the skill bars of the sidebar stay out of the job entry
    assert "Example St. 1" not in block


def test_two_column_keeps_entries_contiguous(real_cvs_dir):
    text = _text(real_cvs_dir, "deedy_resume_openfont.pdf")
    exp = text[text.index("EXPERIENCE"):]
    assert exp.index("FACEBOOK | SOFTWARE ENGINEER") < exp.index("Jan 2015 - Present")
    assert "COURSEWORK" not in exp  # left column read before the right one


def test_date_gutter_stays_on_its_row(real_cvs_dir):
    text = _text(real_cvs_dir, "moderncv_jdoe_classic.pdf")
    assert re.search(r"2003–2006\s+Master of Design, Valparezzo School of Design\.", text)


def test_words_broken_across_lines_are_rejoined(real_cvs_dir):
    text = _text(real_cvs_dir, "latexcv_two_column.pdf")
    assert "learning management system" in text
    assert "learn-\ning" not in text


def test_icon_glyphs_and_soft_hyphens_removed(real_cvs_dir):
    text = _text(real_cvs_dir, "awesomecv_resume.pdf")
    assert "\u00ad" not in text and "high-impact" in text
    assert not any(0xE000 <= ord(c) <= 0xF8FF for c in text)


def test_running_footer_and_page_numbers_dropped(real_cvs_dir):
    text = _text(real_cvs_dir, "resumematcher_alfred_pennyworth_pm.pdf")
    assert "\n1/2\n" not in text and "\n2/2" not in text


def test_71_page_cv_reads_within_limits(real_cvs_dir):
    doc = extract_document(real_cvs_dir / "pdf" / "rendercv_test_classic_full.pdf")
    assert doc.page_count == 71 and "John Doe" in doc.text


def test_image_only_without_ocr_engine_is_needs_ocr(real_cvs_dir, monkeypatch):
    from cvrag_desktop.ingestion.read import ocr

    monkeypatch.setattr(ocr, "get_engine", lambda: None)
    with pytest.raises(NeedsOcr, match="scan"):
        extract_document(real_cvs_dir / "pdf" / "DERIVED_imageonly_rendercv_classic_johndoe.pdf")


def test_empty_and_renamed_and_truncated(tmp_path):
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    with pytest.raises(PdfUnreadable, match="empty"):
        extract_document(empty)
    renamed = tmp_path / "notes.pdf"
    renamed.write_text("just some text, not a PDF")
    with pytest.raises(UnsupportedFormat):
        extract_document(renamed)
    good = pymupdf.open()
    good.new_page().insert_text((72, 72), "Jane Roe")
    data = good.tobytes()
    trunc = tmp_path / "trunc.pdf"
    trunc.write_bytes(data[: len(data) // 3])
    with pytest.raises((PdfUnreadable, NeedsOcr)):
        extract_document(trunc)


def test_encrypted_pdf(tmp_path):
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Secret CV")
    path = tmp_path / "locked.pdf"
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="pw2")
    with pytest.raises(PdfEncrypted, match="password"):
        extract_document(path)


def test_decompression_bomb_and_page_limit(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Bomb")
    doc.update_stream(page.get_contents()[0], b"%" + b" " * 40_000_000 + b"\n", compress=True)
    bomb = tmp_path / "bomb.pdf"
    doc.save(bomb)
    assert bomb.stat().st_size < 1_000_000
    with pytest.raises(TooLarge, match="decompress"):
        extract_document(bomb)
    many = pymupdf.open()
    for _ in range(3000):
        many.new_page(width=200, height=200)
    big = tmp_path / "many.pdf"
    many.save(big)
    with pytest.raises(TooLarge, match="3000 pages"):
        extract_document(big)
