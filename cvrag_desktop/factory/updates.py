"""The "same person, newer CV" hard case: extend an earlier CV's history to a later date.

The newer version keeps the identity (name, e-mail, person_id), the education and the
older roles word for word; it either closes the current role and adds a new one or keeps
the current role, and it learns a skill or two. The summary is rewritten by the prose
stage because the years of experience changed.
"""

from __future__ import annotations

import random

from cvrag_desktop.factory.builder import employer_name, gendered, seeded_faker
from cvrag_desktop.factory.dates import month_index, month_iso, precision_of, truncate
from cvrag_desktop.factory.model import CVDraft, CVSpec
from cvrag_desktop.factory.profiles import TIERS, FactoryData, factory_data


def partial_to_index(partial: str, *, end: bool = False) -> int:
    """A partial ISO date as a running month number (year-only: January, or December for ends)."""
    year = int(partial[:4])
    month = int(partial[5:7]) if len(partial) >= 7 else (12 if end else 1)
    return year * 12 + month - 1


def build_updated_cv(spec: CVSpec, older: CVDraft, data: FactoryData | None = None) -> CVDraft:
    """A newer version of ``older`` dated ``spec.as_of`` (which is later than ``older``'s)."""
    data = data or factory_data()
    rng = random.Random(spec.rng_key)
    fake = seeded_faker(spec.locale, rng.getrandbits(32))
    profile = data.profile(older.profile_id)
    pack = data.languages[older.hints.lang]
    then, now = month_index(older.spec.as_of), month_index(spec.as_of)
    exps = [e.model_copy() for e in older.cv.experiences]
    styles = list(older.hints.role_styles)
    last = exps[-1]
    tier = older.tier
    if last.is_current and rng.random() < 0.4:
        pass  # still in the same job; the new summary and skills tell the difference
    else:
        style = styles[-1]
        precision = precision_of(style.style)
        floor = partial_to_index(last.start or month_iso(then), end=True) + 1
        if last.is_current:
            close = rng.randint(max(floor, then), max(floor, now - 2))
            exps[-1] = last.model_copy(
                update={"end": truncate(month_iso(close), precision), "is_current": False}
            )
        else:
            close = partial_to_index(last.end or month_iso(then), end=True)
        start = min(now - 1, close + rng.choice((0, 1, 1, 2)))
        t_idx = min(len(TIERS) - 1, TIERS.index(tier) + (rng.random() < 0.4))  # type: ignore[arg-type]
        tier = TIERS[t_idx]
        female = older.cv.name is not None and _looks_female(older)
        options = (
            profile.title_options(tier, older.hints.lang) if rng.random() < 0.5 else profile.titles[tier]
        )
        exps.append(
            last.model_copy(
                update={
                    "title": gendered(rng.choice(options), female),
                    "company": employer_name(fake, rng, profile.employer_kind, pack),
                    "location": fake.city() if rng.random() < 0.4 else None,
                    "start": month_iso(start, precision),
                    "end": None,
                    "is_current": True,
                    "bullets": [],
                }
            )
        )
        styles.append(style)
    have = set(older.cv.skills)
    fresh = [s for s in profile.skills if s.label(older.hints.lang) not in have]
    rng.shuffle(fresh)
    skills = older.cv.skills + [s.label(older.hints.lang) for s in fresh[: rng.randint(1, 2)]]
    cv = older.cv.model_copy(
        update={
            "experiences": exps,
            "skills": skills,
            "headline": exps[-1].title if older.cv.headline else None,
            "summary": None,
        }
    )
    hints = older.hints.model_copy(update={"role_styles": styles})
    return CVDraft(
        spec=spec,
        profile_id=older.profile_id,
        tier=tier,
        cv=cv,
        hints=hints,
        hard_cases=list(spec.hard_cases),
        related_to=older.spec.cv_id,
    )


def _looks_female(draft: CVDraft) -> bool:
    """Reuse the grammatical gender the older CV's titles were written in."""
    last = draft.cv.experiences[-1].title or ""
    profile = factory_data().profile(draft.profile_id)
    for tiers in profile.titles_l10n.values():
        for options in tiers.values():
            for opt in options:
                if "|" in opt and opt.split("|", 1)[1] == last:
                    return True
    return False
