"""Chinese and Japanese education lines: the degree words those CVs use, and the headings they sit under."""

from __future__ import annotations

import pytest

from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc


def _doc(rows: list[tuple[str, float, bool]]) -> ExtractedDoc:
    lines, y = [], 40.0
    for text, size, bold in rows:
        lines.append(TextLine(text=text, page=0, bbox=(50, y, 50 + 9 * len(text), y + size), size=size, bold=bold))
        y += size + 6
    return ExtractedDoc(lines=lines, page_count=1, method="pymupdf", page_sizes=[(595.0, 842.0)])


@pytest.mark.parametrize(("heading", "line", "degree"), [
    ("学习经历", "烹饪专业 大专 — 白云职业技术学院 (2010–2013)", "烹饪专业 大专"),
    ("教育经历", "护理学学士 — 江南医科大学 (2012–2016)", "护理学学士"),
    ("學歷", "資訊管理碩士 — 北城大學 (2015–2017)", "資訊管理碩士"),
    ("学歴", "専門士（調理） — 港南調理専門学校 (2014–2016)", "専門士（調理）"),
])
def test_cjk_degree_words_and_headings(heading, line, degree):
    doc = _doc([("林小雨", 20, True), ("工作经历", 13, True), ("厨师 — 海风餐厅\t2016.09 – 现在", 10, False),
                (heading, 13, True), (line, 10, False), ("技能特长", 13, True), ("Excel", 10, False)])
    cv, _ = normalize_document(doc, kinds=None)
    assert [e.degree for e in cv.education] == [degree]
    assert [e.title for e in cv.experiences] == ["厨师"]  # the education is not read as a role
