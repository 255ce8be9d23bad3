"""``linkedin_old`` layout: the 2016-17 LinkedIn "Save to PDF" export (one column).

The name and headline on top with the e-mail beneath, then "Summary", "Experience" whose
positions read "Title at Company" over "Month YYYY - Present (N years M months)",
"Education" (the school, then "Degree, Field, 2010 - 2013"), "Skills & Expertise" one
per line, languages and certifications; a bare "Page1" footer and a closing "Contact
Jane on LinkedIn" line. The connector "at" follows the interface language ("bei",
"chez", "w", "bij").
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.units import cm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import CondPageBreak, Flowable, HRFlowable, KeepTogether, Spacer

from cvrag_desktop.factory.profiles import factory_data
from cvrag_desktop.factory.render.base.common import PrintedCV, para, rich, styles
from cvrag_desktop.factory.render.base.export_wording import EXPORT, export_date, export_lang, export_period
from cvrag_desktop.factory.render.base.extras import Extras, single_frame_pages
from cvrag_desktop.factory.render.exports.linkedin import (
    footer,
    newest_first_education,
    newest_first_roles,
    spoken_lines,
)
from cvrag_desktop.factory.render.flow.europass import contact_kind

GREY = colors.Color(0.4, 0.4, 0.4)
RULE = colors.Color(0.8, 0.8, 0.8)


def title_at_company(title: str, company: str, lang: str) -> list[tuple[str, str]]:
    """ "<b>Title</b> at <b>Company</b>" parts in the interface language."""
    at = factory_data().languages[lang].connectors["at"]
    return [("b", title), ("", f" {at} "), ("b", company)]


def old_degree_line(degree: str, field: str | None, start: str | None, end: str | None, lang: str) -> str:
    """ "Degree, Field, 2010 - 2013" (the field only when the degree does not name it)."""
    parts = [degree]
    if field and field.lower() not in degree.lower():
        parts.append(field)
    if start and end:
        parts.append(f"{export_date(start, lang)} - {export_date(end, lang)}")
    return ", ".join(parts)


def linkedin_old(pc: PrintedCV, ex: Extras) -> tuple[list[Flowable], list, type[Canvas]]:
    """Name and headline, then ruled sections; positions as "Title at Company"."""
    lang = export_lang(ex.heading_lang)
    words = EXPORT[lang]
    st = styles(pc.font, colors.black, 10)
    name = st["name"].clone("lo-name", fontSize=22, leading=27)
    muted = st["body"].clone("lo-muted", fontSize=9.5, leading=12.5, textColor=GREY)
    heading = st["bold"].clone("lo-heading", fontSize=13, leading=17, spaceBefore=12, spaceAfter=1)

    story: list[Flowable] = [para(pc.name, name)]
    if pc.headline:
        story.append(para(pc.headline, st["body"].clone("lo-headline", fontSize=11.5, leading=15)))
    emails = [v for _, v in pc.contact if contact_kind(v) == "email"]
    story += [para(e, muted) for e in emails]

    def section(key: str) -> None:
        story.append(CondPageBreak(2.2 * cm))
        story.append(para(words[key], heading))
        story.append(HRFlowable(width="100%", thickness=0.5, color=RULE, spaceAfter=4))

    if pc.summary:
        section("summary")
        story.append(para(pc.summary, st["body"]))
    section("experience")
    for role, exp in newest_first_roles(pc, ex):
        head = [
            Spacer(1, 4),
            rich(title_at_company(role.title, role.company, lang), st["body"]),
            para(export_period(exp.start, exp.end, exp.is_current, lang, ex.as_of), muted),
        ]
        if role.location:
            head.append(para(role.location, muted))
        body = [para(b, st["body"]) for b in role.bullets]
        story.append(KeepTogether(head + body[:1]))
        story += body[1:]
    section("education")
    for printed, truth in newest_first_education(pc, ex):
        line = old_degree_line(printed.degree, truth.field, truth.start, truth.end, lang)
        story.append(KeepTogether([Spacer(1, 3), para(printed.institution, st["bold"]), para(line, muted)]))
    section("old_skills")
    story += [para(s, st["body"]) for s in pc.skills]
    if ex.spoken:
        section("languages")
        story += [para(x, st["body"]) for x in spoken_lines(ex, lang)]
    if pc.certifications:
        section("certifications")
        story += [para(c, st["body"]) for c in pc.certifications]
    first = pc.name.split()[0] if pc.name else ""
    story += [Spacer(1, 18), para(words["old_contact"].format(first=first), muted)]
    return story, single_frame_pages(), footer(pc.font, lang, "old_page")
