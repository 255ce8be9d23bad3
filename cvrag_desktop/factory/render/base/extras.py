"""What the real-world layout families print beyond :class:`PrintedCV`, decided per CV.

The layouts added for hard real CVs (``moderncv``, ``datecol``, ``europass``,
``timeline``, ``labelled``) need a few extra, deterministic presentation choices:
the name with a post-nominal ("Jane Doe, PhD"), periods split into a start and an end
line, spoken-language levels as CEFR codes, a one-line company description per role and
skills grouped under category labels. They are decided here from the draft with a
random generator of their own, so the ground truth (already written) and the older
layouts' PDFs never change. Nothing here adds a fact the ground truth lacks.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import cm
from reportlab.platypus import Flowable, Frame, PageTemplate, Table

from cvrag_desktop.domain import Education, Experience
from cvrag_desktop.factory.dates import format_date, format_period
from cvrag_desktop.factory.model import CVDraft
from cvrag_desktop.factory.profiles import factory_data
from cvrag_desktop.factory.render.base.common import photo_flowable, role_period, tstyle
from cvrag_desktop.factory.render.base.wording import (
    BLURBS,
    CATEGORY_LABELS,
    CEFR,
    skill_category,
)

W, H = A4


@dataclass
class Spoken:
    """One spoken language as printed: its name, the printed level and its CEFR key."""

    name: str
    level: str
    key: str  # "native", "c2" ... "a2" (or "" when the printed level is not a known word)


@dataclass
class Extras:
    """Per-CV choices of the newer layouts, in print order (newest role first unless not)."""

    rng: random.Random
    heading_lang: str
    display_name: str  # the name as printed, possibly with a post-nominal
    post_nominal: str
    split_periods: list[tuple[str, str]]  # per printed role: ("Jan 2019 –", "Mar 2022")
    numeric_periods: list[str]  # per printed role: "03/2019 – 06/2022" where the truth has months
    blurbs: list[str]  # per printed role: one-line company description, no final period
    spoken: list[Spoken]
    skill_groups: list[tuple[str, list[str]]] = field(default_factory=list)  # (label, printed skills)
    # The truth behind the printed entries, for layouts that word dates their own way
    # (LinkedIn exports, résumé builders): same order as PrintedCV.roles / .education.
    experiences: list[Experience] = field(default_factory=list)
    educations: list[Education] = field(default_factory=list)
    lang: str = "en"
    as_of: dt.date = dt.date(2026, 11, 1)
    newest_first: bool = True
    profile_id: str = ""
    reading: str = ""  # a Japanese name's hiragana reading (the 履歴書's ふりがな)


def render_rng(draft: CVDraft, layout: str) -> random.Random:
    """A generator of its own for one CV's presentation (never the builder's stream)."""
    return random.Random(f"{draft.spec.rng_key}:render:{layout}")


def post_nominal(draft: CVDraft, rng: random.Random) -> str:
    """A post-nominal the candidate has earned (PhD, MBA, MSc, CPA, PMP, RN), or ``""``.

    Only letters backed by the CV itself: a doctorate or master among the degrees, a
    certification of that name, or the nurse profile. About a third of eligible CVs print one.
    """
    earned: list[str] = []
    for ed in draft.cv.education:
        deg = (ed.degree or "").lower()
        if deg.startswith(("phd", "doctorado", "promotion", "dr.", "doctorat", "dottorato", "doutorado")):
            earned.append("PhD")
        elif deg.startswith("mba"):
            earned.append("MBA")
        elif deg.startswith(("msc", "m.sc.")):
            earned.append("MSc")
    earned += [c for c in draft.cv.certifications if c in ("CPA", "PMP", "ACCA")]
    if draft.profile_id == "nurse":
        earned.append("RN")
    if not earned or rng.random() > 0.35:
        return ""
    return rng.choice(earned)


def name_with_post_nominal(name: str, letters: str, rng: random.Random) -> str:
    """ "Jane Doe, PhD" or "Jane Doe PhD" (the name alone when there are no letters)."""
    if not letters or not name:  # an anonymous CV prints no name, so no letters after it
        return name
    return f"{name}{rng.choice((', ', ', ', ' '))}{letters}"


def _spoken(draft: CVDraft) -> list[Spoken]:
    """Spoken languages with the level word read back from the printed line."""
    pack = factory_data().languages[draft.hints.lang]
    out = []
    for canonical, line in zip(draft.cv.languages, draft.hints.spoken, strict=False):
        name = pack.language_names.get(canonical, canonical)
        level = line[len(name) :].strip(" ():–-") if line.startswith(name) else ""
        key = next((k for k, words in pack.levels.items() if level in words), "")
        out.append(Spoken(name, level, key))
    return out


def _periods(draft: CVDraft) -> tuple[list[tuple[str, str]], list[str]]:
    """Each role's period split in two lines, and printed as MM/YYYY where the truth has months."""
    hints = draft.hints
    pack = factory_data().languages[hints.lang]
    split, numeric = [], []
    for exp, style in zip(draft.cv.experiences, hints.role_styles, strict=True):
        full = role_period(exp, style, pack, hints.present)
        first = format_date(exp.start, style.style, pack) if exp.start else ""
        rest = full[len(first) :] if full.startswith(first) else ""
        sep = style.sep.strip() or "–"
        if first and rest.strip().startswith(sep):
            split.append((f"{first} {sep}", rest.strip()[len(sep) :].strip()))
        else:  # "Since 2020", or a period whose start and end print the same
            split.append((full, ""))
        month_style = "mm_yyyy" if exp.start and len(exp.start) == 7 else "year"
        numeric.append(
            format_period(
                exp.start,
                exp.end,
                is_current=exp.is_current,
                style=month_style,
                pack=pack,
                present=hints.present,
            )
        )
    if hints.newest_first:
        split.reverse()
        numeric.reverse()
    return split, numeric


