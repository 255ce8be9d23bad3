"""What every layout prints, prepared once: ordered entries, printed dates, styles, helpers.

Layouts only arrange a :class:`PrintedCV`; the wording (printed periods, skill spellings,
localized labels) is decided here from the draft, so all layouts show the same facts.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    Flowable,
    FrameBreak,
    Image,
    KeepTogether,
    NextPageTemplate,
    Paragraph,
    Spacer,
    TableStyle,
)

from cvrag_desktop.domain import Experience
from cvrag_desktop.factory.dates import format_period
from cvrag_desktop.factory.model import CVDraft, DateStyle
from cvrag_desktop.factory.profiles import factory_data
from cvrag_desktop.factory.render.base.fonts import CID_FONTS, register_font
from cvrag_desktop.factory.render.base.placeholders import add_placeholders


@dataclass
class PrintedRole:
    """One role as printed."""

    title: str
    company: str
    location: str
    period: str
    bullets: list[str]


@dataclass
class PrintedEducation:
    """One degree as printed."""

    degree: str
    institution: str
    period: str


@dataclass
class PrintedCV:
    """Everything a layout needs, already worded and ordered."""

    name: str
    headline: str
    contact: list[tuple[str, str]]  # (label, value)
    summary: str
    roles: list[PrintedRole]
    education: list[PrintedEducation]
    skills: list[str]
    languages: list[str]
    certifications: list[str]
    headings: dict[str, str]
    accent: colors.Color
    font: str
    size: float = 9.5
    photo: bytes | None = None
    extra: dict[str, str] = field(default_factory=dict)


def role_period(exp: Experience, style: DateStyle, pack, present: str) -> str:
    """A role's period as this CV prints it (its style, separator and "since" form; ``present`` for an open end)."""
    return format_period(
        exp.start,
        exp.end,
        is_current=exp.is_current,
        style=style.style,
        pack=pack,
        present=present,
        sep=style.sep,
        since_form=style.since_form,
    )


def printed_cv(draft: CVDraft, font: str, photo: bytes | None = None) -> PrintedCV:
    """Word and order a draft for printing (newest role first unless the CV says otherwise)."""
    data = factory_data()
    cv, hints = draft.cv, draft.hints
    pack = data.languages[hints.lang]
    roles = []
    for exp, style in zip(cv.experiences, hints.role_styles, strict=True):
        period = role_period(exp, style, pack, hints.present)
        roles.append(PrintedRole(exp.title or "", exp.company or "", exp.location or "", period, exp.bullets))
    education = []
    for ed, style in zip(cv.education, hints.edu_styles, strict=True):
        period = format_period(
            ed.start, ed.end, is_current=False, style=style.style, pack=pack, present="", sep=style.sep
        )
        education.append(PrintedEducation(ed.degree or "", ed.institution or "", period))
    if hints.newest_first:
        roles.reverse()
        education.reverse()
    contact = [(hints.labels["email"], e) for e in cv.emails]
    contact += [(hints.labels["phone"], p) for p in cv.phones]
    if cv.location:
        contact.append((hints.labels["location"], cv.location))
    contact += [(hints.labels["web"], link) for link in cv.links]
    r, g, b = hints.accent
    printed = PrintedCV(
        name=cv.name or "",
        headline=cv.headline or "",
        contact=contact,
        summary=cv.summary or "",
        roles=roles,
        education=education,
        skills=[hints.skill_label(s) for s in cv.skills],
        languages=list(hints.spoken),
        certifications=list(hints.certifications),
        headings=dict(hints.headings),
        accent=colors.Color(r, g, b),
        font=font,
        size=hints.font_size,
        photo=photo,
    )
    return add_placeholders(printed, draft)


