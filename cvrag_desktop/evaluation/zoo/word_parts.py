"""Building blocks of the zoo's Word CVs (python-docx): headings made three ways, bullets, the name
block, "Title, Employer" lines, layout tables of two cells, right-aligned tab stops. Shared by the
structural styles of :mod:`.word` and :mod:`.word_frames`."""

from __future__ import annotations

from docx.enum.text import WD_TAB_ALIGNMENT
from docx.shared import Cm, Pt
from docx.table import _Cell

Container = object  # a Document or a table cell: both have add_paragraph


def contact_line(pr: dict) -> str:
    """The contact values on one line, separated by bars."""
    return " | ".join(c["value"] for c in pr["contact"])


def heading(box, text: str, mode: str) -> None:
    """A section heading made by a heading style, by bold alone or by capitals alone."""
    if mode == "style" and hasattr(box, "add_heading"):
        box.add_heading(text, level=2)
        return
    p = box.add_paragraph()
    p.paragraph_format.space_before = Pt(10)
    run = p.add_run(text.upper() if mode == "caps" else text)
    run.bold = mode != "caps"
    run.font.size = Pt(12 if mode == "bold" else 11)


def bullet_list(box, items: list[str]) -> None:
    """One "• text" paragraph per bullet point, indented."""
    for b in items:
        p = box.add_paragraph(f"• {b}")
        p.paragraph_format.left_indent = Cm(0.5)
        p.paragraph_format.space_after = Pt(0)


def title_run(box, text: str, size: float = 11, bold: bool = True) -> None:
    """A paragraph of one run: bold and ``size`` points unless told otherwise."""
    p = box.add_paragraph()
    run = p.add_run(text)
    run.bold = bold
    run.font.size = Pt(size)


def identity(box, pr: dict, *, contacts: bool = True) -> None:
    """The name, the headline and (unless told not to) the contact line."""
    title_run(box, pr["name"], 20)
    if pr["headline"]:
        title_run(box, pr["headline"], 12, bold=False)
    if contacts:
        box.add_paragraph(contact_line(pr))


def summary_section(box, pr: dict, mode: str) -> None:
    """The summary under its heading, when the CV has one."""
    if pr["summary"]:
        heading(box, pr["headings"]["summary"], mode)
        box.add_paragraph(pr["summary"])


def list_sections(box, pr: dict, mode: str) -> None:
    """Skills, spoken languages and certifications, each under its heading."""
    if pr["skills"]:
        heading(box, pr["headings"]["skills"], mode)
        box.add_paragraph(", ".join(pr["skills"]))
    if pr["languages"]:
        heading(box, pr["headings"]["languages"], mode)
        for lang in pr["languages"]:
            box.add_paragraph(lang)
    if pr["certifications"]:
        heading(box, pr["headings"]["certifications"], mode)
        for c in pr["certifications"]:
            box.add_paragraph(c)


def role_head(role: dict) -> str:
    """A role's "Title, Employer" line."""
    return ", ".join(x for x in (role["title"], role["company"]) if x)


def flow_history(box, pr: dict, mode: str) -> None:
    """Roles and degrees as a bold "Title, Employer" line, the period below, bullets."""
    heading(box, pr["headings"]["experience"], mode)
    for role in pr["roles"]:
        title_run(box, role_head(role))
        box.add_paragraph(" – ".join(x for x in (role["period"], role["location"]) if x))
        bullet_list(box, role["bullets"])
    heading(box, pr["headings"]["education"], mode)
    for ed in pr["education"]:
        title_run(box, ed["degree"])
        box.add_paragraph(", ".join(x for x in (ed["institution"], ed["period"]) if x))


def two_cells(doc, left_width: float = 3.5):
    table = doc.add_table(rows=1, cols=2)
    table.autofit = False
    left, right = table.rows[0].cells
    left.width, right.width = Cm(left_width), Cm(17 - left_width)
    return left, right


def set_cell(cell: _Cell, text: str) -> None:
    """A one-row layout table of two cells: a left cell of ``left_width`` cm and the rest."""
    cell.paragraphs[0].text = text


def tabbed(doc, left: str, right: str, bold: bool = True) -> None:
    """A line with ``left`` (bold) and ``right`` at a right-aligned tab stop at the margin."""
    p = doc.add_paragraph()
    p.paragraph_format.tab_stops.add_tab_stop(Cm(17), WD_TAB_ALIGNMENT.RIGHT)
    p.add_run(left).bold = bold
    p.add_run(f"\t{right}")