def _blurbs(draft: CVDraft, rng: random.Random) -> list[str]:
    """A one-line description of each employer (industry, size), without a final period."""
    data = factory_data()
    profile = data.profile(draft.profile_id)
    lang = draft.hints.lang if draft.hints.lang in BLURBS else "en"
    kind = profile.employer_kind
    out = []
    for _ in draft.cv.experiences:
        industry = data.industry_label(rng.choice(profile.industries), lang)
        pattern = rng.choice(BLURBS[lang].get(kind) or BLURBS[lang]["company"])
        size = rng.choice(("40", "120", "300", "850", "2,500", "12,000"))
        text = pattern.format(industry=industry, n=size)
        out.append(text[0].upper() + text[1:])
    if draft.hints.newest_first:
        out.reverse()
    return out


def _skill_groups(draft: CVDraft) -> list[tuple[str, list[str]]]:
    """Skills grouped as ("Languages", ["Python", "Go"]) in the CV's heading language."""
    lang = draft.hints.heading_lang if draft.hints.heading_lang in CATEGORY_LABELS else "en"
    labels = CATEGORY_LABELS[lang]
    groups: dict[str, list[str]] = {}
    for skill in draft.cv.skills:
        groups.setdefault(skill_category(skill), []).append(draft.hints.skill_label(skill))
    return [(labels[key], groups[key]) for key in labels if key in groups]


def build_extras(draft: CVDraft, layout: str) -> Extras:
    """Every extra choice for one CV in one layout (deterministic for a given draft)."""
    rng = render_rng(draft, layout)
    letters = post_nominal(draft, rng)
    split, numeric = _periods(draft)
    return Extras(
        rng=rng,
        heading_lang=draft.hints.heading_lang,
        display_name=name_with_post_nominal(draft.cv.name or "", letters, rng),
        post_nominal=letters,
        split_periods=split,
        numeric_periods=numeric,
        blurbs=_blurbs(draft, rng),
        spoken=_spoken(draft),
        skill_groups=_skill_groups(draft),
        experiences=ordered(draft.cv.experiences, draft.hints.newest_first),
        educations=ordered(draft.cv.education, draft.hints.newest_first),
        lang=draft.hints.lang,
        as_of=draft.spec.as_of,
        newest_first=draft.hints.newest_first,
        profile_id=draft.profile_id,
        reading=draft.hints.reading,
    )


def ordered(items: list, newest_first: bool) -> list:
    """Ground-truth entries (oldest first) in print order."""
    return list(reversed(items)) if newest_first else list(items)


def cefr_grid_levels(sp: Spoken, rng: random.Random) -> list[str]:
    """Five self-assessed CEFR levels (listening, reading, interaction, production, writing)."""
    base = sp.key if sp.key in CEFR else "b1"
    i = CEFR.index(base)
    return [CEFR[max(0, min(len(CEFR) - 1, i + rng.choice((0, 0, 0, -1, 1))))].upper() for _ in range(5)]


def two_column_pages(
    *, side_left: bool, side_w: float, top: float, on_first=None, on_later=None
) -> list[PageTemplate]:
    """First page: a side column and a main column starting on the same band ``top`` below
    the page's top edge (side first in story order); later pages: the main column alone."""
    margin, gap = 1.6 * cm, 0.7 * cm
    main_w = W - 2 * margin - side_w - gap
    side_x = margin if side_left else W - margin - side_w
    main_x = margin + side_w + gap if side_left else margin
    height = H - top - margin
    side = Frame(side_x, margin, side_w, height, id="side")
    main = Frame(main_x, margin, main_w, height, id="main")
    later = Frame(main_x, margin, main_w, H - 2 * margin, id="later")
    first_kw = {"onPage": on_first} if on_first else {}
    later_kw = {"onPage": on_later} if on_later else {}
    return [
        PageTemplate(id="first", frames=[side, main], **first_kw),
        PageTemplate(id="later", frames=[later], **later_kw),
    ]


def beside_photo(head: list[Flowable], photo: bytes | None, width: float, font: str) -> list[Flowable]:
    """The header flowables with the profile image to their right (unchanged without one)."""
    image = photo_flowable(photo, 2.6 * cm)
    if image is None:
        return head
    t = Table([[head, image]], colWidths=[width - 3 * cm, 3 * cm])
    t.setStyle(tstyle(font, [("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0)]))
    return [t]


def single_frame_pages(on_page=None) -> list[PageTemplate]:
    """One A4 frame with the older layouts' margins (2 cm sides, 1.8 cm top and bottom)."""
    frame = Frame(2 * cm, 1.8 * cm, W - 4 * cm, H - 3.6 * cm, id="body")
    if on_page is None:
        return [PageTemplate(id="body", frames=[frame])]
    return [PageTemplate(id="body", frames=[frame], onPage=on_page)]
