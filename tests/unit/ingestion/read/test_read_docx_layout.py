"""A Word CV gives the same facts whatever structure holds them (issue 36, item 5).

Each test writes one invented CV with python-docx in a structural style of real inboxes (dates in
a left table cell, a two-column layout table, a section table, tab-aligned dates, a text box, the
page header part) and checks that the name, titles, employers, dates and degrees read from it are
those of the same content laid out as plain paragraphs.
"""

from __future__ import annotations

import docx
import pytest
from docx.enum.text import WD_TAB_ALIGNMENT
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls
from docx.shared import Cm, Pt

from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document

NAME = "Edda Vallström"
CONTACT = ["edda.vallstrom@example.org", "+44 7700 900123", "Leeds"]
ROLES = [  # newest first, as a CV prints them
    ("Senior Data Engineer", "Northwind Logistics", "03/2021 – 06/2025",
     ["Built a streaming platform on Kafka and Python for 12 teams.", "Cut the nightly batch from 6 hours to 40 minutes."]),
    ("Data Engineer", "Bluefin Analytics Ltd", "01/2017 – 02/2021",
     ["Designed the warehouse schema in PostgreSQL.", "Mentored 3 junior engineers."]),
    ("Junior Developer", "Harbourline Systems", "09/2014 – 12/2016", ["Maintained ETL jobs written in Java."]),
]
DEGREES = [("MSc in Computer Science", "University of Leeds", "2012 – 2014"),
           ("BSc in Mathematics", "University of York", "2009 – 2012")]
SKILLS = "Python, Kafka, PostgreSQL, Java, Airflow"


def _doc():
    d = docx.Document()
    d.styles["Normal"].font.size = Pt(10)
    return d


def _bold(box, text: str, size: float = 10) -> None:
    run = box.add_paragraph().add_run(text)
    run.bold, run.font.size = True, Pt(size)


def _identity(box) -> None:
    _bold(box, NAME, 20)
    box.add_paragraph(" | ".join(CONTACT))


def _bullets(box, items: list[str]) -> None:
    for b in items:
        box.add_paragraph(f"• {b}").paragraph_format.left_indent = Cm(0.5)


def _rest(box) -> None:
    box.add_heading("Skills", level=2) if hasattr(box, "add_heading") else _bold(box, "Skills", 12)
    box.add_paragraph(SKILLS)


def plain(path):
    """The reference: every fact in plain paragraphs under heading styles."""
    d = _doc()
    _identity(d)
    d.add_heading("Experience", level=2)
    for title, company, period, bullets in ROLES:
        _bold(d, f"{title}, {company}")
        d.add_paragraph(period)
        _bullets(d, bullets)
    d.add_heading("Education", level=2)
    for degree, school, period in DEGREES:
        _bold(d, degree)
        d.add_paragraph(f"{school}, {period}")
    _rest(d)
    d.save(path)
    return path


def _two_cells(d, left_cm: float):
    table = d.add_table(rows=1, cols=2)
    table.autofit = False
    left, right = table.rows[0].cells
    left.width, right.width = Cm(left_cm), Cm(17 - left_cm)
    return left, right


def datecell(path):
    """A table per entry: the period in the left cell, title, employer and bullets in the right one."""
    d = _doc()
    _identity(d)
    d.add_heading("Experience", level=2)
    for title, company, period, bullets in ROLES:
        left, right = _two_cells(d, 3.5)
        left.paragraphs[0].text = period
        right.paragraphs[0].add_run(title).bold = True
        right.add_paragraph(company)
        _bullets(right, bullets)
    d.add_heading("Education", level=2)
    for degree, school, period in DEGREES:
        left, right = _two_cells(d, 3.5)
        left.paragraphs[0].text = period
        right.paragraphs[0].add_run(degree).bold = True
        right.add_paragraph(school)
    _rest(d)
    d.save(path)
    return path


def datecell_rows(path):
    """One table for the whole history, a row per entry (period | entry)."""
    d = _doc()
    _identity(d)
    d.add_heading("Experience", level=2)
    table = d.add_table(rows=0, cols=2)
    for title, company, period, bullets in ROLES:
        left, right = table.add_row().cells
        left.paragraphs[0].text = period
        right.paragraphs[0].add_run(f"{title}, {company}").bold = True
        _bullets(right, bullets)
    d.add_heading("Education", level=2)
    table = d.add_table(rows=0, cols=2)
    for degree, school, period in DEGREES:
        left, right = table.add_row().cells
        left.paragraphs[0].text = period
        right.paragraphs[0].add_run(degree).bold = True
        right.add_paragraph(school)
    _rest(d)
    d.save(path)
    return path


def twocol(path):
    """A two-column layout table: contacts and skills in a narrow left cell, the CV in the right one."""
    d = _doc()
    left, right = _two_cells(d, 5.5)
    left.paragraphs[0].add_run("Contact").bold = True
    for c in CONTACT:
        left.add_paragraph(c)
    _bold(left, "Skills", 12)
    left.add_paragraph(SKILLS)
    right.paragraphs[0].add_run(NAME).bold = True
    right.paragraphs[0].runs[0].font.size = Pt(18)
    _bold(right, "Experience", 12)
    for title, company, period, bullets in ROLES:
        _bold(right, f"{title}, {company}", 11)
        right.add_paragraph(period)
        _bullets(right, bullets)
    _bold(right, "Education", 12)
    for degree, school, period in DEGREES:
        _bold(right, degree, 11)
        right.add_paragraph(f"{school}, {period}")
    d.save(path)
    return path


