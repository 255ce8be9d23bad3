"""Word documents go through the same pipeline as PDFs."""

from __future__ import annotations

import docx
import pytest

from cvrag_desktop.errors import PdfUnreadable, UnsupportedFormat
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document


def make_docx(path):
    d = docx.Document()
    d.add_heading("María García López", level=0)
    d.add_paragraph("Data Scientist\tmaria.garcia@example.es\t+34 612 345 678")
    d.add_heading("Experiencia profesional", level=1)
    d.add_paragraph("Data Scientist, Telefónica S.A.\t03/2020 - actualidad")
    d.add_paragraph("• Modelos de churn con Python y scikit-learn")
    d.add_heading("Formación", level=1)
    d.add_paragraph("Máster en Ciencia de Datos, Universidad de Granada\t2017 - 2019")
    d.add_heading("Idiomas", level=1)
    t = d.add_table(rows=2, cols=2)
    t.cell(0, 0).text, t.cell(0, 1).text = "Español", "Nativo"
    t.cell(1, 0).text, t.cell(1, 1).text = "Inglés", "C1"
    d.save(path)
    return path


def test_docx_cv_is_structured(tmp_path):
    doc = extract_document(make_docx(tmp_path / "maria.docx"))
    assert doc.method == "docx"
    cv, _ = normalize_document(doc)
    assert cv.name == "María García López"
    assert cv.emails == ["maria.garcia@example.es"]
    assert cv.current_company == "Telefónica S.A." and cv.current_title == "Data Scientist"
    assert cv.institutions == ["Universidad de Granada"]
    assert set(cv.languages) == {"Spanish", "English"}
    assert "scikit-learn" in cv.skills


def test_broken_docx(tmp_path):
    bad = tmp_path / "bad.docx"
    bad.write_bytes(b"PK\x03\x04" + b"\x00" * 100)
    with pytest.raises(PdfUnreadable):
        extract_document(bad)
    import zipfile

    other = tmp_path / "other.docx"
    with zipfile.ZipFile(other, "w") as zf:
        zf.writestr("hello.txt", "hi")
    with pytest.raises(UnsupportedFormat):
        extract_document(other)
