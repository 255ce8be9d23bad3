"""``labelled`` layout: a sidebar whose skills are grouped under category labels.

Skills print as "Languages: Python, Go", "Frameworks: Django, React", "Tools: Docker" (the
label words are not skills), spoken languages on one line with their levels,
"German (native), English (C1)". The work history fills the main column.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import cm
from reportlab.platypus import Flowable, PageTemplate, Paragraph, Spacer

from cvrag_desktop.factory.render.base.common import (
    PrintedCV,
    bullets,
    column_story,
    fitted,
    para,
    photo_flowable,
    rich,
    role_block,
    styles,
    summary_and_experience,
)
from cvrag_desktop.factory.render.base.extras import Extras, two_column_pages

W, H = A4
SIDE_W = 5.6 * cm


def group_line(label: str, skills: list[str]) -> str:
    """Paragraph markup of one skill group: "<b>Label:</b> a, b, c"."""
    return f"<b>{escape(label)}:</b> {escape(', '.join(skills))}"


def spoken_line(ex: Extras) -> str:
    """All spoken languages on one line: "German (native), English (C1)"."""
    return ", ".join(f"{sp.name} ({sp.level})" if sp.level else sp.name for sp in ex.spoken)


def labelled(pc: PrintedCV, ex: Extras) -> tuple[list[Flowable], list[PageTemplate]]:
    """Tinted left sidebar (contact, grouped skills, languages); name and history on the right."""
    st = styles(pc.font, pc.accent, pc.size)
    tint = colors.Color(0.94, 0.94, 0.94)

    def paint(canvas, doc) -> None:
        canvas.saveState()
        canvas.setFillColor(tint)
        canvas.rect(0, 0, SIDE_W + 2.0 * cm, H, stroke=0, fill=1)
        canvas.restoreState()

    templates = two_column_pages(side_left=True, side_w=SIDE_W, top=1.6 * cm, on_first=paint, on_later=paint)
    side_head = st["heading"].clone("lb-side-head", fontSize=pc.size * 1.1)
    side: list[Flowable] = []
    image = photo_flowable(pc.photo, 3.2 * cm)
    if image is not None:
        side += [image, Spacer(1, 8)]
    side.append(para(pc.headings["contact"], side_head.clone("lb-first", spaceBefore=0)))
    for _, value in pc.contact:
        side.append(fitted(value, st["small"], SIDE_W - 12))
    side.append(para(pc.headings["skills"], side_head))
    for label, skills in ex.skill_groups:
        side += [Paragraph(group_line(label, skills), st["small"]), Spacer(1, 2)]
    side.append(para(pc.headings["languages"], side_head))
    side.append(para(spoken_line(ex), st["small"]))

    main: list[Flowable] = [fitted(ex.display_name, st["name"], W - 3.2 * cm - SIDE_W - 0.7 * cm - 12)]
    main += summary_and_experience(pc, st)
    for role in pc.roles:
        place = ", ".join(x for x in (role.company, role.location) if x)
        head = [rich([("b", role.title)], st["body"]), para(f"{place} · {role.period}", st["muted"])]
        main += role_block(head, role.bullets, st["bullet"])
    main.append(para(pc.headings["education"], st["heading"]))
    for ed in pc.education:
        main += [rich([("b", ed.degree)], st["body"]), para(f"{ed.institution} · {ed.period}", st["muted"])]
    if pc.certifications:
        main.append(para(pc.headings["certifications"], st["heading"]))
        main.extend(bullets(pc.certifications, st["bullet"], "–"))
    return column_story(side, main), templates
