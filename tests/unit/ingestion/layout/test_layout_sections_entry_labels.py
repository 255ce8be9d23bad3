"""Labels repeated in every entry are not sections; an unknown gutter heading in display type is lifted off its row."""

from __future__ import annotations

from cvrag_desktop.ingestion.layout.reading_order import TextLine, lift_gutter_headings, merge_rows
from cvrag_desktop.ingestion.layout.sections import find_sections
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc


def _doc(rows: list[tuple[str, float, bool]]) -> ExtractedDoc:
    lines, y = [], 40.0
    for text, size, bold in rows:
        lines.append(TextLine(text=text, page=0, bbox=(50, y, 50 + 5 * len(text), y + size), size=size, bold=bold))
        y += size + 6
    return ExtractedDoc(lines=lines, page_count=1, method="pymupdf")


def _history(label: str) -> list[tuple[str, float, bool]]:
    rows = [("Rosalind Achterberg", 22, True), ("Experience", 16, True)]
    for title, firm in (("Head Chef", "Harbour Kitchen"), ("Sous Chef", "The Old Mill"), ("Line Cook", "Bistro Nord")):
        rows += [(f"{firm}\t2019 – 2021", 11, True), (title, 11, True), (label, 11, True),
                 ("Planned seasonal menus for 120 covers.", 11, False)]
    return [*rows, ("Education", 16, True), ("Culinary Arts Diploma", 11, False)]


def test_a_label_over_every_roles_bullets_is_not_a_section():
    doc = _doc(_history("Highlights"))
    sections = [(b.section, b.title) for b in find_sections(doc) if b.heading is not None]
    assert sections == [("experience", "Experience"), ("education", "Education")]
    history = next(b for b in find_sections(doc) if b.section == "experience")
    assert sum(doc.lines[i].text == "Highlights" for i in history.lines) == 3  # kept as the entries' lines


def test_a_heading_named_once_or_twice_is_still_a_section():
    rows = [("Rosalind Achterberg", 22, True), ("Experience", 16, True), ("Head Chef", 11, True),
            ("Highlights", 16, True), ("Won a regional award.", 11, False), ("Education", 16, True),
            ("Culinary Arts Diploma", 11, False)]
    assert [b.section for b in find_sections(_doc(rows)) if b.heading is not None] == [
        "experience", "summary", "education"]


def test_a_cv_made_only_of_one_repeated_heading_keeps_it():
    rows = [("Rosalind Achterberg", 22, True)] + [("Experience", 16, True), ("Head Chef", 11, False)] * 3
    assert [b.section for b in find_sections(_doc(rows)) if b.heading is not None] == ["experience"] * 3


def _row(text: str, x: float, y: float, size: float, bold: bool = False) -> TextLine:
    return TextLine(text=text, page=0, bbox=(x, y, x + 0.5 * size * len(text), y + size), size=size, bold=bold)


def test_unknown_gutter_word_in_display_type_is_lifted_off_the_first_roles_row():
    lines = [_row("Work", 120, 100, 20, True), _row("Harbour Kitchen Head Chef", 200, 102, 16, True)]
    lines += [_row(f"Planned seasonal menus for {n} covers.", 200, 130 + 16 * n, 10) for n in range(8)]
    texts = [ln.text for ln in merge_rows(lift_gutter_headings(lines))]
    assert "Work" in texts and "Harbour Kitchen Head Chef" in texts


def test_a_body_sized_gutter_word_stays_on_its_row():
    lines = [_row("Work", 120, 100, 10), _row("Harbour Kitchen Head Chef", 200, 100, 10)]
    lines += [_row(f"Planned seasonal menus for {n} covers.", 200, 130 + 16 * n, 10) for n in range(8)]
    assert "Work" not in [ln.text for ln in merge_rows(lift_gutter_headings(lines))]


def test_unknown_gutter_word_in_the_style_of_known_headings_is_lifted():
    lines = [_row("Education", 120, 60, 13, True), _row("Lakeside College", 200, 61, 11),
             _row("Work", 120, 100, 13, True), _row("Harbour Kitchen", 200, 101, 11)]
    lines += [_row(f"Planned seasonal menus for {n} covers.", 200, 130 + 16 * n, 11) for n in range(8)]
    texts = [ln.text for ln in merge_rows(lift_gutter_headings(lines))]
    assert "Work" in texts and "Harbour Kitchen" in texts and "Education" in texts


def _spaced_doc(rows: list[tuple[str, float, bool, float]]) -> ExtractedDoc:
    """Lines stacked top to bottom: (text, size, bold, gap before), so headings stand apart from their entries."""
    lines, y = [], 40.0
    for text, size, bold, gap in rows:
        y += gap
        lines.append(TextLine(text=text, page=0, bbox=(50, y, 50 + 5 * len(text), y + size), size=size, bold=bold))
        y += size
    return ExtractedDoc(lines=lines, page_count=1, method="pymupdf")


def test_employers_printed_in_the_heading_style_are_entries_of_the_empty_section_above():
    rows = [("Rosalind Achterberg", 22, True, 0), ("Summary", 16, True, 20), ("Chef with ten years in kitchens.", 11, False, 4),
            ("Work Experience", 16, True, 20), ("Harbour Kitchen", 16, True, 20), ("Head Chef", 11, False, 4),
            ("2019 – 2021", 11, False, 4), ("Planned seasonal menus.", 11, False, 4), ("The Old Mill", 16, True, 20),
            ("Sous Chef", 11, False, 4), ("2016 – 2019", 11, False, 4), ("Education", 16, True, 20),
            ("Culinary Arts Diploma", 11, False, 4)]
    doc = _spaced_doc(rows)
    blocks = [b for b in find_sections(doc) if b.heading is not None]
    assert [b.section for b in blocks] == ["summary", "experience", "education"]
    assert [doc.lines[i].text for i in blocks[1].lines] == [
        "Harbour Kitchen", "Head Chef", "2019 – 2021", "Planned seasonal menus.", "The Old Mill", "Sous Chef",
        "2016 – 2019"]


def test_sections_the_lexicon_knows_are_not_folded_into_the_history():
    rows = [("Rosalind Achterberg", 22, True, 0), ("Summary", 16, True, 20), ("Chef with ten years in kitchens.", 11, False, 4),
            ("Work Experience", 16, True, 20), ("Harbour Kitchen", 16, True, 20), ("Head Chef", 11, False, 4),
            ("2019 – 2021", 11, False, 4), ("The Old Mill", 16, True, 20), ("Sous Chef", 11, False, 4),
            ("2016 – 2019", 11, False, 4), ("References", 16, True, 20), ("Jane Doe, Owner", 11, False, 4),
            ("Interests", 16, True, 20), ("Chess, hiking", 11, False, 4), ("Education", 16, True, 20),
            ("Culinary Arts Diploma", 11, False, 4)]
    doc = _spaced_doc(rows)
    blocks = [b for b in find_sections(doc) if b.heading is not None]
    assert [b.title for b in blocks] == ["Summary", "Work Experience", "References", "Interests", "Education"]
    assert "Jane Doe, Owner" not in [doc.lines[i].text for i in blocks[1].lines]
