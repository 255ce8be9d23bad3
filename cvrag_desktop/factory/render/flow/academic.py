"""``academic`` layout: an academic CV (education first, then appointments and outputs).

Sections: Education, Appointments (the ground-truth roles, the period in a left margin),
Publications (numbered references "[1] Surname, A., Other, B. (2021). Title. Journal,
12(3), 45–67."), Grants (funder, project, closed period, amount), Teaching (courses),
then skills, languages and certifications. References, grants and courses are invented
here and are not ground truth: none names an employer, a title or a current period, so
an extractor that reads them as jobs is wrong, not the truth.
"""

from __future__ import annotations

import random

from reportlab.lib import colors
from reportlab.lib.units import cm
from reportlab.platypus import CondPageBreak, Flowable, HRFlowable, PageTemplate, Spacer, Table

from cvrag_desktop.factory.builder import seeded_faker
from cvrag_desktop.factory.render.base.common import PrintedCV, bullets, fitted, para, rich, styles, tstyle
from cvrag_desktop.factory.render.base.extras import Extras, beside_photo, single_frame_pages

WIDTH = 17 * cm
LEFT = 2.8 * cm
FAKER_LOCALE = {
    "en": "en_GB",
    "es": "es_ES",
    "de": "de_DE",
    "fr": "fr_FR",
    "pt": "pt_BR",
    "it": "it_IT",
    "pl": "pl_PL",
    "nl": "nl_NL",
}

# fmt: off
HEADINGS: dict[str, dict[str, str]] = {
    "en": {"positions": "Academic Appointments", "publications": "Publications", "grants": "Grants and Funding",
           "teaching": "Teaching"},
    "de": {"positions": "Akademische Positionen", "publications": "Publikationen", "grants": "Drittmittel", "teaching": "Lehre"},
    "fr": {"positions": "Postes occupés", "publications": "Publications", "grants": "Financements", "teaching": "Enseignement"},
    "es": {"positions": "Puestos académicos", "publications": "Publicaciones", "grants": "Proyectos financiados",
           "teaching": "Docencia"},
    "it": {"positions": "Posizioni accademiche", "publications": "Pubblicazioni", "grants": "Finanziamenti",
           "teaching": "Attività didattica"},
    "pt": {"positions": "Cargos acadêmicos", "publications": "Publicações", "grants": "Financiamentos", "teaching": "Docência"},
    "pl": {"positions": "Stanowiska", "publications": "Publikacje", "grants": "Granty", "teaching": "Dydaktyka"},
    "nl": {"positions": "Aanstellingen", "publications": "Publicaties", "grants": "Subsidies", "teaching": "Onderwijs"},
}
FUNDERS: dict[str, list[str]] = {
    "en": ["UK Research and Innovation", "National Science Foundation", "Wellcome Trust"],
    "de": ["Deutsche Forschungsgemeinschaft (DFG)", "Bundesministerium für Bildung und Forschung"],
    "fr": ["Agence nationale de la recherche (ANR)", "Fondation pour la recherche médicale"],
    "es": ["Agencia Estatal de Investigación", "Fundación Ramón Areces"],
    "it": ["Ministero dell'Università e della Ricerca (PRIN)", "Fondazione Cariplo"],
    "pt": ["CNPq", "FAPESP"],
    "pl": ["Narodowe Centrum Nauki (NCN)", "Fundacja na rzecz Nauki Polskiej"],
    "nl": ["NWO", "ZonMw"],
}
# fmt: on
_SHARED_FUNDERS = ["European Research Council (ERC)", "Horizon Europe"]
_TOPICS = [
    "Long-term effects",
    "A comparative analysis",
    "New evidence",
    "Measurement error",
    "Scaling behaviour",
    "Regional differences",
    "A randomised study",
    "Mechanisms and outcomes",
    "Uncertainty estimates",
]
_JOURNALS = [
    "Journal of {f}",
    "European Review of {f}",
    "Annals of {f}",
    "{f} Letters",
    "Advances in {f}",
    "International Journal of {f}",
    "Scientific Reports",
    "PLOS ONE",
]
_COURSES = [
    "Introduction to {f}",
    "Research Methods in {f}",
    "Advanced Topics in {f}",
    "{f} Laboratory",
    "Statistics for {f}",
    "Seminar: Current Debates in {f}",
]


def author_list(candidate: str, rng: random.Random, lang: str) -> str:
    """ "Novak, J., Smith, A. and Ortega, L." with the candidate somewhere in the list."""
    fake = seeded_faker(FAKER_LOCALE.get(lang, "en_GB"), rng.getrandbits(32))
    parts = candidate.split()
    own = f"{parts[-1]}, {parts[0][0]}." if len(parts) > 1 else candidate
    others = [f"{fake.last_name()}, {fake.first_name()[0]}." for _ in range(rng.randint(1, 4))]
    others.insert(rng.randrange(len(others) + 1), own)
    return ", ".join(others[:-1]) + f" and {others[-1]}"


