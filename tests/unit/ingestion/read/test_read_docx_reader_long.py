"""A Word file of 50,000 paragraphs is read in seconds, and only its first MAX_LINES lines (issue 35, item 12)."""

from __future__ import annotations

from docx.text.paragraph import Paragraph

from cvrag_desktop.ingestion.read.extract import extract_document
from cvrag_desktop.ingestion.read.extracted import MAX_LINES
from tests.support.huge_docx import huge_docx


def test_reading_stops_at_max_lines_with_a_warning(tmp_path, monkeypatch):
    path = huge_docx(tmp_path / "huge.docx")
    lookups = []
    real = Paragraph.style.fget

    def counted(paragraph):  # python-docx walks every style of the file for each lookup
        lookups.append(1)
        return real(paragraph)

    monkeypatch.setattr(Paragraph, "style", property(counted, Paragraph.style.fset))
    doc = extract_document(path)
    assert len(doc.lines) == MAX_LINES
    assert doc.lines[0].text == "Zorana Pellworth"
    assert any("only the first 5,000 lines were read" in w for w in doc.warnings)
    assert len(lookups) <= 10, len(lookups)  # styles are found by id in one dictionary, not once per paragraph


def test_a_short_word_file_has_no_warning(tmp_path):
    doc = extract_document(huge_docx(tmp_path / "short.docx", paragraphs=40))
    assert len(doc.lines) == 43 and not doc.warnings
