"""Word CVs in the structural styles of real inboxes, written with python-docx from a factory draft.

Every style prints the same values (the factory's wording: :func:`plan.printed_record`) and differs
in structure only: where the dates sit (a left table cell, a right tab stop, the end of a one-line
entry), how headings are made (a heading style, bold only, capitals only), where the name and
contacts are (the page header part, a label/value table, a sidebar cell). The DOCX is written with
fixed document properties and fixed zip entry times, so the same draft gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from collections.abc import Callable

from docx import Document
from docx.enum.text import WD_TAB_ALIGNMENT
from docx.shared import Cm, Pt
from docx.table import _Cell

FONTS = ("Carlito", "Liberation Sans", "Liberation Serif", "DejaVu Sans")
FIXED_TIME = dt.datetime(2026, 1, 1, 0, 0, 0)

Container = object  # a Document or a table cell: both have add_paragraph


def _contact_line(pr: dict) -> str:
    return " | ".join(c["value"] for c in pr["contact"])


def _heading(box, text: str, mode: str) -> None:
    """A section heading made by a heading style, by bold alone or by capitals alone."""
    if mode == "style" and hasattr(box, "add_heading"):
        box.add_heading(text, level=2)
        return
    p = box.add_paragraph()
    p.paragraph_format.space_before = Pt(10)
    run = p.add_run(text.upper() if mode == "caps" else text)
    run.bold = mode != "caps"
    run.font.size = Pt(12 if mode == "bold" else 11)


def _bullets(box, items: list[str]) -> None:
    for b in items:
        p = box.add_paragraph(f"• {b}")
        p.paragraph_format.left_indent = Cm(0.5)
        p.paragraph_format.space_after = Pt(0)


def _title_run(box, text: str, size: float = 11, bold: bool = True) -> None:
    p = box.add_paragraph()
    run = p.add_run(text)
    run.bold = bold
    run.font.size = Pt(size)


def _identity(box, pr: dict, *, contacts: bool = True) -> None:
    _title_run(box, pr["name"], 20)
    if pr["headline"]:
        _title_run(box, pr["headline"], 12, bold=False)
    if contacts:
        box.add_paragraph(_contact_line(pr))


def _summary(box, pr: dict, mode: str) -> None:
    if pr["summary"]:
        _heading(box, pr["headings"]["summary"], mode)
        box.add_paragraph(pr["summary"])


def _lists(box, pr: dict, mode: str) -> None:
    """Skills, spoken languages and certifications, each under its heading."""
    if pr["skills"]:
        _heading(box, pr["headings"]["skills"], mode)
        box.add_paragraph(", ".join(pr["skills"]))
    if pr["languages"]:
        _heading(box, pr["headings"]["languages"], mode)
        for lang in pr["languages"]:
            box.add_paragraph(lang)
    if pr["certifications"]:
        _heading(box, pr["headings"]["certifications"], mode)
        for c in pr["certifications"]:
            box.add_paragraph(c)


def _role_head(role: dict) -> str:
    return ", ".join(x for x in (role["title"], role["company"]) if x)


def _flow_history(box, pr: dict, mode: str) -> None:
    """Roles and degrees as a bold "Title, Employer" line, the period below, bullets."""
    _heading(box, pr["headings"]["experience"], mode)
    for role in pr["roles"]:
        _title_run(box, _role_head(role))
        box.add_paragraph(" – ".join(x for x in (role["period"], role["location"]) if x))
        _bullets(box, role["bullets"])
    _heading(box, pr["headings"]["education"], mode)
    for ed in pr["education"]:
        _title_run(box, ed["degree"])
        box.add_paragraph(", ".join(x for x in (ed["institution"], ed["period"]) if x))


def _two_cells(doc, left_width: float = 3.5):
    table = doc.add_table(rows=1, cols=2)
    table.autofit = False
    left, right = table.rows[0].cells
    left.width, right.width = Cm(left_width), Cm(17 - left_width)
    return left, right


def _set_cell(cell: _Cell, text: str) -> None:
    cell.paragraphs[0].text = text


def style_datecell(doc, pr: dict) -> None:
    """A layout table per entry: the period in a narrow left cell, the entry in the right cell."""
    _identity(doc, pr)
    _summary(doc, pr, "style")
    _heading(doc, pr["headings"]["experience"], "style")
    for role in pr["roles"]:
        left, right = _two_cells(doc)
        _set_cell(left, role["period"])
        right.paragraphs[0].add_run(role["title"]).bold = True
        right.add_paragraph(", ".join(x for x in (role["company"], role["location"]) if x))
        _bullets(right, role["bullets"])
    _heading(doc, pr["headings"]["education"], "style")
    for ed in pr["education"]:
        left, right = _two_cells(doc)
        _set_cell(left, ed["period"])
        right.paragraphs[0].add_run(ed["degree"]).bold = True
        right.add_paragraph(ed["institution"])
    _lists(doc, pr, "style")


def _tabbed(doc, left: str, right: str, bold: bool = True) -> None:
    p = doc.add_paragraph()
    p.paragraph_format.tab_stops.add_tab_stop(Cm(17), WD_TAB_ALIGNMENT.RIGHT)
    p.add_run(left).bold = bold
    p.add_run(f"\t{right}")


def style_tabdates(doc, pr: dict) -> None:
    """"Title, Employer" then the period at a right-aligned tab stop on the same line."""
    _identity(doc, pr)
    _summary(doc, pr, "style")
    _heading(doc, pr["headings"]["experience"], "style")
    for role in pr["roles"]:
        _tabbed(doc, _role_head(role), role["period"])
        if role["location"]:
            doc.add_paragraph(role["location"])
        _bullets(doc, role["bullets"])
    _heading(doc, pr["headings"]["education"], "style")
    for ed in pr["education"]:
        _tabbed(doc, ed["degree"], ed["period"])
        doc.add_paragraph(ed["institution"])
    _lists(doc, pr, "style")


def style_header(doc, pr: dict) -> None:
    """The name and contacts in the page header part (repeated on every page), the rest in the body."""
    header = doc.sections[0].header
    p = header.paragraphs[0]
    run = p.add_run(pr["name"])
    run.bold, run.font.size = True, Pt(16)
    header.add_paragraph(_contact_line(pr))
    if pr["headline"]:
        _title_run(doc, pr["headline"], 13, bold=False)
    _summary(doc, pr, "style")
    _flow_history(doc, pr, "style")
    _lists(doc, pr, "style")


def style_boldheads(doc, pr: dict) -> None:
    """Headings made only by bold runs in Normal paragraphs (no heading styles, no outline)."""
    _identity(doc, pr)
    _summary(doc, pr, "bold")
    _flow_history(doc, pr, "bold")
    _lists(doc, pr, "bold")


def style_capsheads(doc, pr: dict) -> None:
    """Headings made only by capitals (not bold, not a heading style); entry titles plain too."""
    _identity(doc, pr)
    _summary(doc, pr, "caps")
    _flow_history(doc, pr, "caps")
    _lists(doc, pr, "caps")


def style_oneline(doc, pr: dict) -> None:
    """One-line entries: "Title, Employer, City, period", then bullets; degrees the same way."""
    _identity(doc, pr)
    _summary(doc, pr, "bold")
    _heading(doc, pr["headings"]["experience"], "bold")
    for role in pr["roles"]:
        p = doc.add_paragraph()
        p.add_run(role["title"]).bold = True
        p.add_run(", " + ", ".join(x for x in (role["company"], role["location"], role["period"]) if x))
        _bullets(doc, role["bullets"])
    _heading(doc, pr["headings"]["education"], "bold")
    for ed in pr["education"]:
        doc.add_paragraph(", ".join(x for x in (ed["degree"], ed["institution"], ed["period"]) if x))
    _lists(doc, pr, "bold")


def style_labeltable(doc, pr: dict) -> None:
    """A label/value personal-data table under the name, then entries as period | entry rows."""
    _title_run(doc, pr["name"], 18)
    if pr["headline"]:
        _title_run(doc, pr["headline"], 12, bold=False)
    rows = [(c["label"], c["value"]) for c in pr["contact"]]
    table = doc.add_table(rows=len(rows), cols=2)
    table.style = "Table Grid"
    for (label, value), row in zip(rows, table.rows, strict=True):
        row.cells[0].paragraphs[0].add_run(label).bold = True
        _set_cell(row.cells[1], value)
    _summary(doc, pr, "style")
    _heading(doc, pr["headings"]["experience"], "style")
    history = doc.add_table(rows=0, cols=2)
    history.style = "Table Grid"
    for role in pr["roles"]:
        left, right = history.add_row().cells
        _set_cell(left, role["period"])
        right.paragraphs[0].add_run(_role_head(role)).bold = True
        if role["location"]:
            right.add_paragraph(role["location"])
        _bullets(right, role["bullets"])
    _heading(doc, pr["headings"]["education"], "style")
    for ed in pr["education"]:
        _tabbed(doc, ed["degree"], ed["period"])
        doc.add_paragraph(ed["institution"])
    _lists(doc, pr, "style")


def style_twocol(doc, pr: dict) -> None:
    """A two-column layout table: contacts, skills, languages in a narrow left cell; the rest right."""
    left, right = _two_cells(doc, 5.5)
    _set_cell(left, pr["headings"]["contact"])
    left.paragraphs[0].runs[0].bold = True
    for c in pr["contact"]:
        left.add_paragraph(c["value"])
    _lists(left, pr, "bold")
    right.paragraphs[0].add_run(pr["name"]).bold = True
    right.paragraphs[0].runs[0].font.size = Pt(18)
    if pr["headline"]:
        right.add_paragraph(pr["headline"])
    _summary(right, pr, "bold")
    _flow_history(right, pr, "bold")


def style_sectiontable(doc, pr: dict) -> None:
    """The whole CV in one table: each section's name in a narrow left cell, its content in the right cell."""
    _identity(doc, pr)
    table = doc.add_table(rows=0, cols=2)
    table.autofit = False
    h = pr["headings"]

    def section(title: str):
        left, right = table.add_row().cells
        left.width, right.width = Cm(3.8), Cm(13.2)
        left.paragraphs[0].add_run(title).bold = True
        return right

    if pr["summary"]:
        _set_cell(section(h["summary"]), pr["summary"])
    cell = section(h["experience"])
    for k, role in enumerate(pr["roles"]):
        p = cell.paragraphs[0] if k == 0 else cell.add_paragraph()
        p.add_run(role["period"] + "  ")
        p.add_run(_role_head(role)).bold = True
        _bullets(cell, role["bullets"])
    cell = section(h["education"])
    for k, ed in enumerate(pr["education"]):
        p = cell.paragraphs[0] if k == 0 else cell.add_paragraph()
        p.add_run(ed["period"] + "  ")
        p.add_run(ed["degree"]).bold = True
        cell.add_paragraph(ed["institution"])
    for key in ("skills", "languages", "certifications"):
        if pr[key]:
            _set_cell(section(h[key]), ", ".join(pr[key]) if key == "skills" else "; ".join(pr[key]))


STYLES: dict[str, Callable] = {
    "datecell": style_datecell, "tabdates": style_tabdates, "header": style_header,
    "boldheads": style_boldheads, "capsheads": style_capsheads, "oneline": style_oneline,
    "labeltable": style_labeltable, "twocol": style_twocol, "sectiontable": style_sectiontable,
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