def references(pc: PrintedCV, ex: Extras, field: str, years: tuple[int, int]) -> list[str]:
    """Numbered references, newest first; journals and titles name the field, never an employer."""
    rng = ex.rng
    first, last = years
    out = []
    pubs = sorted((rng.randint(first, last) for _ in range(rng.randint(3, 7))), reverse=True)
    numbered = rng.random() < 0.5
    for i, year in enumerate(pubs, start=1):
        title = f"{rng.choice(_TOPICS)} in {field.lower()}"
        journal = rng.choice(_JOURNALS).format(f=field)
        volume, issue, page = rng.randint(3, 60), rng.randint(1, 12), rng.randint(10, 900)
        mark = f"[{i}]" if numbered else f"{i}."
        text = (
            f"{mark} {author_list(pc.name, rng, ex.lang)} ({year}). {title}. {journal}, {volume}({issue}), "
        )
        out.append(text + f"{page}–{page + rng.randint(8, 25)}.")
    return out


def grants(ex: Extras, field: str, years: tuple[int, int]) -> list[str]:
    """One to three funded projects with closed periods ("2019–2022") and amounts."""
    rng = ex.rng
    funders = FUNDERS.get(ex.lang, FUNDERS["en"]) + _SHARED_FUNDERS
    out = []
    for _ in range(rng.randint(1, 3)):
        start = rng.randint(*years)
        amount = rng.choice(("45,000", "120,000", "250,000", "1,500,000"))
        out.append(
            f"{rng.choice(funders)}: “{rng.choice(_TOPICS)} in {field.lower()}”, {start}–{start + 3}, €{amount}"
        )
    return out


def courses(ex: Extras, field: str, years: tuple[int, int]) -> list[str]:
    """Courses taught: "Introduction to Economics (lectures, 2018–2021)"."""
    rng = ex.rng
    out = []
    for name in rng.sample(_COURSES, rng.randint(2, 4)):
        start = rng.randint(*years)
        out.append(
            f"{name.format(f=field)} ({rng.choice(('lectures', 'seminar', 'tutorials'))}, {start}–{start + 2})"
        )
    return out


def _rows(rows: list[list], font: str) -> Table:
    t = Table(rows, colWidths=[LEFT, WIDTH - LEFT])
    t.setStyle(
        tstyle(
            font,
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
            ],
        )
    )
    return t


def academic(pc: PrintedCV, ex: Extras) -> tuple[list[Flowable], list[PageTemplate]]:
    """Name and contact block, then the academic sections in their usual order."""
    words = HEADINGS.get(ex.heading_lang, HEADINGS["en"])
    st = styles(pc.font, colors.black, pc.size)
    heading = st["bold"].clone(
        "ac-head", fontSize=pc.size * 1.25, leading=pc.size * 1.7, textColor=pc.accent, spaceBefore=pc.size
    )
    story: list[Flowable] = [fitted(pc.name, st["name"].clone("ac-name", textColor=colors.black), WIDTH - 12)]
    if pc.headline:
        story.append(para(pc.headline, st["italic"]))
    story += [para(v, st["small"]) for _, v in pc.contact]
    story = beside_photo(story, pc.photo, WIDTH, pc.font)
    field = next((e.field for e in ex.educations if e.field), "") or "Science"
    starts = [int(e.start[:4]) for e in ex.experiences if e.start]
    span = (min(starts, default=ex.as_of.year - 5), ex.as_of.year - 1)
    span = (min(span), max(span))

    def section(text: str) -> None:
        story.append(CondPageBreak(2.2 * cm))
        story.append(para(text, heading))
        story.append(HRFlowable(width="100%", thickness=0.5, color=colors.grey, spaceAfter=3))

    if pc.summary:
        section(pc.headings["summary"])
        story.append(para(pc.summary, st["body"]))
    section(pc.headings["education"])
    story.append(
        _rows(
            [
                [
                    para(e.period, st["body"]),
                    [rich([("b", e.degree)], st["body"]), para(e.institution, st["italic"])],
                ]
                for e in pc.education
            ],
            pc.font,
        )
    )
    section(words["positions"] if ex.rng.random() < 0.6 else pc.headings["experience"])
    for role in pc.roles:
        cell = [rich([("b", role.title), ("", ", "), ("", role.company)], st["body"])]
        if role.location:
            cell.append(para(role.location, st["italic"]))
        cell += bullets(role.bullets, st["bullet"], "–")
        story.append(_rows([[para(role.period, st["body"]), cell]], pc.font))
    section(words["publications"])
    story += [
        para(r, st["body"].clone("ac-ref", leftIndent=14, firstLineIndent=-14, spaceAfter=3))
        for r in references(pc, ex, field, span)
    ]
    section(words["grants"])
    story += bullets(grants(ex, field, span), st["bullet"])
    section(words["teaching"])
    story += bullets(courses(ex, field, span), st["bullet"])
    section(pc.headings["skills"])
    story.append(para(", ".join(pc.skills), st["body"]))
    section(pc.headings["languages"])
    story.append(para(", ".join(pc.languages), st["body"]))
    if pc.certifications:
        section(pc.headings["certifications"])
        story += bullets(pc.certifications, st["bullet"])
    story.append(Spacer(1, 4))
    return story, single_frame_pages()
