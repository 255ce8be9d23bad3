"""Line roles from aligning known values to the lines the product reads (factory PDFs, python-docx files)."""

from __future__ import annotations

from cvrag_desktop.evaluation.zoo import align
from cvrag_desktop.evaluation.zoo.families import family
from cvrag_desktop.evaluation.zoo.plan import plan_family, printed_record, truth_record
from cvrag_desktop.evaluation.zoo.word import build_docx
from cvrag_desktop.factory.render import render_pdf
from cvrag_desktop.ingestion.layout.textline import TextLine
from cvrag_desktop.ingestion.read.extract import extract_document
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc


def _labelled(tmp_path, fam: str, n: int = 0):
    doc = plan_family(family(fam), 21, n + 1)[n]
    truth = truth_record(doc, 21)
    if fam.startswith("word-"):
        path = tmp_path / "cv.docx"
        path.write_bytes(build_docx(family(fam).template, printed_record(doc.draft), "DejaVu Sans"))
    else:
        path = tmp_path / "cv.pdf"
        path.write_bytes(render_pdf(doc.draft, layout=family(fam).template, font=doc.font))
    return align.label_lines(extract_document(path), truth), truth


def _refs(lines, fld: str) -> set[str]:
    return {p["ref"] for ln in lines for p in ln.parts if p["field"] == fld}


def test_a_classic_factory_pdf_gets_name_headings_entries_and_bullets(tmp_path):
    lines, truth = _labelled(tmp_path, "fx-classic")
    roles = [ln.role for ln in lines]
    name_lines = [ln for ln in lines if ln.role == align.NAME]
    assert name_lines and name_lines[0].text.strip() == truth["name"]
    assert roles.count(align.HEADING) >= 3
    n = len(truth["experiences"])
    assert _refs(lines, align.TITLE) == {f"experiences[{k}]" for k in range(n)}
    assert _refs(lines, align.EMPLOYER) == {f"experiences[{k}]" for k in range(n)}
    for k, exp in enumerate(truth["experiences"]):
        title_line = next(ln for ln in lines if {"field": align.TITLE, "ref": f"experiences[{k}]"} in ln.parts)
        assert exp["title"] in title_line.text
    assert any(ln.role == align.BODY for ln in lines)
    assert any(ln.role == align.CONTACT for ln in lines if truth["emails"][0] in ln.text)
    recall = align.value_recall(align.found_parts([ln.row() for ln in lines]), truth)
    assert all(got == total for f, (got, total) in recall.items() if f != align.SKILL), recall
    got, total = recall[align.SKILL]
    assert got >= total - 1, recall  # a skill wrapped over two lines is found on neither


def test_every_line_has_a_known_role_and_rows_are_plain_json(tmp_path):
    lines, _ = _labelled(tmp_path, "fx-sidebar", 1)
    assert {ln.role for ln in lines} <= set(align.ROLES)
    row = lines[0].row()
    assert set(row) == {"i", "page", "bbox", "size", "bold", "text", "role", "parts"}
    assert [ln.i for ln in lines] == list(range(len(lines)))


def test_a_word_cv_with_bold_only_headings_is_aligned_from_its_docx(tmp_path):
    lines, truth = _labelled(tmp_path, "word-boldheads", 2)
    assert any(ln.role == align.NAME for ln in lines)
    assert sum(ln.role == align.HEADING for ln in lines) >= 3
    assert _refs(lines, align.TITLE) == {f"experiences[{k}]" for k in range(len(truth["experiences"]))}
    assert _refs(lines, align.DEGREE) == {f"education[{k}]" for k in range(len(truth["education"]))}


def _doc(texts: list[str]) -> ExtractedDoc:
    lines = [TextLine(t, 0, (50, 50 + 14 * k, 500, 62 + 14 * k), 10, False) for k, t in enumerate(texts)]
    return ExtractedDoc(lines=lines, page_count=1, method="test")


def test_a_bullet_naming_a_skill_stays_body_and_a_row_of_skills_is_skills(tmp_path):
    doc = plan_family(family("fx-classic"), 21, 1)[0]
    truth = truth_record(doc, 21)
    pr = truth["zoo"]["printed"]
    bullet = next(b for r in pr["roles"] for b in r["bullets"])
    skills = pr["skills"][:3]
    lines = align.label_lines(_doc([bullet, "\t".join(skills), "Page 2", "Work"]), truth)
    assert [ln.role for ln in lines] == [align.BODY, align.SKILL, align.FURNITURE, align.HEADING]
    assert len([p for p in lines[1].parts if p["field"] == align.SKILL]) == 3
