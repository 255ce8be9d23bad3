"""``datecol`` layout: a narrow left date column whose periods wrap onto two lines.

The start and the separator sit on one line ("Jan 2019 –") and the end ("Mar 2022",
"Present") on the next, inside a column too narrow for the whole period; the role's
title, employer, place and bullets fill the wide right column. Degrees use the same grid.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import cm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import CondPageBreak, Flowable, PageTemplate, Paragraph, Spacer, Table

from cvrag_desktop.factory.render.base.common import PrintedCV, bullets, fitted, para, rich, styles, tstyle
from cvrag_desktop.factory.render.base.extras import Extras, beside_photo, single_frame_pages

WIDTH = 17 * cm
DATE_COL = 2.6 * cm
_RANGE = re.compile(r"^(.*?\d{4})\s*(–|—|-|to)\s*(\S.*)$")
PAD = 6  # the table's default left + right cell padding, minus the zero left padding


def two_line_period(start: str, end: str, style: ParagraphStyle) -> Paragraph:
    """A period printed as "start –" over "end" (one line when there is no end).

    The font shrinks until the longer line fits the column, so each part stays on one line.
    """
    size = style.fontSize
    room = DATE_COL - PAD
    while size > 5.5 and max(stringWidth(x, style.fontName, size) for x in (start, end)) > room:
        size -= 0.25
    if size != style.fontSize:
        style = style.clone(f"{style.name}-fit", fontSize=size, leading=size * 1.3)
    text = escape(start) if not end else f"{escape(start)}<br/>{escape(end)}"
    return Paragraph(text, style)


def split_printed(period: str) -> tuple[str, str]:
    """ "Sep 2012 – Jun 2016" -> ("Sep 2012 –", "Jun 2016"); unchanged when it has no range."""
    m = _RANGE.match(period)
    return (f"{m[1]} {m[2]}", m[3]) if m else (period, "")


def _grid(rows: list[list], font: str, rule: colors.Color) -> Table:
    t = Table(rows, colWidths=[DATE_COL, WIDTH - DATE_COL])
    t.setStyle(
        tstyle(
            font,
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (0, -1), 0),
                ("LEFTPADDING", (1, 0), (1, -1), 8),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
                ("LINEAFTER", (0, 0), (0, -1), 0.5, rule),
            ],
        )
    )
    return t


def datecol(pc: PrintedCV, ex: Extras) -> tuple[list[Flowable], list[PageTemplate]]:
    """Header, then every dated entry as a (two-line date, details) row of a narrow grid."""
    st = styles(pc.font, pc.accent, pc.size)
    small = st["small"].clone("datecol-date", textColor=colors.Color(0.3, 0.3, 0.3))
    rule = colors.Color(0.75, 0.75, 0.75)
    story: list[Flowable] = [fitted(ex.display_name, st["name"], WIDTH - 12)]
    if pc.headline:
        story.append(para(pc.headline, st["headline"]))
    for label, value in pc.contact:
        story.append(rich([("b", f"{label}: "), ("", value)], st["small"]))
    story = beside_photo(story, pc.photo, WIDTH, pc.font)

    def heading(key: str) -> None:
        story.append(CondPageBreak(2.5 * cm))
        story.append(para(pc.headings[key].upper(), st["heading"]))

    if pc.summary:
        heading("summary")
        story.append(para(pc.summary, st["body"]))
    heading("experience")
    for role, (start, end) in zip(pc.roles, ex.split_periods, strict=True):
        place = ", ".join(x for x in (role.company, role.location) if x)
        cell: list[Flowable] = [
            rich([("b", role.title)], st["body"]),
            para(place, st["italic"]),
            *bullets(role.bullets, st["bullet"]),
        ]
        story.append(_grid([[two_line_period(start, end, small), cell]], pc.font, rule))
    heading("education")
    for ed in pc.education:
        cell = [rich([("b", ed.degree)], st["body"]), para(ed.institution, st["body"])]
        story.append(_grid([[two_line_period(*split_printed(ed.period), small), cell]], pc.font, rule))
    heading("skills")
    story.append(para(" · ".join(pc.skills), st["body"]))
    heading("languages")
    story.append(para(", ".join(pc.languages), st["body"]))
    if pc.certifications:
        heading("certifications")
        story.extend(bullets(pc.certifications, st["bullet"], "–"))
    story.append(Spacer(1, 4))
    return story, single_frame_pages()
