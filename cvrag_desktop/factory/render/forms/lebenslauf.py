"""``lebenslauf`` layout: the German tabular Lebenslauf.

"Lebenslauf" over a "Persönliche Daten" block of label/value rows (Name, Anschrift, Telefon, E-Mail,
Geburtsdatum, Staatsangehörigkeit, sometimes Familienstand), then "Beruflicher Werdegang" and
"Ausbildung" as rows with the period in a left column ("04/2019 – heute", month precision where the
truth has months) and title, employer and bullets on the right; "Kenntnisse" as label/value rows
(EDV-Kenntnisse, Sprachen, Zertifikate); and the place and date above a signature line. Street,
postcode, birth date, nationality and marital status are presentation only (a generator of their own),
never a fact of the truth; the headings are the form's own German ones.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.units import cm
from reportlab.platypus import Flowable, PageTemplate, Spacer, Table

from cvrag_desktop.factory.render.base.common import PrintedCV, bullets, para, rich, styles, tstyle
from cvrag_desktop.factory.render.base.extras import Extras, beside_photo, single_frame_pages

WIDTH = 17 * cm
LEFT = 4.8 * cm
STREETS = ("Hauptstraße", "Bahnhofstraße", "Gartenweg", "Schillerstraße", "Lindenallee", "Am Markt",
           "Goethestraße", "Kirchplatz")
NATIONALITY = ("deutsch", "deutsch", "deutsch", "österreichisch", "deutsch, polnisch")
MARITAL = ("ledig", "verheiratet", "verheiratet, zwei Kinder")


def _rows(rows: list[list], font: str, rule: colors.Color | None = None, width: float = WIDTH) -> Table:
    t = Table(rows, colWidths=[LEFT, width - LEFT])
    cmds: list = [("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                  ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 3)]
    if rule is not None:
        cmds.append(("LINEBELOW", (0, 0), (-1, -2), 0.3, rule))
    t.setStyle(tstyle(font, cmds))
    return t


def _personal(pc: PrintedCV, ex: Extras) -> list[tuple[str, str]]:
    rng = ex.rng
    values = {label: value for label, value in pc.contact}
    email = next((v for v in values.values() if "@" in v), "")
    phone = next((v for v in values.values() if sum(c.isdigit() for c in v) >= 6 and "@" not in v), "")
    place = next((v for v in values.values() if v not in (email, phone) and "/" not in v and "." not in v), "")
    rows = [("Name", pc.name)]
    if place:
        rows.append(("Anschrift", f"{rng.choice(STREETS)} {rng.randint(1, 120)}, {rng.randint(10000, 99999)} {place}"))
    rows += [("Telefon", phone), ("E-Mail", email)]
    years = [int(e.start[:4]) for e in ex.educations if e.start]
    born = (min(years) if years else ex.as_of.year - 30) - rng.choice((19, 20, 20, 21))
    rows.append(("Geburtsdatum", f"{rng.randint(1, 28):02d}.{rng.randint(1, 12):02d}.{born}"))
    rows.append(("Staatsangehörigkeit", rng.choice(NATIONALITY)))
    if rng.random() < 0.5:
        rows.append(("Familienstand", rng.choice(MARITAL)))
    return [(k, v) for k, v in rows if v]


def lebenslauf(pc: PrintedCV, ex: Extras) -> tuple[list[Flowable], list[PageTemplate]]:
    """Label/value personal data, then dated rows per section, German form headings."""
    st = styles(pc.font, pc.accent, pc.size)
    rule = colors.Color(0.75, 0.75, 0.75)
    title = st["name"].clone("ll-title", textColor=pc.accent)
    story: list[Flowable] = [para("Lebenslauf", title), Spacer(1, 6)]
    label = st["bold"]
    personal = _rows([[para(k, label), para(v, st["body"])] for k, v in _personal(pc, ex)], pc.font,
                     width=WIDTH - 3 * cm if pc.photo else WIDTH)
    story += [para("Persönliche Daten", st["heading"]), *beside_photo([personal], pc.photo, WIDTH, pc.font)]
    numeric = ex.rng.random() < 0.7  # most print "04/2019 – heute"; the rest the CV's own wording
    rows = []
    for k, role in enumerate(pc.roles):
        period = ex.numeric_periods[k] if numeric else role.period
        cell: list[Flowable] = [rich([("b", role.title)], st["body"])]
        cell.append(para(", ".join(x for x in (role.company, role.location) if x), st["body"]))
        cell += bullets(role.bullets, st["bullet"])
        rows.append([para(period, st["body"]), cell])
    story += [para("Beruflicher Werdegang", st["heading"]), _rows(rows, pc.font, rule)]
    rows = [[para(ed.period, st["body"]), [rich([("b", ed.degree)], st["body"]), para(ed.institution, st["body"])]]
            for ed in pc.education]
    story += [para("Ausbildung", st["heading"]), _rows(rows, pc.font, rule)]
    known = [["EDV-Kenntnisse" if ex.profile_id.endswith(("developer", "engineer", "scientist", "sre"))
              else "Fachkenntnisse", para(", ".join(pc.skills), st["body"])],
             ["Sprachen", [para(x, st["body"]) for x in pc.languages]]]
    if pc.certifications:
        known.append(["Zertifikate", [para(x, st["body"]) for x in pc.certifications]])
    story += [para("Kenntnisse", st["heading"]),
              _rows([[para(a, label), b] for a, b in known], pc.font)]
    place = next((v for _, v in pc.contact if v and "@" not in v and "/" not in v
                  and sum(c.isdigit() for c in v) < 6), "")
    story += [Spacer(1, 18), para(f"{place}, {ex.as_of.day:02d}.{ex.as_of.month:02d}.{ex.as_of.year}".lstrip(", "),
                                  st["body"]), para("_" * 28, st["body"])]
    return story, single_frame_pages()
