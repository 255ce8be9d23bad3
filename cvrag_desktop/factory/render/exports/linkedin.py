"""``linkedin`` layout: a LinkedIn profile "Save to PDF" export (the 2018+ design).

Page 1 has a narrow left sidebar ("Contact", "Top Skills", "Languages", "Certifications",
"Honors-Awards") beside the main column: the name in large type, the headline, the
location, "Summary", "Experience" grouped by employer (the employer line, its total time
when it holds several positions, then per position the title, a line such as "January
2019 - Present (3 years 2 months)" and the place) and "Education" (the school, then
"Degree, Field · (2015 - 2019)"). Every page ends with "Page 1 of 3". Positions are
always newest first, as the site prints them. Furniture follows the heading language.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.units import cm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import CondPageBreak, Flowable, FrameBreak, KeepTogether, NextPageTemplate, Spacer

from cvrag_desktop.domain import Education, Experience
from cvrag_desktop.factory.render.base.common import (
    PrintedCV,
    PrintedEducation,
    PrintedRole,
    fitted,
    para,
    styles,
)
from cvrag_desktop.factory.render.base.export_wording import (
    EXPORT,
    HONORS,
    LEVELS,
    duration_text,
    export_date,
    export_lang,
    export_period,
    months_between,
)
from cvrag_desktop.factory.render.base.extras import Extras, two_column_pages
from cvrag_desktop.factory.render.base.fonts import register_font
from cvrag_desktop.factory.render.base.pagecount import page_count_canvas
from cvrag_desktop.factory.render.flow.europass import contact_kind

SIDE_W = 6.0 * cm
GREY = colors.Color(0.45, 0.45, 0.45)
DARK = colors.Color(0.11, 0.11, 0.11)
MAIN_W = 21 * cm - 3.2 * cm - SIDE_W - 0.7 * cm  # A4 less margins, sidebar and gutter

Group = tuple[str, list[tuple[PrintedRole, Experience]]]


def newest_first_roles(pc: PrintedCV, ex: Extras) -> list[tuple[PrintedRole, Experience]]:
    """Printed roles with their truth, newest first whatever the CV's own order."""
    pairs = list(zip(pc.roles, ex.experiences, strict=True))
    return pairs if ex.newest_first else pairs[::-1]


def newest_first_education(pc: PrintedCV, ex: Extras) -> list[tuple[PrintedEducation, Education]]:
    """Printed degrees with their truth, newest first."""
    pairs = list(zip(pc.education, ex.educations, strict=True))
    return pairs if ex.newest_first else pairs[::-1]


def group_by_employer(pairs: list[tuple[PrintedRole, Experience]]) -> list[Group]:
    """Consecutive positions at one employer under one heading (the site's grouping)."""
    groups: list[Group] = []
    for role, exp in pairs:
        if groups and groups[-1][0] == role.company:
            groups[-1][1].append((role, exp))
        else:
            groups.append((role.company, [(role, exp)]))
    return groups


def group_total(group: Group, ex: Extras, lang: str) -> str:
    """The employer's total time over its positions ("5 years 1 month")."""
    newest, oldest = group[1][0][1], group[1][-1][1]
    months, with_months = months_between(
        oldest.start or "", None if newest.is_current else newest.end, ex.as_of
    )
    return duration_text(months, lang, with_months=with_months)


def degree_line(printed: PrintedEducation, truth: Education, lang: str) -> str:
    """ "Degree, Field · (2015 - 2019)"; the field is added only when the degree lacks it."""
    text = printed.degree
    if truth.field and truth.field.lower() not in text.lower():
        text = f"{text}, {truth.field}"
    if truth.start and truth.end:
        text += f" · ({export_date(truth.start, lang)} - {export_date(truth.end, lang)})"
    return text


def contact_lines(pc: PrintedCV, lang: str, mobile: bool) -> list[str]:
    """Contact values as the export prints them: "+34 600 (Mobile)", "linkedin.com/in/x (LinkedIn)"."""
    out = []
    for _, value in pc.contact:
        kind = contact_kind(value)
        if kind == "address":
            continue  # printed under the headline
        if kind == "phone" and mobile:
            value = f"{value} ({EXPORT[lang]['mobile']})"
        elif kind == "web":
            value = f"{value} ({'LinkedIn' if 'linkedin' in value else 'Portfolio'})"
        out.append(value)
    return out


def place_of(pc: PrintedCV) -> str:
    """The candidate's location (the contact entry that is not an e-mail, phone or link)."""
    return next((v for _, v in pc.contact if contact_kind(v) == "address"), "")


