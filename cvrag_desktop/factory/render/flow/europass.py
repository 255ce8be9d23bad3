"""``europass`` layout: the classic Europass CV (2004–2012 template).

Right-aligned labels in a left column ("Dates", "Occupation or position held", "Name and
address of employer", "Title of qualification awarded", "Mother tongue(s)", "Other
language(s)") and the values in the right column; other languages as a CEFR
self-assessment grid (Understanding / Speaking / Writing with levels such as B2, C1).
Labels follow the official translation of the CV's heading language.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.units import cm
from reportlab.platypus import Flowable, PageTemplate, Spacer, Table

from cvrag_desktop.factory.render.base.common import PrintedCV, bullets, para, photo_flowable, styles, tstyle
from cvrag_desktop.factory.render.base.extras import Extras, cefr_grid_levels, single_frame_pages
from cvrag_desktop.factory.render.base.wording import EUROPASS

WIDTH = 17 * cm
LABEL = 6.0 * cm
GREY = colors.Color(0.6, 0.6, 0.6)


def contact_kind(value: str) -> str:
    """Which Europass row a contact value belongs to: email, web, phone or address."""
    if "@" in value:
        return "email"
    if "/" in value or value.startswith("www."):
        return "web"
    if sum(c.isdigit() for c in value) >= 6:
        return "phone"
    return "address"


def _rows_table(rows: list[list], font: str) -> Table:
    t = Table(rows, colWidths=[LABEL, WIDTH - LABEL])
    t.setStyle(
        tstyle(
            font,
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("ALIGN", (0, 0), (0, -1), "RIGHT"),
                ("LINEAFTER", (0, 0), (0, -1), 0.5, GREY),
                ("LEFTPADDING", (1, 0), (1, -1), 8),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ],
        )
    )
    return t


def language_grid(pc: PrintedCV, ex: Extras, lab: dict[str, str]) -> Table | None:
    """The CEFR self-assessment grid of the non-native languages (None when there are none).

    Full width like the template: row labels and language names in the label column, the
    five levels (listening, reading, interaction, production, writing) across the values.
    """
    st = styles(pc.font, pc.accent, pc.size - 1.5)
    others = [sp for sp in ex.spoken if sp.key != "native"]
    if not others:
        return None
    right = st["right"]
    head1 = [para(lab["self"], right), para(lab["understanding"], st["bold"]), ""]
    head1 += [para(lab["speaking"], st["bold"]), "", para(lab["writing"], st["bold"])]
    head2 = [para(lab["level"], right)]
    head2 += [para(lab[k], st["small"]) for k in ("listening", "reading", "interaction", "production")] + [""]
    rows = [head1, head2]
    for sp in others:
        rows.append([para(sp.name, st["bold"].clone("ep-lang", alignment=2))])
        rows[-1] += [para(v, st["body"]) for v in cefr_grid_levels(sp, ex.rng)]
    t = Table(rows, colWidths=[LABEL] + [(WIDTH - LABEL) / 5] * 5)
    t.setStyle(
        tstyle(
            pc.font,
            [
                ("GRID", (1, 0), (-1, -1), 0.4, GREY),
                ("LINEAFTER", (0, 0), (0, -1), 0.5, GREY),
                ("SPAN", (1, 0), (2, 0)),
                ("SPAN", (3, 0), (4, 0)),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ],
        )
    )
    return t


def europass(pc: PrintedCV, ex: Extras) -> tuple[list[Flowable], list[PageTemplate]]:
    """Label/value rows section by section, in the Europass order."""
    st = styles(pc.font, pc.accent, pc.size)
    lab = EUROPASS.get(ex.heading_lang, EUROPASS["en"])
    label = st["right"].clone(
        "ep-label",
        fontSize=pc.size - 1,
        leading=(pc.size - 1) * 1.25,
        textColor=colors.Color(0.25, 0.25, 0.25),
    )
    section = st["heading_right"]
    story: list[Flowable] = [
        _rows_table(
            [
                [para("Europass", section), photo_flowable(pc.photo, 2.6 * cm) or ""],
                [para("Curriculum Vitae", label), ""],
            ],
            pc.font,
        ),
        Spacer(1, 6),
    ]
    rows: list[list] = [
        [para(lab["personal"], section), ""],
        [para(lab["name"], label), para(ex.display_name, st["bold"])],
    ]
    for _, value in pc.contact:
        rows.append([para(lab[contact_kind(value)], label), para(value, st["body"])])
    if pc.headline:
        rows += [[para(lab["desired"], section), para(pc.headline, st["bold"])]]
    story += [_rows_table(rows, pc.font), Spacer(1, 8)]

    rows = [[para(lab["work"], section), ""]]
    for role in pc.roles:
        rows += [
            [para(lab["dates"], label), para(role.period, st["body"])],
            [para(lab["position"], label), para(role.title, st["bold"])],
        ]
        if role.bullets:
            rows.append([para(lab["activities"], label), bullets(role.bullets, st["bullet"])])
        employer = ", ".join(x for x in (role.company, role.location) if x)
        rows += [[para(lab["employer"], label), para(employer, st["body"])], ["", Spacer(1, 5)]]
    story += [_rows_table(rows, pc.font), Spacer(1, 6)]

    rows = [[para(lab["education"], section), ""]]
    for ed in pc.education:
        rows += [
            [para(lab["dates"], label), para(ed.period, st["body"])],
            [para(lab["qualification"], label), para(ed.degree, st["bold"])],
            [para(lab["organisation"], label), para(ed.institution, st["body"])],
            ["", Spacer(1, 5)],
        ]
    story += [_rows_table(rows, pc.font), Spacer(1, 6)]

    rows = [[para(lab["personal_skills"], section), ""]]
    native = [sp.name for sp in ex.spoken if sp.key == "native"]
    if native:
        rows.append([para(lab["mother"], label), para(", ".join(native), st["bold"])])
    grid = language_grid(pc, ex, lab)
    if grid is not None:
        rows.append(
            [
                para(lab["other"], label),
                para(", ".join(sp.name for sp in ex.spoken if sp.key != "native"), st["body"]),
            ]
        )
        story += [_rows_table(rows, pc.font), grid]
        rows = []
    rows.append([para(lab["technical"], label), para(", ".join(pc.skills), st["body"])])
    if pc.certifications:
        rows.append([para(lab["certs"], label), [para(c, st["body"]) for c in pc.certifications]])
    story.append(_rows_table(rows, pc.font))
    return story, single_frame_pages()
