"""Single-flow layouts: ``classic`` (one column), ``table`` (compact grids), ``localized`` (Europass-like).

Each takes a :class:`PrintedCV` and returns the flowables plus page callbacks; the
package's ``render_pdf`` builds the document. Long CVs flow onto further pages.
"""

from __future__ import annotations

from collections.abc import Callable

from reportlab.lib import colors
from reportlab.lib.units import cm
from reportlab.platypus import CondPageBreak, Flowable, HRFlowable, Spacer, Table

from cvrag_desktop.factory.render.base.common import (
    PrintedCV,
    bullets,
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

PageCallback = Callable[[object, object], None]
CONTENT_WIDTH = 17 * cm  # A4 minus 2 cm margins


def _footer(pc: PrintedCV, text: str) -> PageCallback:
    regular = register_font(pc.font)[0]

    def draw(canvas, doc) -> None:
        canvas.saveState()
        canvas.setFont(regular, 7.5)
        canvas.setFillColor(colors.grey)
        canvas.drawCentredString(doc.pagesize[0] / 2, 1.1 * cm, f"{text} – {doc.page}")
        canvas.restoreState()

    return draw


def classic(pc: PrintedCV) -> tuple[list[Flowable], PageCallback | None]:
    """One column: name, contact line, then sections under ruled headings."""
    st = styles(pc.font, pc.accent, pc.size)
    head: list[Flowable] = [para(pc.name, st["name"])]
    if pc.headline:
        head.append(para(pc.headline, st["headline"]))
    head.append(para("  ·  ".join(v for _, v in pc.contact), st["muted"]))
    photo = photo_flowable(pc.photo, 2.6 * cm)
    story: list[Flowable] = []
    if photo is not None:
        t = Table([[head, photo]], colWidths=[CONTENT_WIDTH - 3 * cm, 3 * cm])
        t.setStyle(
            tstyle(pc.font, [("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0)])
        )
        story.append(t)
    else:
        story.extend(head)

    def heading(key: str) -> None:
        story.append(CondPageBreak(2.5 * cm))
        story.append(para(pc.headings[key], st["heading"]))
        story.append(HRFlowable(width="100%", thickness=0.6, color=pc.accent, spaceAfter=4))

    if pc.summary:
        heading("summary")
        story.append(para(pc.summary, st["body"]))
    heading("experience")
    for role in pc.roles:
        line = Table(
            [[rich(role_line(role, "—"), st["body"]), para(role.period, st["right"])]],
            colWidths=[CONTENT_WIDTH * 0.7, CONTENT_WIDTH * 0.3],
        )
        line.setStyle(
            tstyle(pc.font, [("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0)])
        )
        story += role_block([line], role.bullets, st["bullet"], gap=4)
    heading("education")
    for ed in pc.education:
        story.append(
            rich([("b", ed.degree), ("", f" — {ed.institution}"), ("i", f"  ({ed.period})")], st["body"])
        )
    heading("skills")
    story.append(para(", ".join(pc.skills), st["body"]))
    heading("languages")
    story.append(para("  |  ".join(pc.languages), st["body"]))
    if pc.certifications:
        heading("certifications")
        story.extend(bullets(pc.certifications, st["bullet"]))
    return story, _footer(pc, pc.name)


def _grid(rows: list[list], widths: list[float], header: bool, font: str) -> Table:
    t = Table(rows, colWidths=widths, repeatRows=1 if header else 0)
    cmds = [
        ("GRID", (0, 0), (-1, -1), 0.4, colors.Color(0.7, 0.7, 0.7)),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    if header:
        cmds.append(("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.92, 0.92, 0.92)))
    t.setStyle(tstyle(font, cmds))
    return t


def table(pc: PrintedCV) -> tuple[list[Flowable], PageCallback | None]:
    """Compact: contact in a label/value grid, roles and degrees as table rows."""
    st = styles(pc.font, pc.accent, pc.size - 1)
    story: list[Flowable] = [para(pc.name, st["name"])]
    if pc.headline:
        story.append(para(pc.headline, st["headline"]))
    rows = [[para(label, st["bold"]), para(value, st["body"])] for label, value in pc.contact]
    photo = photo_flowable(pc.photo, 2.4 * cm)
    if photo is not None:
        t = Table([[_grid(rows, [3 * cm, 10 * cm], False, pc.font), photo]], colWidths=[14 * cm, 3 * cm])
        t.setStyle(tstyle(pc.font, [("VALIGN", (0, 0), (-1, -1), "TOP")]))
        story.append(t)
    else:
        story.append(_grid(rows, [3 * cm, 14 * cm], False, pc.font))
    story += summary_and_experience(pc, st, headline=False)
    rows = []
    for role in pc.roles:
        detail = [rich([("b", role.title)], st["body"]), *bullets(role.bullets, st["small"], "–")]
        place = [para(role.company, st["body"])] + (
            [para(role.location, st["muted"])] if role.location else []
        )
        rows.append([para(role.period, st["small"]), detail, place])
    story.append(_grid(rows, [3.2 * cm, 9.6 * cm, 4.2 * cm], False, pc.font))
    story.append(para(pc.headings["education"], st["heading"]))
    rows = [
        [para(ed.period, st["small"]), para(ed.degree, st["body"]), para(ed.institution, st["body"])]
        for ed in pc.education
    ]
    story.append(_grid(rows, [3.2 * cm, 7.8 * cm, 6 * cm], False, pc.font))
    story.append(para(pc.headings["skills"], st["heading"]))
    cols = 3
    cells = [para(s, st["body"]) for s in pc.skills]
    cells += [""] * (-len(cells) % cols)
    story.append(
        _grid(
            [cells[i : i + cols] for i in range(0, len(cells), cols)],
            [17 * cm / cols] * cols,
            False,
            pc.font,
        )
    )
    keys = ["languages"] + (["certifications"] if pc.certifications else [])
    lists = [pc.languages, pc.certifications]
    side = [
        [para(pc.headings[k], st["bold"]) for k in keys],
        [[para(x, st["body"]) for x in lists[i]] for i in range(len(keys))],
    ]
    story += [Spacer(1, 8), _grid(side, [17 * cm / len(keys)] * len(keys), True, pc.font)]
    return story, None


def localized(pc: PrintedCV) -> tuple[list[Flowable], PageCallback | None]:
    """Europass-like: section headings in a right-aligned left column, in the CV's language."""
    st = styles(pc.font, pc.accent, pc.size)
    left = 4.2 * cm
    right = CONTENT_WIDTH - left
    story: list[Flowable] = []
    photo = photo_flowable(pc.photo, 2.8 * cm)
    top = [para(pc.name, st["name"])]
    if pc.headline:
        top.append(para(pc.headline, st["headline"]))
    story.append(_two_col([[photo or "", top]], left, right, pc.font))
    rows: list[list] = []

    def section(key: str, entries: list[list[Flowable]]) -> None:
        for i, entry in enumerate(entries):
            rows.append([para(pc.headings[key], st["heading_right"]) if i == 0 else "", entry])

    section(
        "contact", [[rich([("b", f"{label}: "), ("", value)], st["body"])] for label, value in pc.contact]
    )
    if pc.summary:
        section("summary", [[para(pc.summary, st["body"])]])
    section(
        "experience",
        [
            [
                para(r.period, st["muted"]),
                rich([("b", r.title)], st["body"]),
                para(", ".join(x for x in (r.company, r.location) if x), st["italic"]),
                *bullets(r.bullets, st["bullet"]),
            ]
            for r in pc.roles
        ],
    )
    section(
        "education",
        [
            [
                para(e.period, st["muted"]),
                rich([("b", e.degree)], st["body"]),
                para(e.institution, st["italic"]),
            ]
            for e in pc.education
        ],
    )
    section("skills", [[para(" • ".join(pc.skills), st["body"])]])
    section("languages", [[para(x, st["body"]) for x in pc.languages]])
    if pc.certifications:
        section("certifications", [[para(x, st["body"]) for x in pc.certifications]])
    story.append(_two_col(rows, left, right, pc.font))
    return story, _footer(pc, "Curriculum Vitae")


def _two_col(rows: list[list], left: float, right: float, font: str) -> Table:
    t = Table(rows, colWidths=[left, right])
    t.setStyle(
        tstyle(
            font,
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("ALIGN", (0, 0), (0, -1), "RIGHT"),
                ("LINEAFTER", (0, 0), (0, -1), 0.5, colors.Color(0.75, 0.75, 0.75)),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
            ],
        )
    )
    return t
