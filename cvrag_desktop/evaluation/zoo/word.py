"""Word CVs in the structural styles of real inboxes, written with python-docx from a factory draft.

Every style prints the same values (the factory's wording: :func:`plan.printed_record`) and differs
in structure only: where the dates sit (a left table cell, a right tab stop, the end of a one-line
entry), how headings are made (a heading style, bold only, capitals only), where the name and
contacts are (the page header part, a label/value table, a sidebar cell); the styles made of text boxes,
shading and borders are in :mod:`.word_frames`, the shared building blocks in :mod:`.word_parts`. The DOCX is written with
fixed document properties and fixed zip entry times, so the same draft gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from collections.abc import Callable

from docx import Document
from docx.shared import Cm, Pt

from cvrag_desktop.evaluation.zoo.word_frames import FRAME_STYLES
from cvrag_desktop.evaluation.zoo.word_parts import (
    bullet_list,
    contact_line,
    flow_history,
    heading,
    identity,
    list_sections,
    role_head,
    set_cell,
    summary_section,
    tabbed,
    title_run,
    two_cells,
)

FONTS = ("Carlito", "Liberation Sans", "Liberation Serif", "DejaVu Sans")
FIXED_TIME = dt.datetime(2026, 1, 1, 0, 0, 0)

def style_datecell(doc, pr: dict) -> None:
    """A layout table per entry: the period in a narrow left cell, the entry in the right cell."""
    identity(doc, pr)
    summary_section(doc, pr, "style")
    heading(doc, pr["headings"]["experience"], "style")
    for role in pr["roles"]:
        left, right = two_cells(doc)
        set_cell(left, role["period"])
        right.paragraphs[0].add_run(role["title"]).bold = True
        right.add_paragraph(", ".join(x for x in (role["company"], role["location"]) if x))
        bullet_list(right, role["bullets"])
    heading(doc, pr["headings"]["education"], "style")
    for ed in pr["education"]:
        left, right = two_cells(doc)
        set_cell(left, ed["period"])
        right.paragraphs[0].add_run(ed["degree"]).bold = True
        right.add_paragraph(ed["institution"])
    list_sections(doc, pr, "style")


def style_tabdates(doc, pr: dict) -> None:
    """"Title, Employer" then the period at a right-aligned tab stop on the same line."""
    identity(doc, pr)
    summary_section(doc, pr, "style")
    heading(doc, pr["headings"]["experience"], "style")
    for role in pr["roles"]:
        tabbed(doc, role_head(role), role["period"])
        if role["location"]:
            doc.add_paragraph(role["location"])
        bullet_list(doc, role["bullets"])
    heading(doc, pr["headings"]["education"], "style")
    for ed in pr["education"]:
        tabbed(doc, ed["degree"], ed["period"])
        doc.add_paragraph(ed["institution"])
    list_sections(doc, pr, "style")


def style_header(doc, pr: dict) -> None:
    """The name and contacts in the page header part (repeated on every page), the rest in the body."""
    header = doc.sections[0].header
    p = header.paragraphs[0]
    run = p.add_run(pr["name"])
    run.bold, run.font.size = True, Pt(16)
    header.add_paragraph(contact_line(pr))
    if pr["headline"]:
        title_run(doc, pr["headline"], 13, bold=False)
    summary_section(doc, pr, "style")
    flow_history(doc, pr, "style")
    list_sections(doc, pr, "style")


def style_boldheads(doc, pr: dict) -> None:
    """Headings made only by bold runs in Normal paragraphs (no heading styles, no outline)."""
    identity(doc, pr)
    summary_section(doc, pr, "bold")
    flow_history(doc, pr, "bold")
    list_sections(doc, pr, "bold")


def style_capsheads(doc, pr: dict) -> None:
    """Headings made only by capitals (not bold, not a heading style); entry titles plain too."""
    identity(doc, pr)
    summary_section(doc, pr, "caps")
    flow_history(doc, pr, "caps")
    list_sections(doc, pr, "caps")


def style_oneline(doc, pr: dict) -> None:
    """One-line entries: "Title, Employer, City, period", then bullets; degrees the same way."""
    identity(doc, pr)
    summary_section(doc, pr, "bold")
    heading(doc, pr["headings"]["experience"], "bold")
    for role in pr["roles"]:
        p = doc.add_paragraph()
        p.add_run(role["title"]).bold = True
        p.add_run(", " + ", ".join(x for x in (role["company"], role["location"], role["period"]) if x))
        bullet_list(doc, role["bullets"])
    heading(doc, pr["headings"]["education"], "bold")
    for ed in pr["education"]:
        doc.add_paragraph(", ".join(x for x in (ed["degree"], ed["institution"], ed["period"]) if x))
    list_sections(doc, pr, "bold")


def style_labeltable(doc, pr: dict) -> None:
    """A label/value personal-data table under the name, then entries as period | entry rows."""
    title_run(doc, pr["name"], 18)
    if pr["headline"]:
        title_run(doc, pr["headline"], 12, bold=False)
    rows = [(c["label"], c["value"]) for c in pr["contact"]]
    table = doc.add_table(rows=len(rows), cols=2)
    table.style = "Table Grid"
    for (label, value), row in zip(rows, table.rows, strict=True):
        row.cells[0].paragraphs[0].add_run(label).bold = True
        set_cell(row.cells[1], value)
    summary_section(doc, pr, "style")
    heading(doc, pr["headings"]["experience"], "style")
    history = doc.add_table(rows=0, cols=2)
    history.style = "Table Grid"
    for role in pr["roles"]:
        left, right = history.add_row().cells
        set_cell(left, role["period"])
        right.paragraphs[0].add_run(role_head(role)).bold = True
        if role["location"]:
            right.add_paragraph(role["location"])
        bullet_list(right, role["bullets"])
    heading(doc, pr["headings"]["education"], "style")
    for ed in pr["education"]:
        tabbed(doc, ed["degree"], ed["period"])
        doc.add_paragraph(ed["institution"])
    list_sections(doc, pr, "style")


def style_twocol(doc, pr: dict) -> None:
    """A two-column layout table: contacts, skills, languages in a narrow left cell; the rest right."""
    left, right = two_cells(doc, 5.5)
    set_cell(left, pr["headings"]["contact"])
    left.paragraphs[0].runs[0].bold = True
    for c in pr["contact"]:
        left.add_paragraph(c["value"])
    list_sections(left, pr, "bold")
    right.paragraphs[0].add_run(pr["name"]).bold = True
    right.paragraphs[0].runs[0].font.size = Pt(18)
    if pr["headline"]:
        right.add_paragraph(pr["headline"])
    summary_section(right, pr, "bold")
    flow_history(right, pr, "bold")


def style_sectiontable(doc, pr: dict) -> None:
    """The whole CV in one table: each section's name in a narrow left cell, its content in the right cell."""
    identity(doc, pr)
    table = doc.add_table(rows=0, cols=2)
    table.autofit = False
    h = pr["headings"]

    def section(title: str):
        left, right = table.add_row().cells
        left.width, right.width = Cm(3.8), Cm(13.2)
        left.paragraphs[0].add_run(title).bold = True
        return right

    if pr["summary"]:
        set_cell(section(h["summary"]), pr["summary"])
    cell = section(h["experience"])
    for k, role in enumerate(pr["roles"]):
        p = cell.paragraphs[0] if k == 0 else cell.add_paragraph()
        p.add_run(role["period"] + "  ")
        p.add_run(role_head(role)).bold = True
        bullet_list(cell, role["bullets"])
    cell = section(h["education"])
    for k, ed in enumerate(pr["education"]):
        p = cell.paragraphs[0] if k == 0 else cell.add_paragraph()
        p.add_run(ed["period"] + "  ")
        p.add_run(ed["degree"]).bold = True
        cell.add_paragraph(ed["institution"])
    for key in ("skills", "languages", "certifications"):
        if pr[key]:
            set_cell(section(h[key]), ", ".join(pr[key]) if key == "skills" else "; ".join(pr[key]))


