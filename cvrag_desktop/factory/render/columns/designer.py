"""``designer`` layout: a two-column designer CV with a photo and contact icons.

A dark side column (left or right, one choice per CV) holds the photo (an avatar is
drawn when the CV has none), contact lines each led by an icon glyph (✉ ☎ ⌂ ♁, either
inline or in a cell of their own), skills with level bars and the spoken languages; the
main column has the name (sometimes in capitals), the headline in the accent colour and
the history. Bars and icons are decoration, not facts: the truth never mentions them.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import cm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, PageTemplate, Paragraph, Spacer, Table

from cvrag_desktop.factory.avatar import make_avatar
from cvrag_desktop.factory.render.base.common import (
    PrintedCV,
    bullets,
    column_story,
    fitted,
    para,
    photo_flowable,
    role_block,
    styles,
    tstyle,
)
from cvrag_desktop.factory.render.base.extras import Extras, two_column_pages
from cvrag_desktop.factory.render.base.fonts import register_font
from cvrag_desktop.factory.render.flow.europass import contact_kind

W, H = A4
SIDE_W = 5.4 * cm
ICONS = {"email": "✉", "phone": "☎", "address": "⌂", "web": "♁"}
ICON_FONT = "dejavu-condensed"


class LevelBar(Flowable):
    """A thin bar filled to ``level`` (0..1), the designer's way of rating a skill."""

    def __init__(self, level: float, width: float, fill: colors.Color) -> None:
        super().__init__()
        self.level, self.bar_width, self.fill = level, width, fill

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        """Fixed height; as wide as asked."""
        return self.bar_width, 6

    def draw(self) -> None:
        """The track and its filled part."""
        c = self.canv
        c.setFillColor(colors.Color(1, 1, 1, alpha=0.25))
        c.rect(0, 1, self.bar_width, 3, stroke=0, fill=1)
        c.setFillColor(self.fill)
        c.rect(0, 1, self.bar_width * self.level, 3, stroke=0, fill=1)


def icon_markup(kind: str, value: str, gap: str) -> str:
    """Paragraph markup: the icon glyph in the icon font, a gap, then the value."""
    icon_face = register_font(ICON_FONT)[0]
    return f'<font name="{icon_face}">{ICONS[kind]}</font>{gap}{escape(value)}'


def fit_style(text: str, style, width: float):
    """``style`` with its type shrunk until ``text`` fits ``width`` on one line."""
    size = style.fontSize
    while size > 5.5 and stringWidth(text, style.fontName, size) > width:
        size -= 0.25
    return (
        style
        if size == style.fontSize
        else style.clone(f"{style.name}-fit", fontSize=size, leading=size * 1.3)
    )


def _dark(c: colors.Color) -> colors.Color:
    return colors.Color(c.red * 0.55, c.green * 0.55, c.blue * 0.55)


def designer(pc: PrintedCV, ex: Extras) -> tuple[list[Flowable], list[PageTemplate]]:
    """Dark side column with photo, icons, bars; name and history in the main column."""
    rng = ex.rng
    side_left = rng.random() < 0.7
    band = _dark(pc.accent)
    st = styles(pc.font, pc.accent, pc.size)
    white = st["small"].clone("dz-white", textColor=colors.white)
    side_head = st["bold"].clone(
        "dz-side-head",
        textColor=colors.white,
        fontSize=pc.size * 1.15,
        leading=pc.size * 1.5,
        spaceBefore=10,
        spaceAfter=3,
    )
    x0 = 0 if side_left else W - SIDE_W - 2.2 * cm

    def paint(canvas, doc) -> None:
        canvas.saveState()
        canvas.setFillColor(band)
        canvas.rect(x0, 0, SIDE_W + 2.2 * cm, H, stroke=0, fill=1)
        canvas.restoreState()

    templates = two_column_pages(side_left=side_left, side_w=SIDE_W, top=1.6 * cm, on_first=paint)
    photo = pc.photo or make_avatar(pc.name or "?", rng.getrandbits(32))
    side: list[Flowable] = [photo_flowable(photo, 3.4 * cm), Spacer(1, 6)]
    side.append(para(pc.headings["contact"], side_head))
    own_cell = rng.random() < 0.4
    gap = rng.choice(("&nbsp;&nbsp;", " ", "&nbsp;"))
    for _, value in pc.contact:
        kind = contact_kind(value)
        if own_cell:
            icon = Paragraph(icon_markup(kind, "", ""), white)
            t = Table(
                [[icon, fitted(value, white, SIDE_W - 0.7 * cm - 4)]], colWidths=[0.6 * cm, SIDE_W - 0.6 * cm]
            )
            t.setStyle(
                tstyle(
                    pc.font,
                    [
                        ("LEFTPADDING", (0, 0), (-1, -1), 0),
                        ("TOPPADDING", (0, 0), (-1, -1), 1),
                        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
                        ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ],
                )
            )
            side.append(t)
        else:
            side.append(Paragraph(icon_markup(kind, value, gap), fit_style(value, white, SIDE_W - 26)))
    side.append(para(pc.headings["skills"], side_head))
    bars = rng.random() < 0.7
    for skill in pc.skills:
        side.append(para(skill, white))
        if bars:
            side.append(LevelBar(rng.choice((0.6, 0.7, 0.8, 0.9, 1.0)), SIDE_W - 0.4 * cm, colors.white))
    side.append(para(pc.headings["languages"], side_head))
    side += [para(x, white) for x in pc.languages]

    main_w = W - 3.2 * cm - SIDE_W - 0.7 * cm
    name = pc.name.upper() if rng.random() < 0.4 else pc.name
    main: list[Flowable] = [
        fitted(name, st["name"].clone("dz-name", textColor=colors.Color(0.15, 0.15, 0.15)), main_w - 12)
    ]
    if pc.headline:
        main.append(para(pc.headline, st["headline"]))
    heading = st["heading"].clone("dz-head", textColor=band)
    if pc.summary:
        main += [para(pc.headings["summary"], heading), para(pc.summary, st["body"])]
    main.append(para(pc.headings["experience"], heading))
    accent = st["small"].clone("dz-accent", textColor=pc.accent)
    for role in pc.roles:
        head = [
            Paragraph(f"<b>{escape(role.title)}</b>", st["body"]),
            para(f"{role.company}  |  {role.period}", accent),
        ]
        if role.location:
            head.append(para(role.location, st["muted"]))
        main += role_block(head, role.bullets, st["bullet"], gap=4)
    main.append(para(pc.headings["education"], heading))
    for ed in pc.education:
        main += [
            Paragraph(f"<b>{escape(ed.degree)}</b>", st["body"]),
            para(f"{ed.institution}  |  {ed.period}", accent),
        ]
    if pc.certifications:
        main.append(para(pc.headings["certifications"], heading))
        main += bullets(pc.certifications, st["bullet"], "•")
    return column_story(side, main), templates
