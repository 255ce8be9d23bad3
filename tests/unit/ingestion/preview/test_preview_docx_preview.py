"""Word files get a preview PDF at import, and every fact and citation points at its lines on it.

The documents are built here with python-docx (invented people only).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import docx
import pymupdf
import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.app.health import document_preview
from cvrag_desktop.catalog.library import preview_path
from cvrag_desktop.config import IngestLimits
from cvrag_desktop.errors import PdfUnreadable
from cvrag_desktop.ingestion.preview.docx_preview import is_synthetic, render_preview
from cvrag_desktop.ingestion.read.docx_reader import extract_docx

NAME = "Oriana Vélez Tamarit"
EMAIL = "oriana.velez@example.org"
LONG = ("Built event streaming pipelines with Kafka and Python for a fleet of warehouses, "
        "with replay tooling and schema checks. ") * 5


def write_docx(path: Path, extra_paragraphs: int = 0) -> Path:
    d = docx.Document()
    d.add_heading(NAME, level=0)
    d.add_paragraph(f"Backend Engineer · {EMAIL} · +34 611 222 333")
    d.add_heading("Experience", level=1)
    d.add_paragraph("Senior Backend Engineer, Quelmar Freight S.L.\t03/2019 - present")
    d.add_paragraph(LONG)
    d.add_paragraph("Backend Developer, Tosca Ledger GmbH\t01/2015 - 02/2019")
    d.add_paragraph("Designed REST services in Go and PostgreSQL.")
    d.add_heading("Education", level=1)
    d.add_paragraph("MSc Computer Science, Universidad de Zaragoza\t2013 - 2015")
    d.add_heading("Skills", level=1)
    d.add_paragraph("Python, Kafka, Go, PostgreSQL, Docker")
    d.add_heading("Languages", level=1)
    t = d.add_table(rows=2, cols=2)
    t.cell(0, 0).text, t.cell(0, 1).text = "Spanish", "Native"
    t.cell(1, 0).text, t.cell(1, 1).text = "German", "B2"
    for i in range(extra_paragraphs):
        d.add_paragraph(f"Side project {i}: tooling for 数据 pipelines")
    d.save(path)
    return path


def inside(hit, bbox, margin: float = 1.0) -> bool:
    x0, y0, x1, y1 = bbox
    return hit.x0 >= x0 - margin and hit.y0 >= y0 - margin and hit.x1 <= x1 + margin and hit.y1 <= y1 + margin


def hits_in(pdf_path: str, page: int, needle: str, bbox) -> list:
    with pymupdf.open(pdf_path) as pdf:
        return [h for h in pdf[page].search_for(needle) if inside(h, bbox)]


@pytest.fixture
def imported(tmp_path):
    svc = App()
    folder = tmp_path / "in"
    folder.mkdir()
    write_docx(folder / "oriana.docx")
    report = svc.library.ingest([folder], use_llm=False, workers=1)
    assert report.ingested == 1, report
    cid = svc.people.list_candidates()[0]["id"]
    yield svc, cid
    svc.close()


def test_every_line_box_holds_its_text_across_pages(tmp_path):
    """The renderer's own record: each parsed line is found inside the box it reports, on its page."""
    doc = extract_docx(write_docx(tmp_path / "long.docx", extra_paragraphs=70), IngestLimits())
    layout = render_preview(doc.lines)
    assert layout.pages >= 2 and len(layout.boxes) == len(doc.lines)
    with pymupdf.open(stream=layout.pdf) as pdf:
        for ln, (page, box) in zip(doc.lines, layout.boxes, strict=True):
            needle = " ".join(ln.text.replace("\t", " ").split()[:3])
            assert any(inside(h, box) for h in pdf[page].search_for(needle)), (needle, page, box)
    assert layout.boxes[-1][0] == layout.pages - 1  # the last side project is on the last page


def test_import_keeps_a_preview_and_facts_point_into_it(imported):
    svc, cid = imported
    rec = svc.people.get_candidate(cid)
    preview = preview_path(rec["stored_path"])
    assert preview.exists() and preview.parent.name == "previews"
    assert rec["stored_path"].endswith(".docx")
    prov = {p["field"]: p for p in rec["provenance"]}
    for field, needle in (("name", NAME), ("emails[0]", EMAIL)):
        p = prov.get(field) or next(q for q in rec["provenance"] if q["value"] == needle)
        assert not is_synthetic(p["page"], p["bbox"])
        assert hits_in(str(preview), p["page"], needle, p["bbox"]), (field, p)
    long_chunk = next(c for c in rec["chunks"] if "replay tooling" in c["text"])
    assert hits_in(str(preview), long_chunk["page"], "replay tooling", long_chunk["bbox"])


