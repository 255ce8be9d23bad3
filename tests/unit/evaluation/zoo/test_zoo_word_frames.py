"""Word styles made of text boxes, a Europass table, shaded and boxed headings (word_frames.py)."""

from __future__ import annotations

import hashlib
import io

from docx import Document
from docx.oxml.ns import qn

from cvrag_desktop.evaluation.zoo.families import WORD_STYLES, family
from cvrag_desktop.evaluation.zoo.plan import plan_family, printed_record
from cvrag_desktop.evaluation.zoo.word import STYLES, build_docx
from cvrag_desktop.evaluation.zoo.word_frames import FRAME_STYLES

OLDER = ("datecell", "tabdates", "header", "boldheads", "capsheads", "oneline", "labeltable", "twocol",
         "sectiontable")
# md5 over the DOCX bytes of the nine older styles for the first four records of word-datecell, seed 36,
# in Carlito, computed before word_frames.py existed: the older Word families must stay byte-identical.
OLDER_DIGEST = "68095a14db27c83590c294a93096dc7a"


def _record(index: int = 1):
    return printed_record(plan_family(family("word-datecell"), 36, index + 1)[index].draft)


def test_at_least_twelve_styles_and_the_older_ones_unchanged():
    assert len(WORD_STYLES) >= 12 and set(FRAME_STYLES) <= set(STYLES) == set(WORD_STYLES)
    assert WORD_STYLES[: len(OLDER)] == OLDER
    out = []
    for d in plan_family(family("word-datecell"), 36, 4):
        pr = printed_record(d.draft)
        out += [hashlib.md5(build_docx(s, pr, "Carlito")).hexdigest() for s in OLDER]
    assert hashlib.md5("".join(out).encode()).hexdigest() == OLDER_DIGEST


def test_textbox_puts_the_sidebar_in_a_drawingml_text_box():
    pr = _record()
    data = build_docx("textbox", pr, "Carlito")
    assert data == build_docx("textbox", pr, "Carlito")
    doc = Document(io.BytesIO(data))
    boxes = doc.element.body.findall(".//" + qn("w:txbxContent"))
    assert len(boxes) == 1
    inside = "\n".join("".join(t.text or "" for t in p.iter(qn("w:t"))) for p in boxes[0].iter(qn("w:p")))
    for c in pr["contact"]:
        assert c["value"] in inside
    assert pr["headings"]["contact"] in inside and pr["skills"][0] in inside
    body = [p.text for p in doc.paragraphs]
    assert body[0].startswith(pr["name"]) and not any(c["value"] in body for c in pr["contact"])
    assert pr["roles"][0]["title"] in body


def test_europass_right_aligns_labels_and_periods_in_the_left_column():
    pr = _record()
    table = Document(io.BytesIO(build_docx("europass", pr, "Carlito"))).tables[0]
    lefts = [r.cells[0].paragraphs[0] for r in table.rows]
    assert all(p.alignment == 2 for p in lefts if p.text)  # WD_ALIGN_PARAGRAPH.RIGHT
    periods = [p.text for p in lefts]
    assert all(role["period"] in periods for role in pr["roles"])
    assert pr["headings"]["experience"].upper() in periods
    assert pr["name"] in table.rows[0].cells[1].text


def test_shaded_and_boxed_headings_are_one_cell_tables():
    pr = _record()
    shaded = Document(io.BytesIO(build_docx("shaded", pr, "Carlito")))
    head = shaded.sections[0].header
    assert head.paragraphs[0].text == pr["name"] and head.tables
    assert pr["contact"][0]["value"] in head.tables[0].rows[0].cells[1].text
    cells = [t.rows[0].cells[0] for t in shaded.tables]
    assert pr["headings"]["experience"].upper() in [c.text for c in cells]
    assert all(c._tc.tcPr.find(qn("w:shd")) is not None for c in cells)
    boxed = Document(io.BytesIO(build_docx("boxedheads", pr, "Carlito")))
    assert all(len(t.rows) == 1 and len(t.columns) == 1 and t.style.name == "Table Grid" for t in boxed.tables)
    assert pr["headings"]["education"] in [t.rows[0].cells[0].text for t in boxed.tables]
