"""A line that opens with its period is an entry's header, even in the headings' style (issue 36, item 5).

A section table's rows print the period and the degree in the same bold as the section names; the
degree's words ("Promotion", "Laurea") partly name a section, but a heading never starts with dates.
"""

from __future__ import annotations

from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.ingestion.layout.sections import find_sections
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc


def _doc(rows: list[tuple[str, bool]]) -> ExtractedDoc:
    lines, y = [], 40.0
    for text, bold in rows:
        lines.append(TextLine(text=text, page=0, bbox=(20, y, 20 + 5 * len(text), y + 10), size=10.0, bold=bold))
        y += 23.0
    return ExtractedDoc(lines=lines, page_count=1, method="docx")


def test_a_dated_line_in_the_heading_style_stays_in_its_section():
    doc = _doc([("Jonna Weidemann", True), ("Berufserfahrung", True), ("2019 - 2024 Laborleiterin, Vetrolab GmbH", True),
                ("• Leitung eines Teams von 6 Personen", False), ("Bildungsweg", True),
                ("2012 - 2016 Promotion in Chemie", True), ("Universität Greifswald", False),
                ("2008 - 2012 Bachelor of Science Chemie", True), ("Universität Rostock", False),
                ("Kenntnisse", True), ("HPLC, Python", False)])
    blocks = {b.section: [doc.lines[i].text for i in b.lines] for b in find_sections(doc)}
    assert blocks["education"] == ["2012 - 2016 Promotion in Chemie", "Universität Greifswald",
                                   "2008 - 2012 Bachelor of Science Chemie", "Universität Rostock"]
