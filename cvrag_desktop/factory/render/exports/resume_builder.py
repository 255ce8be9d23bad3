"""``builder`` layout: a CV exported from an online résumé builder.

The builders' templates print a "Skill Highlights" block of bulleted skills in two
columns, and experience entries as "Title  03/2019 to Current" (the title and the period
on one line, two spaces apart) over "Company – City" and the bullets. Degrees read
"Degree  09/2012 to 06/2016" over the school. Wording ("to", "Current", "Skill Highlights") follows
the heading language; months print only where the ground truth knows them.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.units import cm
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    HRFlowable,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Table,
)

from cvrag_desktop.factory.dates import format_period
from cvrag_desktop.factory.profiles import factory_data
from cvrag_desktop.factory.render.base.common import PrintedCV, bullets, para, photo_flowable, styles, tstyle
from cvrag_desktop.factory.render.base.extras import Extras, single_frame_pages

WIDTH = 17 * cm

# fmt: off
BUILDER: dict[str, dict[str, str]] = {
    "en": {"to": "to", "current": "Current", "highlights": "Skill Highlights", "summary": "Professional Summary"},
    "de": {"to": "bis", "current": "aktuell", "highlights": "Kernkompetenzen", "summary": "Berufsprofil"},
    "fr": {"to": "à", "current": "Actuel", "highlights": "Compétences clés", "summary": "Profil professionnel"},
    "es": {"to": "a", "current": "Actual", "highlights": "Aptitudes destacadas", "summary": "Perfil profesional"},
    "it": {"to": "a", "current": "Attuale", "highlights": "Competenze principali", "summary": "Profilo professionale"},
    "pt": {"to": "a", "current": "Atual", "highlights": "Destaques de competências", "summary": "Resumo profissional"},
    "pl": {"to": "do", "current": "obecnie", "highlights": "Kluczowe umiejętności", "summary": "Profil zawodowy"},
    "nl": {"to": "tot", "current": "heden", "highlights": "Kernvaardigheden", "summary": "Profiel"},
}
# fmt: on


def builder_period(start: str | None, end: str | None, is_current: bool, lang: str) -> str:
    """ "03/2019 to Current", "2016 to 2019" (MM/YYYY only where the truth has the month)."""
    words = BUILDER.get(lang, BUILDER["en"])
    return format_period(start or None, end or None, is_current=is_current, style="mm_yyyy",
                         pack=factory_data().languages[lang], present=words["current"], sep=f" {words['to']} ")


def skill_columns(skills: list[str], style, font: str) -> Table:
    """Skills as bullets in two columns, filled top to bottom then left to right."""
    half = (len(skills) + 1) // 2
    left, right = skills[:half], skills[half:]
    rows = []
    for i in range(half):
        row = [Paragraph(escape(left[i]), style, bulletText="•")]
        row.append(Paragraph(escape(right[i]), style, bulletText="•") if i < len(right) else "")
        rows.append(row)
    t = Table(rows, colWidths=[WIDTH / 2, WIDTH / 2])
    t.setStyle(
        tstyle(
            font,
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ],
        )
    )
    return t


def builder(pc: PrintedCV, ex: Extras) -> tuple[list[Flowable], list[PageTemplate]]:
    """Centred name and contact line, then builder-template sections."""
    lang = ex.heading_lang if ex.heading_lang in BUILDER else "en"
    words = BUILDER[lang]
    st = styles(pc.font, pc.accent, pc.size)
    centred = st["body"].clone("rb-centre", alignment=TA_CENTER)
    name = st["name"].clone("rb-name", alignment=TA_CENTER, textColor=colors.black)
    heading = st["bold"].clone(
        "rb-head",
        fontSize=pc.size * 1.25,
        leading=pc.size * 1.7,
        textColor=pc.accent,
        spaceBefore=pc.size * 0.9,
    )
    story: list[Flowable] = []
    image = photo_flowable(pc.photo, 2.4 * cm)
    if image is not None:
        story.append(image)
    story.append(para(pc.name, name))
    if pc.headline:
        story.append(para(pc.headline, centred))
    story.append(para(" | ".join(v for _, v in pc.contact), centred))

    def section(text: str) -> None:
        story.append(CondPageBreak(2.2 * cm))
        story.append(para(text, heading))
        story.append(HRFlowable(width="100%", thickness=1.0, color=pc.accent, spaceAfter=4))

    if pc.summary:
        section(words["summary"])
        story.append(para(pc.summary, st["body"]))
    section(words["highlights"])
    story.append(skill_columns(pc.skills, st["bullet"], pc.font))
    section(pc.headings["experience"])
    for role, exp in zip(pc.roles, ex.experiences, strict=True):
        period = builder_period(exp.start, exp.end, exp.is_current, lang)
        head = Paragraph(f"<b>{escape(role.title)}</b>&nbsp;&nbsp;{escape(period)}", st["body"])
        where = f"{role.company} – {role.location}" if role.location else role.company
        block = [head, para(where, st["italic"]), *bullets(role.bullets[:1], st["bullet"])]
        story.append(KeepTogether(block))
        story += bullets(role.bullets[1:], st["bullet"])
    section(pc.headings["education"])
    for printed, truth in zip(pc.education, ex.educations, strict=True):
        period = builder_period(truth.start, truth.end, False, lang)
        head = Paragraph(f"<b>{escape(printed.degree)}</b>&nbsp;&nbsp;{escape(period)}", st["body"])
        story.append(KeepTogether([head, para(printed.institution, st["italic"])]))
    section(pc.headings["languages"])
    story += bullets(pc.languages, st["bullet"])
    if pc.certifications:
        section(pc.headings["certifications"])
        story += bullets(pc.certifications, st["bullet"])
    return story, single_frame_pages()
