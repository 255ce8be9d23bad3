"""Two section headings side by side in one row of a table ("Languages | Certifications"), each
column's rows below: both sections are read, and a certificate's year leaves no empty brackets."""

from __future__ import annotations

from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from tests.support.minipdf import write_pdf


def test_headings_in_one_row_each_read_their_column(tmp_path):
    items = [(60, 40, "Ines Marlow", 20, True), (60, 64, "ines.marlow@example.org"),
             (60, 100, "Skills", 13, True), (60, 118, "Triage"), (200, 118, "Phlebotomy"),
             (60, 150, "Languages", 13, True), (300, 150, "Certifications", 13, True),
             (60, 168, "English (Native)"), (300, 168, "Basic Life Support (BLS) (2021)"),
             (60, 184, "Spanish (B2)"), (300, 184, "Wound Care Certified (WCC) (2023)")]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [items])))
    assert cv.languages == ["English", "Spanish"]
    assert cv.certifications == ["Basic Life Support (BLS)", "Wound Care Certified (WCC)"]
