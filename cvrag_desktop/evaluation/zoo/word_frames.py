"""Word CV styles built from frames, shading and borders (python-docx plus a little raw WordprocessingML).

* ``textbox`` – the sidebar (contacts, skills, languages, certificates) in a DrawingML text box anchored
  to the page, as Canva and Word templates do; the name, summary and history in the body beside it.
* ``europass`` – the Europass DOCX: one borderless table, the labels and periods right-aligned in a
  narrow left column, the section names in capitals there too, the content on the right.
* ``shaded`` – the name and a table of headline and contacts in the page header part; each section
  heading a shaded one-cell table row, the entries in plain paragraphs below it.
* ``boxedheads`` – each section heading the only cell of a 1x1 bordered table; entries as a bold title
  and an "Employer, City | period" line.

The same printed record as every Word style (:func:`plan.printed_record`); text box and shape ids are
fixed, so the same record gives the same bytes.
"""

from __future__ import annotations

from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import parse_xml
from docx.oxml.ns import qn
from docx.shared import Cm, Pt, RGBColor

from cvrag_desktop.evaluation.zoo.word_parts import (
    bullet_list,
    contact_line,
    heading,
    list_sections,
    role_head,
    summary_section,
    title_run,
)

EMU_PER_CM = 360000
SIDEBAR_FILL = "E8EEF4"
SHADE_FILL = "D9E2F3"
ACCENT = RGBColor(0x1F, 0x4E, 0x79)
_WPS = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
_NS = ('xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
       'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
       'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
       f'xmlns:wps="{_WPS}"')


def _textbox_run(shape_id: int, x: float, y: float, w: float, h: float, fill: str) -> str:
    """The XML of a run holding a text box anchored to the page at (x, y) cm, w x h cm, with no text yet."""
    cx, cy = int(w * EMU_PER_CM), int(h * EMU_PER_CM)
    return (
        f'<w:r {_NS}><w:drawing><wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" '
        f'relativeHeight="{251659264 + shape_id}" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">'
        '<wp:simplePos x="0" y="0"/>'
        f'<wp:positionH relativeFrom="page"><wp:posOffset>{int(x * EMU_PER_CM)}</wp:posOffset></wp:positionH>'
        f'<wp:positionV relativeFrom="page"><wp:posOffset>{int(y * EMU_PER_CM)}</wp:posOffset></wp:positionV>'
        f'<wp:extent cx="{cx}" cy="{cy}"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapNone/>'
        f'<wp:docPr id="{shape_id}" name="Text Box {shape_id}"/><wp:cNvGraphicFramePr/>'
        f'<a:graphic><a:graphicData uri="{_WPS}"><wps:wsp><wps:cNvSpPr txBox="1"/>'
        f'<wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm>'
        '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>'
        f'<a:solidFill><a:srgbClr val="{fill}"/></a:solidFill><a:ln><a:noFill/></a:ln></wps:spPr>'
        '<wps:txbx><w:txbxContent/></wps:txbx>'
        '<wps:bodyPr rot="0" vert="horz" wrap="square" lIns="108000" tIns="108000" rIns="108000" bIns="108000" '
        'anchor="t"><a:noAutofit/></wps:bodyPr></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>'
    )


def _into_textbox(doc, anchor_paragraph, run_xml: str, fill) -> None:
    """Anchor a text box in ``anchor_paragraph`` and move into it the paragraphs ``fill(doc)`` adds."""
    body = doc.element.body
    before = {id(el) for el in body}
    fill(doc)
    added = [el for el in body if id(el) not in before and el.tag == qn("w:p")]
    run = parse_xml(run_xml)
    content = run.find(".//" + qn("w:txbxContent"))
    for p in added:
        content.append(p)  # lxml moves the element out of the body
    anchor_paragraph._p.append(run)


def _sidebar(doc, pr: dict) -> None:
    heading(doc, pr["headings"]["contact"], "bold")
    for c in pr["contact"]:
        doc.add_paragraph(c["value"])
    list_sections(doc, pr, "bold")


def style_textbox(doc, pr: dict) -> None:
    """The sidebar in a text box on the left of the page; the name and the history in the body beside it."""
    sec = doc.sections[0]
    sec.left_margin = Cm(7.6)
    name = doc.add_paragraph()
    run = name.add_run(pr["name"])
    run.bold, run.font.size = True, Pt(20)
    _into_textbox(doc, name, _textbox_run(1, 0.9, 1.2, 6.0, 27.0, SIDEBAR_FILL), lambda d: _sidebar(d, pr))
    if pr["headline"]:
        title_run(doc, pr["headline"], 12, bold=False)
    summary_section(doc, pr, "bold")
    heading(doc, pr["headings"]["experience"], "bold")
    for role in pr["roles"]:
        title_run(doc, role["title"])
        doc.add_paragraph(" | ".join(x for x in (", ".join(y for y in (role["company"], role["location"]) if y),
                                                 role["period"]) if x))
        bullet_list(doc, role["bullets"])
    heading(doc, pr["headings"]["education"], "bold")
    for ed in pr["education"]:
        title_run(doc, ed["degree"])
        doc.add_paragraph(" | ".join(x for x in (ed["institution"], ed["period"]) if x))


def _no_borders(table) -> None:
    borders = parse_xml(
        '<w:tblBorders xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        + "".join(f'<w:{k} w:val="nil"/>' for k in ("top", "left", "bottom", "right", "insideH", "insideV"))
        + "</w:tblBorders>")
    table._tbl.tblPr.append(borders)


def _shade(cell, fill: str) -> None:
    props = cell._tc.get_or_add_tcPr()
    props.append(parse_xml(
        f'<w:shd xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" w:val="clear" '
        f'w:color="auto" w:fill="{fill}"/>'))


