"""Reading order on synthetic pages: sidebars vs tables, wrapped table cells, row merging."""

from __future__ import annotations

from cvrag_desktop.ingestion.layout.reading_order import TextLine, find_gutter
from cvrag_desktop.ingestion.layout.rows import merge_rows

PAGE_W = 595.0


def _ln(text: str, x0: float, y0: float, *, size: float = 9.0, width: float | None = None, bold: bool = False,
        column: int = 0) -> TextLine:
    w = width if width is not None else len(text) * 0.5 * size
    return TextLine(text=text, page=0, bbox=(x0, y0, x0 + w, y0 + size * 1.2), size=size, bold=bold, column=column)


def _sidebar_page(pitch_left: float, pitch_right: float, offset: float) -> list[TextLine]:
    left = ["Personal Details", "Email", "ana@example.com", "Phone", "555 0101", "Core Skills", "Figma",
            "User Research", "Prototyping", "Wireframing", "Sketch", "Languages", "Deutsch – Muttersprache",
            "Englisch – gut"]
    lines = [_ln(t, 20, 40 + offset + k * pitch_left, bold=t in {"Personal Details", "Core Skills", "Languages"})
             for k, t in enumerate(left)]
    right = ["Experience", "UI/UX Designer", "Wiek | 03/2025 – heute"] + \
        [f"• Daily work with HTML and design systems for team {k} in the product area." for k in range(14)] + \
        ["Education", "Bachelor Psychologie", "RWTH Aachen, 2015 – 2018"]
    lines += [_ln(t, 175, 40 + k * pitch_right, width=min(390.0, len(t) * 4.5),
                  bold=t in {"Experience", "Education"}) for k, t in enumerate(right)]
    return lines


def test_sidebar_with_the_same_leading_as_the_main_column_is_a_column():
    # every sidebar line shares a row with a main-column line (baselines 2 pt apart, as with two fonts);
    # the sidebar's own headings make it a column, not a strip of table cells
    assert find_gutter(_sidebar_page(12.0, 12.0, 2.0), PAGE_W) is not None


def test_full_width_headings_over_a_date_table_are_one_column():
    lines: list[TextLine] = []
    y = 40.0
    for heading, rows in (("Experience", [("2016 – 2022", "Senior Teacher at a secondary school", "Realschule Bremen"),
                                          ("2012 – 2016", "Teacher of mathematics and physics", "Gesamtschule Köln")]),
                          ("Education", [("2010 – 2013", "Diplom Lehramt an Gymnasien", "Universität Stuttgart"),
                                         ("2007 – 2010", "Bachelor of Science Lehramt", "TU München")]),
                          ("Skills", [("Moodle", "Klassenführung", "Elternarbeit"),
                                      ("Inklusion", "Microsoft Office", "Google Classroom")])):
        lines.append(_ln(heading, 50, y, size=12, bold=True))
        y += 20
        for a, b, c in rows:
            lines += [_ln(a, 52, y, size=7), _ln(b, 160, y), _ln(c, 400, y)]
            y += 14
        y += 10
    assert find_gutter(lines, PAGE_W) is None


def test_wrapped_last_table_cell_rejoins_its_row():
    rows = [_ln("Microsoft Office", 63, 100, width=80), _ln("Relations avec les parents", 223, 100, width=120),
            _ln("Besoins éducatifs", 384, 100, width=90), _ln("particuliers", 384, 111, width=50)]
    merged = merge_rows(rows)
    assert [m.text for m in merged] == ["Microsoft Office\tRelations avec les parents\tBesoins éducatifs particuliers"]


def test_short_cell_is_not_joined_with_the_next_rows_lowercase_cell():
    rows = [_ln("Python", 63, 100, width=30), _ln("Machine Learning", 223, 100, width=72), _ln("SQL", 384, 100, width=20),
            _ln("scikit-learn", 63, 116, width=55), _ln("pandas", 223, 116, width=30), _ln("Statistics", 384, 116, width=45)]
    merged = [m.text for m in merge_rows(rows)]
    assert merged == ["Python\tMachine Learning\tSQL", "scikit-learn\tpandas\tStatistics"]


def test_overflowing_cell_and_its_neighbour_stay_separate_cells():
    # 12 pt between two 10.5 pt cells: more than a word space, less than the old 1.2 em threshold
    rows = [_ln("Recrutamento e seleção", 63, 100, size=10.5, width=110),
            _ln("Entrevistas por competências", 223, 100, size=10.5, width=149),
            _ln("Onboarding", 384, 100, size=10.5, width=59)]
    assert merge_rows(rows)[0].text.split("\t") == ["Recrutamento e seleção", "Entrevistas por competências",
                                                    "Onboarding"]


def test_place_in_smaller_type_under_the_employer_is_not_a_wrap():
    rows = [_ln("2019 – 2021", 63, 100, width=50), _ln("Recruiter", 160, 100, width=45),
            _ln("Bosurgi e figli", 426, 100, width=64), _ln("– Screened 300 applicants", 160, 111, width=120),
            _ln("Cerchiate", 426, 111, size=8.0, width=39)]
    texts = [m.text for m in merge_rows(rows)]
    assert texts[0] == "2019 – 2021\tRecruiter\tBosurgi e figli"
    assert "Cerchiate" in texts[1]
