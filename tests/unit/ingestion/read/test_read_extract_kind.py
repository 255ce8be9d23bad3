"""Files are told apart by structure: a Word package that carries "%PDF-" early is still Word."""

from __future__ import annotations

import zipfile
from pathlib import Path

from cvrag_desktop.ingestion.read.extract import extract_document, sniff_kind

_CT = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
       'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
       'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/'
       'document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.'
       'main+xml"/></Types>')
_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
         '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
         'relationships/officeDocument" Target="word/document.xml"/></Relationships>')
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _docx_with_pdf_marker(path: Path) -> Path:
    paras = "".join(f'<w:p><w:r><w:t>{t}</w:t></w:r></w:p>' for t in (
        "Tamsin Quorvel", "Charge Nurse", "tamsin.quorvel@example.org", "Experience",
        "Charge Nurse, Northgate Clinic", "2019 - 2024"))
    with zipfile.ZipFile(path, "w") as z:
        # a stored first part whose text says "%PDF-" inside the first kilobyte
        z.writestr(zipfile.ZipInfo("customXml/note.xml"), "<note>%PDF-1.7 is mentioned here</note>",
                   compress_type=zipfile.ZIP_STORED)
        z.writestr("[Content_Types].xml", _CT)
        z.writestr("_rels/.rels", _RELS)
        z.writestr("word/document.xml", f'<w:document xmlns:w="{_W}"><w:body>{paras}</w:body></w:document>')
    return path


def test_a_word_package_with_a_pdf_marker_in_its_first_kilobyte_is_read_as_word(tmp_path: Path):
    path = _docx_with_pdf_marker(tmp_path / "cv.docx")
    assert b"%PDF-" in path.read_bytes()[:1024]
    assert sniff_kind(path) == "docx"
    doc = extract_document(path)
    assert any("Tamsin Quorvel" in line.text for line in doc.lines)


def test_a_pdf_whose_header_is_not_at_byte_zero_is_still_a_pdf(tmp_path: Path):
    path = tmp_path / "cv.pdf"
    path.write_bytes(b"\n\n  junk before the header\n%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    assert sniff_kind(path) == "pdf"
