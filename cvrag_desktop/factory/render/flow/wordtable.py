"""``wordtable`` layout: a Word CV laid out as a table.

Each section is a table: a heading row across both columns in bold capitals at body size
(Word users make headings bold and upper case rather than larger), then one row per
entry with the printed period in a narrow left cell (it may wrap) and the title,
employer, place and bullets in the right cell. Cell borders are drawn or hidden, one
choice per CV, as people leave Word's table grid on or turn it off.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.units import cm
from reportlab.platypus import Flowable, PageTemplate, Spacer, Table

from cvrag_desktop.factory.render.base.common import (
    PrintedCV,
    bullets,
    para,
    photo_flowable,
    rich,
    styles,
    tstyle,
)
from cvrag_desktop.factory.render.base.extras import Extras, single_frame_pages

WIDTH = 17 * cm
LEFT = 3.3 * cm
LINE = colors.Color(0.55, 0.55, 0.55)


def heading_text(text: str) -> str:
    """A heading as Word users type it: the section name in capitals."""
    return text.upper()


def section_table(rows: list[list], font: str, grid: bool) -> Table:
    """One section: the heading row (spanning both cells) and its entry rows."""
    t = Table(rows, colWidths=[LEFT, WIDTH - LEFT])
    cmds: list = [
        ("SPAN", (0, 0), (1, 0)),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
    ]
    if grid:
        cmds.append(("GRID", (0, 0), (-1, -1), 0.5, LINE))
    else:
        cmds.append(("LINEBELOW", (0, 0), (1, 0), 0.75, colors.black))
    t.setStyle(tstyle(font, cmds))
    return t


def wordtable(pc: PrintedCV, ex: Extras) -> tuple[list[Flowable], list[PageTemplate]]:
    """Name and contact lines, then every section as a two-cell table."""
    rng = ex.rng
    st = styles(pc.font, colors.black, pc.size)
    grid = rng.random() < 0.5
    head_style = st["bold"]
    name = st["bold"].clone("wt-name", fontSize=pc.size * 1.6, leading=pc.size * 2.0)
    story: list[Flowable] = []
    top: list[Flowable] = [para(pc.name, name)]
    if pc.headline:
        top.append(para(pc.headline, st["body"]))
    values = [v for _, v in pc.contact]
    if rng.random() < 0.5:
        top.append(para(" | ".join(values), st["body"]))
    else:
        top += [rich([("b", f"{label}: "), ("", value)], st["body"]) for label, value in pc.contact]
    image = photo_flowable(pc.photo, 2.6 * cm)
    if image is not None:
        t = Table([[top, image]], colWidths=[WIDTH - 3 * cm, 3 * cm])
        t.setStyle(
            tstyle(pc.font, [("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0)])
        )
        story.append(t)
    else:
        story += top
    story.append(Spacer(1, 8))

    def add(key: str, rows: list[list]) -> None:
        heading = [para(heading_text(pc.headings[key]), head_style), ""]
        story.append(section_table([heading, *rows], pc.font, grid))
        story.append(Spacer(1, 6))

    if pc.summary:
        add("summary", [["", para(pc.summary, st["body"])]])
    rows = []
    for role in pc.roles:
        cell: list[Flowable] = [rich([("b", role.title)], st["body"])]
        place = ", ".join(x for x in (role.company, role.location) if x)
        cell.append(para(place, st["italic"]))
        cell += bullets(role.bullets, st["bullet"])
        rows.append([para(role.period, st["body"]), cell])
    add("experience", rows)
    rows = [
        [
            para(ed.period, st["body"]),
            [rich([("b", ed.degree)], st["body"]), para(ed.institution, st["body"])],
        ]
        for ed in pc.education
    ]
    add("education", rows)
    add("skills", [["", para(", ".join(pc.skills), st["body"])]])
    add("languages", [["", [para(x, st["body"]) for x in pc.languages]]])
    if pc.certifications:
        add("certifications", [["", bullets(pc.certifications, st["bullet"])]])
    return story, single_frame_pages()
