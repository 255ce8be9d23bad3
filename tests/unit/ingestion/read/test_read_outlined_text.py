"""Text drawn as glyph outlines beside real text is found and read by OCR (our own minimal PDFs)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read import ocr
from cvrag_desktop.ingestion.read.extract import extract_document
from cvrag_desktop.ingestion.read.outlined_text import MIN_OUTLINED_ROWS, outlined_text_rows

_MAIN = ["Nora Castell", "Site Engineer", "Experience", "Site Engineer, Example Works Ltd, 2019 - 2024",
         "Planned the site works for two river bridges", "Led a survey crew of eleven people"]


def _outlined_cv(path: Path) -> Path:
    """A page whose sidebar is real text and whose main column is glyph outlines (text converted to paths)."""
    src = pymupdf.open()
    page = src.new_page(width=595, height=842)
    for n, text in enumerate(_MAIN):
        page.insert_text((230, 80 + 34 * n), text, fontsize=22 if n == 0 else 13)
    outlines = pymupdf.open("svg", page.get_svg_image(text_as_path=True).encode())
    outlined = pymupdf.open("pdf", outlines.convert_to_pdf())
    out = pymupdf.open()
    target = out.new_page(width=595, height=842)
    target.show_pdf_page(target.rect, outlined, 0)
    for n, text in enumerate(["Contact", "nora.castell@example.org", "Skills", "AutoCAD", "Surveying"]):
        target.insert_text((30, 80 + 20 * n), text, fontsize=10)
    out.save(path)
    return path


def test_outlined_rows_are_counted_only_where_real_text_is_sparse(tmp_path):
    doc = pymupdf.open(_outlined_cv(tmp_path / "cv.pdf"))
    assert outlined_text_rows(doc[0], 60) >= MIN_OUTLINED_ROWS
    assert outlined_text_rows(doc[0], 5000) == 0  # a page full of real text is never searched


def test_without_ocr_the_outlined_column_is_reported_not_invented(tmp_path):
    doc = extract_document(_outlined_cv(tmp_path / "cv.pdf"), allow_ocr=False)
    assert "Nora Castell" not in doc.text
    assert any("outlines" in n for n in doc.notes)


@pytest.mark.skipif(ocr.available_engine_name() is None, reason="no OCR engine installed")
def test_the_outlined_main_column_is_read_by_ocr_beside_the_real_sidebar(tmp_path):
    doc = extract_document(_outlined_cv(tmp_path / "cv.pdf"))
    assert doc.method == "pymupdf+ocr"
    assert doc.text.count("nora.castell@example.org") == 1  # the real text is not read twice
    cv, _ = normalize_document(doc)
    assert cv.name == "Nora Castell"
