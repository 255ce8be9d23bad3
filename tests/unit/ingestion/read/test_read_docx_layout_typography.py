"""What a Word line prints as: its size and weight per character, its line breaks, hidden and capital runs,
sizes from styles and defaults, a table grid's widths and a paragraph's wrap (issue 36, item 5)."""

from __future__ import annotations

import docx
from docx.enum.style import WD_STYLE_TYPE
from docx.shared import Cm, Pt

from cvrag_desktop.ingestion.read.docx_layout import Typography, grid_widths, wrap
from cvrag_desktop.ingestion.read.docx_reader import pieces
from cvrag_desktop.ingestion.read.extract import extract_document


def _lines(path):
    return [(ln.text, ln.size, ln.bold) for ln in extract_document(path).lines]


def test_bold_and_size_are_weighed_over_characters_like_pdf_spans(tmp_path):
    d = docx.Document()
    p = d.add_paragraph()
    p.add_run("Staff Nurse").bold = True
    p.add_run(", Riverside Clinic")  # most characters plain: the line is not bold, as its print is not
    p = d.add_paragraph()
    p.add_run("Ward Sister, St Anne's Hospital").bold = True
    p.add_run(", 2019")
    small = d.add_paragraph()
    small.add_run("Tomas Ekdahl").font.size = Pt(20)
    small.add_run(" x").font.size = Pt(9)
    d.save(tmp_path / "t.docx")
    assert _lines(tmp_path / "t.docx") == [("Staff Nurse, Riverside Clinic", 11.0, False),
                                          ("Ward Sister, St Anne's Hospital, 2019", 11.0, True),
                                          ("Tomas Ekdahl x", 20.0, False)]


def test_line_breaks_split_a_paragraph_and_hidden_runs_are_not_read(tmp_path):
    d = docx.Document()
    p = d.add_paragraph()
    r = p.add_run("Project Lead")
    r.bold = True
    r.add_break()
    p.add_run("Kestrel Housing Trust")
    hidden = p.add_run(" keyword stuffing")
    hidden.font.hidden = True
    d.save(tmp_path / "t.docx")
    assert [t for t, _, _ in _lines(tmp_path / "t.docx")] == ["Project Lead", "Kestrel Housing Trust"]


def test_all_caps_prints_capitals_and_sizes_come_from_styles_and_defaults(tmp_path):
    d = docx.Document()
    d.styles["Normal"].font.size = None  # the docDefaults' size (11 pt in python-docx's template) applies
    heading = d.styles.add_style("CvHeading", WD_STYLE_TYPE.PARAGRAPH)
    heading.font.size, heading.font.bold, heading.font.all_caps = Pt(14), True, True
    d.add_paragraph("Work experience", style="CvHeading")
    char = d.styles.add_style("Strong title", WD_STYLE_TYPE.CHARACTER)
    char.font.bold = True
    d.add_paragraph().add_run("Site Manager", style="Strong title")
    d.add_paragraph("Plain body text")
    d.save(tmp_path / "t.docx")
    assert _lines(tmp_path / "t.docx") == [("WORK EXPERIENCE", 14.0, True), ("Site Manager", 11.0, True),
                                          ("Plain body text", 11.0, False)]


def test_heading_styles_are_flagged_and_print_large_and_bold(tmp_path):
    d = docx.Document()
    d.add_heading("Berufserfahrung", level=1)
    d.save(tmp_path / "t.docx")
    typo = Typography(docx.Document(tmp_path / "t.docx"))
    out, heading = pieces(docx.Document(tmp_path / "t.docx").paragraphs[0], typo)
    assert heading and out[0].bold and out[0].size >= 13


def test_grid_widths_scale_into_the_page_and_fall_back_to_equal_columns():
    d = docx.Document()
    t = d.add_table(rows=1, cols=2)
    t.columns[0].width, t.columns[1].width = Cm(4), Cm(30)  # wider than the page: scaled in
    widths = grid_widths(t, 450.0)
    assert abs(sum(widths) - 450.0) < 0.01 and widths[0] < widths[1]
    t.columns[0].width, t.columns[1].width = Cm(3), Cm(10)
    assert [round(w) for w in grid_widths(t, 450.0)] == [85, 283]


def test_wrap_cuts_at_spaces_into_the_column():
    text = "Coordinated the move of 14 clinics to a shared scheduling system"
    lines = wrap(text, 100.0, 10.0)
    assert " ".join(lines) == text and len(lines) > 2
    assert all(len(ln) <= 100 / (0.47 * 10) + 1 or " " not in ln for ln in lines)
    assert wrap("Short line", 300.0, 10.0) == ["Short line"]


def test_a_table_without_grid_widths_takes_its_first_row_cell_widths():
    d = docx.Document()
    t = d.add_table(rows=1, cols=2)
    t.cell(0, 0).width, t.cell(0, 1).width = Cm(3), Cm(12)
    grid = t._tbl.tblGrid
    for col in list(grid.gridCol_lst):
        grid.remove(col)
    assert [round(w) for w in grid_widths(t, 450.0)] == [85, 340]
    tc_pr = t.cell(0, 1)._tc.tcPr
    tc_pr.remove(tc_pr.tcW)  # a cell that names no width: equal columns
    assert grid_widths(t, 450.0) == [225.0, 225.0]