STYLES: dict[str, Callable] = {
    "datecell": style_datecell, "tabdates": style_tabdates, "header": style_header,
    "boldheads": style_boldheads, "capsheads": style_capsheads, "oneline": style_oneline,
    "labeltable": style_labeltable, "twocol": style_twocol, "sectiontable": style_sectiontable,
    **FRAME_STYLES,  # text boxes, Europass, shaded and boxed headings (word_frames.py)
}


def build_docx(style: str, pr: dict, font: str) -> bytes:
    """The DOCX bytes of a CV in ``style`` (KeyError for an unknown style), reproducible."""
    doc = Document()
    sec = doc.sections[0]
    sec.page_width, sec.page_height = Cm(21), Cm(29.7)
    sec.left_margin = sec.right_margin = Cm(2)
    sec.top_margin = sec.bottom_margin = Cm(2)
    normal = doc.styles["Normal"]
    normal.font.name = font
    normal.font.size = Pt(10)
    STYLES[style](doc, pr)
    props = doc.core_properties
    props.author = props.last_modified_by = "cvrag zoo"
    props.created = props.modified = FIXED_TIME
    props.revision = 1
    buf = io.BytesIO()
    doc.save(buf)
    return _fixed_zip(buf.getvalue())


def _fixed_zip(data: bytes) -> bytes:
    """The same zip with every entry stamped 2026-01-01 (python-docx stamps the current time)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2026, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(fixed, src.read(info.filename))
    return out.getvalue()
