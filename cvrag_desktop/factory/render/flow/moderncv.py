"""``moderncv`` layout: LaTeX moderncv / awesome-cv style role headers.

Each role opens with one header line, "Title, Company – City" or "Company, City — Title",
with the period right-aligned on the same line or in a narrow left column (one choice per
CV), then an unbulleted one-line description of the employer without a final period,
then the bullets.
"""

from __future__ import annotations

from reportlab.lib.units import cm
from reportlab.platypus import CondPageBreak, Flowable, HRFlowable, KeepTogether, PageTemplate, Spacer, Table

from cvrag_desktop.factory.render.base.common import (
    PrintedCV,
    PrintedRole,
    bullets,
    fitted,
    para,
    rich,
    styles,
    tstyle,
)
from cvrag_desktop.factory.render.base.extras import Extras, beside_photo, single_frame_pages

WIDTH = 17 * cm
LEFT = 3.0 * cm


def header_parts(role: PrintedRole, company_first: bool) -> list[tuple[str, str]]:
    """The one-line role header as markup parts (bold, italic, plain)."""
    if company_first:
        place = f", {role.location}" if role.location else ""
        return [("b", role.company), ("", place), ("", " — "), ("i", role.title)]
    where = f" – {role.location}" if role.location else ""
    return [("b", role.title), ("", ", "), ("i", role.company), ("", where)]


def _table(rows: list[list], widths: list[float], font: str) -> Table:
    t = Table(rows, colWidths=widths)
    t.setStyle(
        tstyle(
            font,
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 4),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ],
        )
    )
    return t


def moderncv(pc: PrintedCV, ex: Extras) -> tuple[list[Flowable], list[PageTemplate]]:
    """Name banner, then sections whose roles use moderncv-style one-line headers."""
    st = styles(pc.font, pc.accent, pc.size)
    rng = ex.rng
    company_first = rng.random() < 0.35
    dates_left = rng.random() < 0.5
    story: list[Flowable] = [fitted(ex.display_name, st["name"], WIDTH - 12)]
    if pc.headline:
        story.append(para(pc.headline, st["headline"]))
    story.append(para("  ·  ".join(v for _, v in pc.contact), st["muted"]))
    story = beside_photo(story, pc.photo, WIDTH, pc.font)

    def heading(key: str) -> None:
        story.append(CondPageBreak(2.5 * cm))
        story.append(para(pc.headings[key], st["heading"]))
        story.append(HRFlowable(width="100%", thickness=1.2, color=pc.accent, spaceAfter=4))

    if pc.summary:
        heading("summary")
        story.append(para(pc.summary, st["body"]))
    heading("experience")
    for role, blurb in zip(pc.roles, ex.blurbs, strict=True):
        head = rich(header_parts(role, company_first), st["body"])
        about = para(blurb, st["italic"].clone("blurb", textColor=st["muted"].textColor))
        if dates_left:
            block = [head, about, *bullets(role.bullets, st["bullet"])]
            story.append(Spacer(1, 4))
            story.append(_table([[para(role.period, st["muted"]), block]], [LEFT, WIDTH - LEFT], pc.font))
        else:
            line = _table([[head, para(role.period, st["right"])]], [WIDTH * 0.72, WIDTH * 0.28], pc.font)
            story.append(KeepTogether([Spacer(1, 4), line, about, *bullets(role.bullets[:1], st["bullet"])]))
            story.extend(bullets(role.bullets[1:], st["bullet"]))
    heading("education")
    for ed in pc.education:
        text = rich([("b", ed.degree), ("", ", "), ("i", ed.institution)], st["body"])
        story.append(_table([[para(ed.period, st["muted"]), text]], [LEFT, WIDTH - LEFT], pc.font))
    heading("skills")
    story.append(para(", ".join(pc.skills), st["body"]))
    heading("languages")
    rows = [[para(sp.name, st["bold"]), para(sp.level, st["body"])] for sp in ex.spoken]
    story.append(_table(rows, [LEFT, WIDTH - LEFT], pc.font))
    if pc.certifications:
        heading("certifications")
        story.extend(bullets(pc.certifications, st["bullet"]))
    return story, single_frame_pages()
