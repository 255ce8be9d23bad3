"""Word CVs in structural styles: reproducible bytes, and the structure each style promises."""

from __future__ import annotations

import io

from docx import Document

from cvrag_desktop.evaluation.zoo.families import WORD_STYLES, family
from cvrag_desktop.evaluation.zoo.plan import plan_family, printed_record
from cvrag_desktop.evaluation.zoo.word import STYLES, build_docx


def _record():
    return printed_record(plan_family(family("word-datecell"), 13, 1)[0].draft)


def test_every_style_is_built_and_reproducible():
    pr = _record()
    assert set(STYLES) == set(WORD_STYLES)
    for style in WORD_STYLES:
        data = build_docx(style, pr, "Carlito")
        assert data == build_docx(style, pr, "Carlito"), style
        text = "\n".join(p.text for p in Document(io.BytesIO(data)).paragraphs)
        cells = "\n".join(c.text for t in Document(io.BytesIO(data)).tables for r in t.rows for c in r.cells)
        header = "\n".join(p.text for p in Document(io.BytesIO(data)).sections[0].header.paragraphs)
        for role in pr["roles"]:
            assert role["title"] in text + cells, (style, role["title"])
        assert pr["name"] in text + cells + header


def test_styles_put_dates_names_and_headings_where_they_promise():
    pr = _record()
    datecell = Document(io.BytesIO(build_docx("datecell", pr, "Carlito")))
    assert datecell.tables[0].rows[0].cells[0].text == pr["roles"][0]["period"]
    header = Document(io.BytesIO(build_docx("header", pr, "Carlito")))
    assert header.sections[0].header.paragraphs[0].text == pr["name"]
    assert pr["name"] not in "\n".join(p.text for p in header.paragraphs)
    caps = Document(io.BytesIO(build_docx("capsheads", pr, "Carlito")))
    heads = [p for p in caps.paragraphs if p.text == pr["headings"]["experience"].upper()]
    assert heads and not heads[0].runs[0].bold and heads[0].style.name == "Normal"
    tab = Document(io.BytesIO(build_docx("tabdates", pr, "Carlito")))
    assert any(p.text.endswith("\t" + pr["roles"][0]["period"]) for p in tab.paragraphs)
    labels = Document(io.BytesIO(build_docx("labeltable", pr, "Carlito")))
    assert [r.cells[0].text for r in labels.tables[0].rows] == [c["label"] for c in pr["contact"]]
