"""``oneline`` layout: a Word CV whose roles are one line each, bullets below.

A role reads "Title, Employer, City — Jan 2019–Mar 2022" or, one choice per CV, has the
period pushed to the right margin by a tab on the same text line (drawn as one line
with a wide gap, as Word prints a right-aligned tab stop). When an employer's own name
holds a comma, the CV separates the parts with " | " instead, as a careful writer would.
Months print as the language's short names only where the ground truth knows them.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.units import cm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import CondPageBreak, Flowable, HRFlowable, KeepTogether, PageTemplate, Spacer

from cvrag_desktop.factory.dates import format_period
from cvrag_desktop.factory.profiles import factory_data
from cvrag_desktop.factory.render.base.common import PrintedCV, bullets, para, rich, styles
from cvrag_desktop.factory.render.base.extras import Extras, beside_photo, single_frame_pages
from cvrag_desktop.factory.render.base.fonts import register_font

WIDTH = 17 * cm


class TabLine(Flowable):
    """One text line: bold lead and plain rest on the left, the period flush right."""

    def __init__(self, lead: str, rest: str, right: str, font: str, size: float) -> None:
        super().__init__()
        self.lead, self.rest, self.right, self.font = lead, rest, right, font
        self.size = size

    def _fits(self, width: float, size: float) -> bool:
        regular, bold = register_font(self.font)[:2]
        used = stringWidth(self.lead, bold, size) + stringWidth(self.rest, regular, size)
        return used + stringWidth(self.right, regular, size) + 18 <= width

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        """Shrink the type until the line and its period fit one line."""
        while self.size > 6.5 and not self._fits(avail_width, self.size):
            self.size -= 0.25
        self.width = avail_width
        return avail_width, self.size * 1.35

    def draw(self) -> None:
        """Draw the three parts on one baseline."""
        regular, bold = register_font(self.font)[:2]
        c, y = self.canv, self.size * 0.3
        c.setFont(bold, self.size)
        c.drawString(0, y, self.lead)
        c.setFont(regular, self.size)
        c.drawString(stringWidth(self.lead, bold, self.size), y, self.rest)
        c.drawRightString(self.width, y, self.right)


def compact_period(start: str | None, end: str | None, is_current: bool, lang: str, present: str) -> str:
    """ "Jan 2019–Mar 2022", "2016–2019", "Sep 2020–Present" (months only where known)."""
    return format_period(start or None, end or None, is_current=is_current, style="mon_year",
                         pack=factory_data().languages[lang], present=present, sep="–")


def oneline(pc: PrintedCV, ex: Extras) -> tuple[list[Flowable], list[PageTemplate]]:
    """Name, contact line, then sections whose entries open with a single line."""
    rng = ex.rng
    st = styles(pc.font, colors.black, pc.size)
    tabbed = rng.random() < 0.5
    sep = rng.choice((", ", ", ", " | "))
    if sep == ", " and any("," in f"{r.title}{r.company}{r.location}" for r in pc.roles):
        sep = " | "
    present = rng.choice(factory_data().languages[ex.lang].present)
    story: list[Flowable] = [para(pc.name, st["name"].clone("ol-name", textColor=colors.black))]
    if pc.headline:
        story.append(para(pc.headline, st["body"]))
    story.append(para("  •  ".join(v for _, v in pc.contact), st["body"]))
    story = beside_photo(story, pc.photo, WIDTH, pc.font)
    heading = st["bold"].clone("ol-head", fontSize=pc.size * 1.2, leading=pc.size * 1.6, spaceBefore=pc.size)

    def section(key: str) -> None:
        story.append(CondPageBreak(2.2 * cm))
        story.append(para(pc.headings[key], heading))
        story.append(HRFlowable(width="100%", thickness=0.8, color=colors.black, spaceAfter=4))

    if pc.summary:
        section("summary")
        story.append(para(pc.summary, st["body"]))
    section("experience")
    for role, exp in zip(pc.roles, ex.experiences, strict=True):
        period = compact_period(exp.start, exp.end, exp.is_current, ex.lang, present)
        rest = "".join(f"{sep}{x}" for x in (role.company, role.location) if x)
        if tabbed:
            line: Flowable = TabLine(role.title, rest, period, pc.font, pc.size)
        else:
            line = rich([("b", role.title), ("", rest), ("", f" — {period}")], st["body"])
        story.append(KeepTogether([Spacer(1, 4), line, *bullets(role.bullets[:1], st["bullet"])]))
        story += bullets(role.bullets[1:], st["bullet"])
    section("education")
    edu_sep = " | " if sep == ", " and any("," in e.degree + e.institution for e in pc.education) else sep
    for printed, truth in zip(pc.education, ex.educations, strict=True):
        period = compact_period(truth.start, truth.end, False, ex.lang, present)
        rest = f"{edu_sep}{printed.institution}"
        if tabbed:
            story.append(TabLine(printed.degree, rest, period, pc.font, pc.size))
        else:
            story.append(rich([("b", printed.degree), ("", rest), ("", f" — {period}")], st["body"]))
    section("skills")
    story.append(para(", ".join(pc.skills), st["body"]))
    section("languages")
    story.append(para(", ".join(pc.languages), st["body"]))
    if pc.certifications:
        section("certifications")
        story += bullets(pc.certifications, st["bullet"])
    return story, single_frame_pages()