def test_a_citation_into_a_docx_opens_at_the_cited_lines(imported):
    """An answer's citation (page + bbox) resolves, through the preview service, to a box holding the cited text."""
    svc, cid = imported
    r = svc.assistant.ask("How many candidates speak German?", use_llm=False)
    assert r["status"] == "answered" and r["citations"], r
    c = next(c for c in r["citations"] if c["candidate_id"] == cid)
    stored = svc.people.get_candidate(cid)["stored_path"]
    pdf, page, bbox = document_preview(stored, c["page"], c["bbox"])
    assert pdf == str(preview_path(stored)) and bbox
    cited = [f["value"] for f in c["facts"]] or [c["full_text"].splitlines()[0]]
    assert any(hits_in(pdf, page, needle, bbox) for needle in cited), (cited, page, bbox)


def test_forget_removes_the_preview(imported, _isolated_home):
    svc, cid = imported
    preview = preview_path(svc.people.get_candidate(cid)["stored_path"])
    report = svc.compliance.forget([cid])
    assert report.get("previews_removed") == 1 and not preview.exists()
    for pdf in _isolated_home.rglob("*.pdf"):  # no PDF left under the home names the person
        with pymupdf.open(pdf) as doc:
            text = " ".join(p.get_text() for p in doc)
        assert NAME not in text and EMAIL not in text, pdf


def test_a_library_from_before_previews_gets_one_on_first_view(tmp_path, _isolated_home):
    """No preview file and synthetic (pre-preview) boxes: the preview is made and the box moved onto it."""
    library = _isolated_home / "data" / "library"
    library.mkdir(parents=True, exist_ok=True)
    stored = library / ("ab" * 32 + ".docx")
    shutil.copy(write_docx(tmp_path / "old.docx"), stored)
    line = next(ln for ln in extract_docx(stored, IngestLimits()).lines if EMAIL in ln.text)
    assert is_synthetic(line.page, line.bbox)
    pdf, page, bbox = document_preview(str(stored), line.page, tuple(round(v, 1) for v in line.bbox))
    assert Path(pdf) == preview_path(stored) and Path(pdf).exists()
    assert hits_in(pdf, page, EMAIL, bbox)
    again = document_preview(str(stored), 0, None)  # a plain view: the kept preview, no box
    assert again == (pdf, 0, None)


def test_blind_boxes_of_an_older_record_are_moved_onto_the_preview(tmp_path, _isolated_home):
    """Black boxes (provenance) of a pre-preview record cover the lines the preview prints them on."""
    from cvrag_desktop.app.health import document_preview_boxes

    library = _isolated_home / "data" / "library"
    library.mkdir(parents=True, exist_ok=True)
    stored = library / ("ef" * 32 + ".docx")
    shutil.copy(write_docx(tmp_path / "old.docx"), stored)
    name_line = next(ln for ln in extract_docx(stored, IngestLimits()).lines if ln.text == NAME)
    kept = (0, (56.0, 60.0, 200.0, 80.0))  # already on the preview: unchanged
    moved = document_preview_boxes(str(stored), [(0, tuple(round(v, 1) for v in name_line.bbox)), kept])
    assert moved[1] == kept
    pdf, _, _ = document_preview(str(stored), 0, None)
    assert hits_in(pdf, moved[0][0], NAME, moved[0][1])


def test_a_damaged_word_file_is_a_typed_error_not_a_crash(_isolated_home):
    library = _isolated_home / "data" / "library"
    library.mkdir(parents=True, exist_ok=True)
    bad = library / ("cd" * 32 + ".docx")
    bad.write_bytes(b"PK\x03\x04" + b"\x00" * 64)
    with pytest.raises(PdfUnreadable):
        document_preview(str(bad), 0, None)
    assert not preview_path(bad).exists()


def test_a_pdf_is_its_own_preview(tmp_path):
    assert document_preview(str(tmp_path / "x.pdf"), 2, [1, 2, 3, 4]) == (str(tmp_path / "x.pdf"), 2, (1, 2, 3, 4))