def styles(font: str, accent: colors.Color, size: float = 9.5) -> dict[str, ParagraphStyle]:
    """Paragraph styles for one CV in one font family."""
    regular, bold, italic, _ = register_font(font)
    base = ParagraphStyle("body", fontName=regular, bulletFontName=regular, fontSize=size, leading=size * 1.3)
    if font in CID_FONTS:  # Chinese and Japanese lines break between any two letters
        base.wordWrap = "CJK"
    return {
        "body": base,
        "small": ParagraphStyle("small", parent=base, fontSize=size - 1.2, leading=(size - 1.2) * 1.3),
        "muted": ParagraphStyle("muted", parent=base, fontSize=size - 1, textColor=colors.grey),
        "right": ParagraphStyle("right", parent=base, fontSize=size - 0.5, alignment=TA_RIGHT),
        "bold": ParagraphStyle("bold", parent=base, fontName=bold),
        "italic": ParagraphStyle("italic", parent=base, fontName=italic),
        "name": ParagraphStyle("name", parent=base, fontName=bold, fontSize=size * 2.3, leading=size * 2.7),
        "headline": ParagraphStyle(
            "headline", parent=base, fontSize=size * 1.25, leading=size * 1.6, textColor=accent
        ),
        "heading": ParagraphStyle(
            "heading",
            parent=base,
            fontName=bold,
            fontSize=size * 1.3,
            leading=size * 1.7,
            textColor=accent,
            spaceBefore=size,
            spaceAfter=2,
        ),
        "heading_right": ParagraphStyle(
            "heading_right",
            parent=base,
            fontName=bold,
            fontSize=size * 1.15,
            leading=size * 1.5,
            textColor=accent,
            alignment=TA_RIGHT,
        ),
        "bullet": ParagraphStyle("bullet", parent=base, leftIndent=12, bulletIndent=2, spaceBefore=1),
        "white": ParagraphStyle("white", parent=base, textColor=colors.white),
        "white_name": ParagraphStyle(
            "white_name",
            parent=base,
            fontName=bold,
            fontSize=size * 2.3,
            leading=size * 2.7,
            textColor=colors.white,
        ),
    }


def para(text: str, style: ParagraphStyle, **kwargs) -> Paragraph:
    """A paragraph of plain (escaped) text."""
    return Paragraph(escape(text), style, **kwargs)


def tstyle(font: str, cmds: list) -> TableStyle:
    """A table style whose cells default to the CV's font (not reportlab's Helvetica)."""
    return TableStyle([("FONTNAME", (0, 0), (-1, -1), register_font(font)[0]), *cmds])


def fitted(text: str, style: ParagraphStyle, width: float, smallest: float = 5.5) -> Paragraph:
    """A one-line paragraph whose font shrinks (down to ``smallest``) until it fits ``width``."""
    size = style.fontSize
    while size > smallest and stringWidth(text, style.fontName, size) > width:
        size -= 0.25
    if size == style.fontSize:
        return para(text, style)
    return para(text, style.clone(f"{style.name}-fit", fontSize=size, leading=size * 1.25))


def rich(parts: list[tuple[str, str]], style: ParagraphStyle) -> Paragraph:
    """A paragraph from (markup-tag, text) parts, e.g. [("b", "Engineer"), ("", " at ACME")]."""
    out = []
    for tag, text in parts:
        if not text:
            continue
        out.append(f"<{tag}>{escape(text)}</{tag}>" if tag else escape(text))
    return Paragraph("".join(out), style)


def bullets(items: list[str], style: ParagraphStyle, mark: str = "•") -> list[Flowable]:
    """One paragraph per bullet point."""
    return [Paragraph(escape(b), style, bulletText=mark) for b in items]


def role_block(head: list[Flowable], points: list[str], style: ParagraphStyle, *, gap: float = 3,
               mark: str = "•") -> list[Flowable]:
    """A role: its header lines kept on one page with the first bullet point (a header never ends a page
    alone), after a ``gap``; the other points may break across pages."""
    return [KeepTogether([Spacer(1, gap), *head, *bullets(points[:1], style, mark)]), *bullets(points[1:], style, mark)]


def summary_and_experience(pc, st: dict, headline: bool = True) -> list[Flowable]:
    """What follows the name in most layouts: the headline (if asked and printed), the summary under
    its heading, and the experience heading that the roles come under."""
    out: list[Flowable] = [para(pc.headline, st["headline"])] if headline and pc.headline else []
    if pc.summary:
        out += [para(pc.headings["summary"], st["heading"]), para(pc.summary, st["body"])]
    return [*out, para(pc.headings["experience"], st["heading"])]


def column_story(side: list[Flowable], main: list[Flowable]) -> list[Flowable]:
    """The story of a two-column layout: the side column's flowables, a frame break, the main column's.

    Page one has a ``side`` and a ``main`` frame; later pages use the ``later`` template (the main
    column alone), chosen up front so that the switch happens at the first page break.
    """
    return [NextPageTemplate("later"), *side, FrameBreak(), *main]


def photo_flowable(photo: bytes | None, size: float) -> Image | None:
    """The profile image scaled to a square of ``size`` points (None when there is none)."""
    if not photo:
        return None
    return Image(io.BytesIO(photo), width=size, height=size)


def role_line(role: PrintedRole, connector: str) -> list[tuple[str, str]]:
    """ "<b>Title</b> · Company, City" parts."""
    place = ", ".join(x for x in (role.company, role.location) if x)
    return [("b", role.title), ("", f" {connector} " if place else ""), ("", place)]
