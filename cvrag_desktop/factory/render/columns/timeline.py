"""``timeline`` layout: dated events in a main column beside a second column on the same band.

Each role is one event line, "MM/YYYY – MM/YYYY  Title @ Employer" (year-only where the
ground truth only knows the year), then its place and bullets. Contact, skills and
languages sit in a narrow column to the right that starts at the same height as the
main column, so reading the page line by line across both columns would interleave them.
"""

from __future__ import annotations

import io
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import cm
from reportlab.lib.utils import ImageReader
from reportlab.platypus import Flowable, PageTemplate, Paragraph, Spacer

from cvrag_desktop.factory.render.base.common import (
    PrintedCV,
    bullets,
    column_story,
    fitted,
    para,
    role_block,
    styles,
)
from cvrag_desktop.factory.render.base.extras import Extras, two_column_pages
from cvrag_desktop.factory.render.base.fonts import register_font

W, H = A4
SIDE_W = 4.8 * cm
TOP = 3.4 * cm


def event_line(period: str, title: str, company: str) -> str:
    """Paragraph markup of one event: the period, two spaces, "<b>Title</b> @ Employer"."""
    return f"{escape(period)}&nbsp;&nbsp;<b>{escape(title)}</b> @ {escape(company)}"


def timeline(pc: PrintedCV, ex: Extras) -> tuple[list[Flowable], list[PageTemplate]]:
    """Name band on top, events on the left, contact/skills/languages column on the right."""
    st = styles(pc.font, pc.accent, pc.size)
    regular, bold, _, _ = register_font(pc.font)

    def header(canvas, doc) -> None:
        canvas.saveState()
        canvas.setFillColor(pc.accent)
        canvas.setFont(bold, 20)
        canvas.drawString(1.6 * cm, H - 1.9 * cm, ex.display_name)
        if pc.headline:
            canvas.setFillColor(colors.Color(0.3, 0.3, 0.3))
            canvas.setFont(regular, 11)
            canvas.drawString(1.6 * cm, H - 2.6 * cm, pc.headline)
        canvas.setStrokeColor(pc.accent)
        canvas.line(1.6 * cm, H - 3.0 * cm, W - 1.6 * cm, H - 3.0 * cm)
        if pc.photo:
            image = ImageReader(io.BytesIO(pc.photo))
            canvas.drawImage(image, W - 4.0 * cm, H - 2.9 * cm, 2.4 * cm, 2.4 * cm, mask="auto")
        canvas.restoreState()

    templates = two_column_pages(side_left=False, side_w=SIDE_W, top=TOP, on_first=header)
    side_head = st["heading"].clone("tl-side-head", fontSize=pc.size * 1.1, spaceBefore=0)
    side: list[Flowable] = [para(pc.headings["contact"], side_head)]
    for _, value in pc.contact:
        side.append(fitted(value, st["small"], SIDE_W - 12))
    side += [Spacer(1, 6), para(pc.headings["skills"], side_head)]
    side += [para(s, st["small"]) for s in pc.skills]
    side += [Spacer(1, 6), para(pc.headings["languages"], side_head)]
    side += [para(x, st["small"]) for x in pc.languages]

    main_head = st["heading"].clone("tl-main-head", spaceBefore=0)
    main: list[Flowable] = []
    if pc.summary:
        main += [para(pc.headings["summary"], main_head), para(pc.summary, st["body"]), Spacer(1, 6)]
    main.append(para(pc.headings["experience"], main_head))
    for role, period in zip(pc.roles, ex.numeric_periods, strict=True):
        head: list[Flowable] = [Paragraph(event_line(period, role.title, role.company), st["body"])]
        if role.location:
            head.append(para(role.location, st["muted"]))
        main += role_block(head, role.bullets, st["bullet"])
    main += [Spacer(1, 6), para(pc.headings["education"], main_head)]
    for ed in pc.education:
        main.append(Paragraph(event_line(ed.period, ed.degree, ed.institution), st["body"]))
    if pc.certifications:
        main += [Spacer(1, 6), para(pc.headings["certifications"], main_head)]
        main.extend(bullets(pc.certifications, st["bullet"], "–"))
    return column_story(side, main), templates
