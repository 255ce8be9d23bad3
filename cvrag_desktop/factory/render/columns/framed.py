"""Layouts with page furniture: ``sidebar`` (two columns) and ``gutter`` (header band, date gutter).

They need custom page templates (frames, painted backgrounds), so each returns the page
templates together with the story; ``render_pdf`` builds the document.
"""

from __future__ import annotations

import io
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import cm
from reportlab.lib.utils import ImageReader
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    Frame,
    NextPageTemplate,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
)

from cvrag_desktop.factory.render.base.common import (
    PrintedCV,
    bullets,
    column_story,
    fitted,
    para,
    photo_flowable,
    rich,
    role_block,
    role_line,
    styles,
    summary_and_experience,
    tstyle,
)
from cvrag_desktop.factory.render.base.fonts import register_font

W, H = A4
MARGIN = 1.6 * cm


def _tint(c: colors.Color, amount: float) -> colors.Color:
    return colors.Color(1 - (1 - c.red) * amount, 1 - (1 - c.green) * amount, 1 - (1 - c.blue) * amount)


def sidebar(pc: PrintedCV) -> tuple[list[Flowable], list[PageTemplate]]:
    """Two columns: contact, skills and languages on a tinted side column; history on the right."""
    st = styles(pc.font, pc.accent, pc.size)
    side_w = 6.0 * cm
    tint = _tint(pc.accent, 0.12)

    def paint(canvas, doc) -> None:
        canvas.saveState()
        canvas.setFillColor(tint)
        canvas.rect(0, 0, side_w + 0.6 * cm, H, stroke=0, fill=1)
        canvas.restoreState()

    side = Frame(0.6 * cm, MARGIN, side_w - 0.6 * cm, H - 2 * MARGIN, id="side", showBoundary=0)
    main = Frame(side_w + 1.2 * cm, MARGIN, W - side_w - 1.2 * cm - MARGIN, H - 2 * MARGIN, id="main")
    later = Frame(side_w + 1.2 * cm, MARGIN, W - side_w - 1.2 * cm - MARGIN, H - 2 * MARGIN, id="later")
    templates = [
        PageTemplate(id="first", frames=[side, main], onPage=paint),
        PageTemplate(id="later", frames=[later], onPage=paint),
    ]
    small_head = st["heading"].clone("side_head", fontSize=st["body"].fontSize * 1.1)
    side: list[Flowable] = []
    photo = photo_flowable(pc.photo, 3.2 * cm)
    if photo is not None:
        side += [photo, Spacer(1, 8)]
    side.append(para(pc.headings["contact"], small_head))
    for label, value in pc.contact:
        side += [para(label, st["muted"]), fitted(value, st["small"], side_w - 0.6 * cm - 13)]
    side.append(para(pc.headings["skills"], small_head))
    side += [para(s, st["small"]) for s in pc.skills]
    side.append(para(pc.headings["languages"], small_head))
    side += [para(x, st["small"]) for x in pc.languages]
    main: list[Flowable] = [para(pc.name, st["name"])]
    main += summary_and_experience(pc, st)
    for role in pc.roles:
        head = [rich([("b", role.title)], st["body"]), para(f"{role.company} | {role.period}", st["muted"])]
        if role.location:
            head.append(para(role.location, st["muted"]))
        main += role_block(head, role.bullets, st["bullet"])
    main += [CondPageBreak(2 * cm), para(pc.headings["education"], st["heading"])]
    for ed in pc.education:
        main += [rich([("b", ed.degree)], st["body"]), para(f"{ed.institution}, {ed.period}", st["muted"])]
    if pc.certifications:
        main.append(para(pc.headings["certifications"], st["heading"]))
        main.extend(bullets(pc.certifications, st["bullet"], "–"))
    return column_story(side, main), templates


def gutter(pc: PrintedCV) -> tuple[list[Flowable], list[PageTemplate]]:
    """A coloured header band with name and contact; dates in a left gutter beside each entry."""
    st = styles(pc.font, pc.accent, pc.size)
    band = 4.2 * cm if pc.photo else 3.6 * cm
    regular, bold, _, _ = register_font(pc.font)

    def header(canvas, doc) -> None:
        canvas.saveState()
        canvas.setFillColor(pc.accent)
        canvas.rect(0, H - band, W, band, stroke=0, fill=1)
        canvas.setFillColor(colors.white)
        canvas.setFont(bold, 22)
        canvas.drawString(MARGIN, H - 1.6 * cm, pc.name)
        canvas.setFont(regular, 11)
        if pc.headline:
            canvas.drawString(MARGIN, H - 2.3 * cm, pc.headline)
        canvas.setFont(regular, 8.5)
        values = [v for _, v in pc.contact]
        canvas.drawString(MARGIN, H - 2.95 * cm, "   ".join(values[:3]))
        if len(values) > 3:
            canvas.drawString(MARGIN, H - 3.35 * cm, "   ".join(values[3:]))
        if pc.photo:
            canvas.drawImage(
                ImageReader(io.BytesIO(pc.photo)),
                W - MARGIN - 3.4 * cm,
                H - band + 0.4 * cm,
                3.4 * cm,
                3.4 * cm,
                mask="auto",
            )
        canvas.restoreState()

    body_w = W - 2 * MARGIN
    first = Frame(MARGIN, MARGIN, body_w, H - band - MARGIN - 0.4 * cm, id="first")
    rest = Frame(MARGIN, MARGIN, body_w, H - 2 * MARGIN, id="rest")
    templates = [
        PageTemplate(id="first", frames=[first], onPage=header),
        PageTemplate(id="rest", frames=[rest]),
    ]
    gut = 3.4 * cm

    def rows_table(rows: list[list]) -> Table:
        t = Table(rows, colWidths=[gut, body_w - gut])
        t.setStyle(
            tstyle(
                pc.font,
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
                ],
            )
        )
        return t

    def heading(key: str) -> list[Flowable]:
        return [CondPageBreak(2.5 * cm), para(pc.headings[key].upper(), st["heading"])]

    story: list[Flowable] = [NextPageTemplate("rest")]
    if pc.summary:
        story += [*heading("summary"), para(pc.summary, st["body"])]
    story += heading("experience")
    for role in pc.roles:
        cell: list[Flowable] = [
            rich(role_line(role, "·"), st["body"]),
            *bullets(role.bullets, st["bullet"], "–"),
        ]
        story.append(rows_table([[para(role.period, st["muted"]), cell]]))
    story += heading("education")
    story.append(
        rows_table(
            [
                [
                    para(e.period, st["muted"]),
                    [rich([("b", e.degree)], st["body"]), para(e.institution, st["body"])],
                ]
                for e in pc.education
            ]
        )
    )
    story += heading("skills")
    story.append(Paragraph(" &nbsp;|&nbsp; ".join(escape(s) for s in pc.skills), st["body"]))
    story += heading("languages")
    story.append(para(", ".join(pc.languages), st["body"]))
    if pc.certifications:
        story += heading("certifications")
        story.extend(bullets(pc.certifications, st["bullet"], "–"))
    return story, templates