def sectiontable(path):
    """The whole CV in one table: each section's name in the left cell, its content in the right one."""
    d = _doc()
    _identity(d)
    table = d.add_table(rows=0, cols=2)

    def section(title: str):
        left, right = table.add_row().cells
        left.width, right.width = Cm(3.8), Cm(13.2)
        left.paragraphs[0].add_run(title).bold = True
        return right

    cell = section("Experience")
    for k, (title, company, period, bullets) in enumerate(ROLES):
        p = cell.paragraphs[0] if k == 0 else cell.add_paragraph()
        p.add_run(period + "  ")
        p.add_run(f"{title}, {company}").bold = True
        _bullets(cell, bullets)
    cell = section("Education")
    for k, (degree, school, period) in enumerate(DEGREES):
        p = cell.paragraphs[0] if k == 0 else cell.add_paragraph()
        p.add_run(period + "  ")
        p.add_run(degree).bold = True
        cell.add_paragraph(school)
    section("Skills").paragraphs[0].text = SKILLS
    d.save(path)
    return path


def _tabbed(d, left: str, right: str) -> None:
    p = d.add_paragraph()
    p.paragraph_format.tab_stops.add_tab_stop(Cm(17), WD_TAB_ALIGNMENT.RIGHT)
    p.add_run(left).bold = True
    p.add_run(f"\t{right}")


def tabdates(path):
    """"Title, Employer" with the period at a right-aligned tab stop on the same line."""
    d = _doc()
    _identity(d)
    d.add_heading("Experience", level=2)
    for title, company, period, bullets in ROLES:
        _tabbed(d, f"{title}, {company}", period)
        _bullets(d, bullets)
    d.add_heading("Education", level=2)
    for degree, school, period in DEGREES:
        _tabbed(d, degree, period)
        d.add_paragraph(school)
    _rest(d)
    d.save(path)
    return path


def _text_box(paragraph, lines: list[tuple[str, float, bool]]) -> None:
    """A VML text box anchored in ``paragraph`` holding one paragraph per line."""
    body = "".join(f'<w:p><w:r><w:rPr>{"<w:b/>" if bold else ""}<w:sz w:val="{int(size * 2)}"/></w:rPr>'
                   f"<w:t>{text}</w:t></w:r></w:p>" for text, size, bold in lines)
    run = parse_xml(f'<w:r {nsdecls("w")} xmlns:v="urn:schemas-microsoft-com:vml"><w:pict><v:shape><v:textbox><w:txbxContent>{body}'
                    "</w:txbxContent></v:textbox></v:shape></w:pict></w:r>")
    paragraph._p.append(run)


def _body_after_identity(d) -> None:
    d.add_heading("Experience", level=2)
    for title, company, period, bullets in ROLES:
        _bold(d, f"{title}, {company}")
        d.add_paragraph(period)
        _bullets(d, bullets)
    d.add_heading("Education", level=2)
    for degree, school, period in DEGREES:
        _bold(d, degree)
        d.add_paragraph(f"{school}, {period}")
    _rest(d)


def textbox(path):
    """The name and contacts in a text box at the top of the page, the CV in the body."""
    d = _doc()
    _text_box(d.paragraphs[0] if d.paragraphs else d.add_paragraph(),
              [(NAME, 20, True), (" | ".join(CONTACT), 10, False)])
    _body_after_identity(d)
    d.save(path)
    return path


def header_part(path):
    """The name and contacts in the page header part, the CV in the body."""
    d = _doc()
    header = d.sections[0].header
    header.is_linked_to_previous = False
    run = header.paragraphs[0].add_run(NAME)
    run.bold, run.font.size = True, Pt(20)
    header.add_paragraph(" | ".join(CONTACT))
    _body_after_identity(d)
    d.save(path)
    return path


def facts(path) -> dict:
    cv, _ = normalize_document(extract_document(path))
    return {
        "name": cv.name,
        "roles": [(e.title, e.company, e.start, e.end) for e in cv.experiences],
        "degrees": [(ed.degree, ed.institution) for ed in cv.education],
    }


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    return facts(plain(tmp_path_factory.mktemp("plain") / "plain.docx"))


def test_the_plain_reference_reads_every_fact(reference):
    assert reference["name"] == NAME
    assert sorted((t, c) for t, c, _, _ in reference["roles"]) == sorted((t, c) for t, c, _, _ in ROLES)
    assert {(s, e) for _, _, s, e in reference["roles"]} == {("2021-03", "2025-06"), ("2017-01", "2021-02"),
                                                             ("2014-09", "2016-12")}
    assert sorted(reference["degrees"]) == sorted((d, s) for d, s, _ in DEGREES)


@pytest.mark.parametrize("build", [datecell, datecell_rows, twocol, sectiontable, tabdates, textbox, header_part],
                         ids=lambda f: f.__name__)
def test_each_structure_reads_the_facts_of_plain_paragraphs(tmp_path, reference, build):
    got = facts(build(tmp_path / f"{build.__name__}.docx"))
    assert got["name"] == reference["name"]
    assert sorted(got["roles"], key=str) == sorted(reference["roles"], key=str)
    assert sorted(got["degrees"], key=str) == sorted(reference["degrees"], key=str)