def spoken_lines(ex: Extras, lang: str) -> list[str]:
    """ "English (Full Professional)" lines; a level the export does not know prints bare."""
    levels = LEVELS[lang]
    return [f"{sp.name} ({levels[sp.key]})" if sp.key in levels else sp.name for sp in ex.spoken]


def footer(font: str, lang: str, key: str = "page") -> type[Canvas]:
    """A canvas class drawing the export's page footer on every page."""
    regular = register_font(font)[0]
    template = EXPORT[lang][key]

    def draw(canvas: Canvas, n: int, total: int) -> None:
        canvas.saveState()
        canvas.setFont(regular, 8.5)
        canvas.setFillColor(GREY)
        canvas.drawCentredString(canvas._pagesize[0] / 2, 0.9 * cm, template.format(n=n, total=total))
        canvas.restoreState()

    return page_count_canvas(draw)


def linkedin(pc: PrintedCV, ex: Extras) -> tuple[list[Flowable], list, type[Canvas]]:
    """Sidebar + main column on page 1, the main column alone after; "Page n of N" footers."""
    lang = export_lang(ex.heading_lang)
    words = EXPORT[lang]
    rng = ex.rng
    st = styles(pc.font, DARK, 10)
    side_head = st["bold"].clone("li-side-head", fontSize=12.5, leading=16, spaceBefore=10, spaceAfter=3)
    side_item = st["body"].clone("li-side", fontSize=9.5, leading=12.5, textColor=DARK)
    name = st["name"].clone("li-name", fontSize=24, leading=29, textColor=DARK)
    headline = st["body"].clone("li-headline", fontSize=11.5, leading=15)
    muted = st["body"].clone("li-muted", fontSize=9.5, leading=12.5, textColor=GREY)
    heading = st["body"].clone("li-heading", fontSize=15, leading=20, spaceBefore=12, spaceAfter=4)
    company = st["bold"].clone("li-company", fontSize=11.5, leading=15, spaceBefore=6)
    title = st["body"].clone("li-title", fontSize=10.5, leading=13.5)
    desc = st["body"].clone("li-desc", fontSize=9.5, leading=12.5)
    mark = rng.choice(("- ", "• ", ""))

    story: list[Flowable] = [NextPageTemplate("later")]
    story.append(para(words["contact"], side_head.clone("li-first", spaceBefore=0)))
    # one line each (the type shrinks for a long address, as the export keeps links whole)
    story += [fitted(v, side_item, SIDE_W - 14) for v in contact_lines(pc, lang, rng.random() < 0.6)]
    story.append(para(words["skills"], side_head))
    story += [para(s, side_item) for s in pc.skills]
    if ex.spoken:
        story.append(para(words["languages"], side_head))
        story += [para(x, side_item) for x in spoken_lines(ex, lang)]
    if pc.certifications:
        story.append(para(words["certifications"], side_head))
        story += [para(c, side_item) for c in pc.certifications]
    if rng.random() < 0.3:
        pool = HONORS.get(ex.lang, HONORS["en"])
        story.append(para(words["honors"], side_head))
        story += [para(h, side_item) for h in rng.sample(pool, rng.choice((1, 2)))]
    story.append(FrameBreak())

    story.append(fitted(pc.name, name, MAIN_W - 12))
    if pc.headline:
        story.append(para(pc.headline, headline))
    if place_of(pc):
        story.append(para(place_of(pc), muted))
    if pc.summary:
        story += [para(words["summary"], heading), para(pc.summary, desc)]
    story.append(para(words["experience"], heading))
    for group in group_by_employer(newest_first_roles(pc, ex)):
        head: list[Flowable] = [para(group[0], company)]
        if len(group[1]) > 1:
            head.append(para(group_total(group, ex, lang), muted))
        for i, (role, exp) in enumerate(group[1]):
            period = export_period(exp.start, exp.end, exp.is_current, lang, ex.as_of)
            block = [para(role.title, title), para(period, muted)]
            if role.location:
                block.append(para(role.location, muted))
            if mark or not role.bullets:
                text = [para(f"{mark}{b}", desc) for b in role.bullets]
            else:  # the description as one paragraph
                text = [para(" ".join(role.bullets), desc)]
            lead = [*head, Spacer(1, 3)] if i == 0 else [Spacer(1, 5)]
            story.append(KeepTogether([*lead, *block, *text[:1]]))
            story += text[1:]
    story += [CondPageBreak(2.5 * cm), para(words["education"], heading)]
    for printed, truth in newest_first_education(pc, ex):
        story.append(
            KeepTogether([para(printed.institution, company), para(degree_line(printed, truth, lang), muted)])
        )
    templates = two_column_pages(side_left=True, side_w=SIDE_W, top=1.4 * cm)
    return story, templates, footer(pc.font, lang)