def style_europass(doc, pr: dict) -> None:
    """One borderless two-column table: right-aligned labels and periods left, the content right."""
    table = doc.add_table(rows=0, cols=2)
    table.autofit = False
    _no_borders(table)

    def row(label: str, *, caps: bool = False):
        left, right = table.add_row().cells
        left.width, right.width = Cm(5.2), Cm(11.8)
        p = left.paragraphs[0]
        p.alignment = WD_ALIGN_PARAGRAPH.RIGHT
        run = p.add_run(label.upper() if caps else label)
        run.font.size = Pt(9 if caps else 9.5)
        if caps:
            run.bold = True
            run.font.color.rgb = ACCENT
        return right

    h = pr["headings"]
    cell = row(h["contact"], caps=True)
    cell.paragraphs[0].add_run(pr["name"]).font.size = Pt(18)
    for c in pr["contact"]:
        row(c["label"]).paragraphs[0].text = c["value"]
    if pr["headline"]:
        row("").paragraphs[0].add_run(pr["headline"]).font.size = Pt(12)
    if pr["summary"]:
        row(h["summary"], caps=True).paragraphs[0].text = pr["summary"]
    row(h["experience"], caps=True)
    for role in pr["roles"]:
        cell = row(role["period"])
        cell.paragraphs[0].add_run(role["title"]).bold = True
        cell.add_paragraph(", ".join(x for x in (role["company"], role["location"]) if x))
        bullet_list(cell, role["bullets"])
    row(h["education"], caps=True)
    for ed in pr["education"]:
        cell = row(ed["period"])
        cell.paragraphs[0].add_run(ed["degree"]).bold = True
        cell.add_paragraph(ed["institution"])
    for key in ("languages", "skills", "certifications"):
        if pr[key]:
            cell = row(h[key], caps=True)
            cell.paragraphs[0].text = pr[key][0] if key != "skills" else ", ".join(pr[key])
            for more in pr[key][1:] if key != "skills" else []:
                cell.add_paragraph(more)


def _shaded_heading(doc, text: str) -> None:
    table = doc.add_table(rows=1, cols=1)
    cell = table.rows[0].cells[0]
    _shade(cell, SHADE_FILL)
    run = cell.paragraphs[0].add_run(text.upper())
    run.bold, run.font.size = True, Pt(11)
    doc.add_paragraph().paragraph_format.space_after = Pt(0)


def style_shaded(doc, pr: dict) -> None:
    """The name, then headline and contacts as a table, in the header part; shaded heading rows."""
    header = doc.sections[0].header
    run = header.paragraphs[0].add_run(pr["name"])
    run.bold, run.font.size = True, Pt(18)
    table = header.add_table(rows=1, cols=2, width=Cm(17))
    left, right = table.rows[0].cells
    left.paragraphs[0].text = pr["headline"] or ""
    right.paragraphs[0].text = pr["contact"][0]["value"] if pr["contact"] else ""
    right.paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.RIGHT
    for c in pr["contact"][1:]:
        right.add_paragraph(c["value"]).alignment = WD_ALIGN_PARAGRAPH.RIGHT
    if pr["summary"]:
        _shaded_heading(doc, pr["headings"]["summary"])
        doc.add_paragraph(pr["summary"])
    _shaded_heading(doc, pr["headings"]["experience"])
    for role in pr["roles"]:
        title_run(doc, role_head(role))
        doc.add_paragraph(" – ".join(x for x in (role["period"], role["location"]) if x))
        bullet_list(doc, role["bullets"])
    _shaded_heading(doc, pr["headings"]["education"])
    for ed in pr["education"]:
        title_run(doc, ed["degree"])
        doc.add_paragraph(", ".join(x for x in (ed["institution"], ed["period"]) if x))
    for key in ("skills", "languages", "certifications"):
        if pr[key]:
            _shaded_heading(doc, pr["headings"][key])
            doc.add_paragraph(", ".join(pr[key]) if key == "skills" else "; ".join(pr[key]))


def _boxed_heading(doc, text: str) -> None:
    table = doc.add_table(rows=1, cols=1)
    table.style = "Table Grid"
    run = table.rows[0].cells[0].paragraphs[0].add_run(text)
    run.bold, run.font.size = True, Pt(12)


def style_boxedheads(doc, pr: dict) -> None:
    """Each heading the only cell of a bordered 1x1 table; entries as a bold title and an
    "Employer, City | period" line."""
    title_run(doc, pr["name"], 20)
    if pr["headline"]:
        title_run(doc, pr["headline"], 12, bold=False)
    doc.add_paragraph(contact_line(pr))
    if pr["summary"]:
        _boxed_heading(doc, pr["headings"]["summary"])
        doc.add_paragraph(pr["summary"])
    _boxed_heading(doc, pr["headings"]["experience"])
    for role in pr["roles"]:
        title_run(doc, role["title"])
        place = ", ".join(x for x in (role["company"], role["location"]) if x)
        doc.add_paragraph(" | ".join(x for x in (place, role["period"]) if x))
        bullet_list(doc, role["bullets"])
    _boxed_heading(doc, pr["headings"]["education"])
    for ed in pr["education"]:
        title_run(doc, ed["degree"])
        doc.add_paragraph(" | ".join(x for x in (ed["institution"], ed["period"]) if x))
    for key in ("skills", "languages", "certifications"):
        if pr[key]:
            _boxed_heading(doc, pr["headings"][key])
            for line in [", ".join(pr[key])] if key == "skills" else pr[key]:
                doc.add_paragraph(line)


FRAME_STYLES = {"textbox": style_textbox, "europass": style_europass, "shaded": style_shaded,
                "boxedheads": style_boxedheads}
