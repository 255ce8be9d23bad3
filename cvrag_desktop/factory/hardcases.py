"""Hard cases that make synthetic CVs as awkward as real ones.

Planned per batch (which CV gets which twist) and applied by the builder:

* ``synonyms`` – skills printed as "K8s", "Postgres"; the ground truth keeps the canonical name.
* ``foreign_headings`` – section headings in another language than the body.
* ``mixed_dates`` – each role printed in its own date style ("03/2019", "March 2019", "2019–present", "seit 2020").
* ``shared_employer`` – employers drawn from a small pool shared by several candidates.
* ``near_duplicate_name`` – a different person whose name nearly repeats an earlier one.
* ``updated_cv`` / ``outdated_cv`` – the same person twice: an older CV and a newer one.
* ``anonymous`` – a blind CV: no name, e-mail, phone or links printed (the truth name is ``""``).
* ``placeholders`` – template text left in ("Your Name", "[Job Title]", "City, Country", "Lorem ipsum");
  printed only, never in the truth (``render/base/placeholders.py``).

The last two are off by default (rate 0): a batch planned without them is exactly what it was before
they existed. The zoo turns them on for its newer families only.
"""

from __future__ import annotations

import datetime as dt
import random
import unicodedata

from pydantic import BaseModel, ConfigDict, Field

from cvrag_desktop.domain import NormalizedCV
from cvrag_desktop.factory.dates import DATE_STYLES
from cvrag_desktop.factory.model import CVSpec, DateStyle

HARD_CASES: tuple[str, ...] = (
    "synonyms",
    "foreign_headings",
    "mixed_dates",
    "shared_employer",
    "near_duplicate_name",
    "updated_cv",
)


class HardCaseConfig(BaseModel):
    """Probability of each hard case per CV (0 disables it)."""

    model_config = ConfigDict(extra="forbid")

    synonyms: float = Field(default=0.35, ge=0, le=1)
    foreign_headings: float = Field(default=0.12, ge=0, le=1)
    mixed_dates: float = Field(default=0.2, ge=0, le=1)
    shared_employer: float = Field(default=0.3, ge=0, le=1)
    near_duplicate_name: float = Field(default=0.06, ge=0, le=1)
    updated_cv: float = Field(default=0.06, ge=0, le=1)
    anonymous: float = Field(default=0.0, ge=0, le=1)
    placeholders: float = Field(default=0.0, ge=0, le=1)

    @classmethod
    def off(cls) -> HardCaseConfig:
        """A configuration with every hard case disabled."""
        return cls(**dict.fromkeys(HARD_CASES, 0.0))


def plan_hard_cases(specs: list[CVSpec], seed: int, config: HardCaseConfig) -> None:
    """Decide, in place, which CVs of a batch get which hard case.

    Pairs (updated CV, near-duplicate name) always point back to an earlier, plain CV, so
    the batch is generated in order and each CV's reference already exists. The older
    version of an updated CV is moved back in time (its ``as_of``) by 6–24 months.
    """
    rng = random.Random(f"hardcases:{seed}")
    taken: set[int] = set()  # CVs already part of a pair
    for spec in specs:
        for case in ("synonyms", "foreign_headings", "mixed_dates", "shared_employer"):
            if rng.random() < getattr(config, case):
                spec.hard_cases.append(case)
    for spec in specs[1:]:
        earlier = [s for s in specs[: spec.index] if s.index not in taken]
        if not earlier or spec.index in taken:
            continue
        roll = rng.random()
        if roll < config.updated_cv:
            ref = rng.choice(earlier)
            spec.update_of = ref.index
            spec.person_id = ref.person_id
            spec.profile_id = ref.profile_id
            spec.locale = ref.locale
            spec.hard_cases.append("updated_cv")
            ref.hard_cases.append("outdated_cv")
            ref.as_of = _months_back(spec.as_of, rng.randint(6, 24))
            taken.update({ref.index, spec.index})
        elif roll < config.updated_cv + config.near_duplicate_name:
            ref = rng.choice(earlier)
            spec.name_like = ref.index
            spec.locale = ref.locale
            spec.hard_cases.append("near_duplicate_name")
            taken.update({ref.index, spec.index})
    if config.anonymous or config.placeholders:  # a stream of its own: the draws above stay as they were
        extra = random.Random(f"hardcases:template:{seed}")
        for spec in specs:
            if extra.random() < config.anonymous and spec.name_like is None:
                spec.hard_cases.append("anonymous")
            if extra.random() < config.placeholders:
                spec.hard_cases.append("placeholders")


def anonymised(cv: NormalizedCV) -> NormalizedCV:
    """The blind version of a CV: no name, e-mail, phone or profile links (the rest unchanged)."""
    return cv.model_copy(update={"name": "", "emails": [], "phones": [], "links": []})


def _months_back(d: dt.date, months: int) -> dt.date:
    idx = d.year * 12 + d.month - 1 - months
    return dt.date(idx // 12, idx % 12 + 1, 1)


def choose_skill_display(
    skills: list[str], synonyms: dict[str, list[str]], rng: random.Random
) -> dict[str, str]:
    """Pick a printed synonym for about half of the skills that have one."""
    out: dict[str, str] = {}
    for skill in skills:
        options = synonyms.get(skill)
        if options and rng.random() < 0.5:
            out[skill] = rng.choice(options)
    return out


def strip_accents(text: str) -> str:
    """ "José Núñez" -> "Jose Nunez" (as people type their name on a US keyboard)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def near_duplicate_name(name: str, new_surname: str, rng: random.Random) -> str:
    """A name that a careless merge would confuse with ``name`` but is someone else's.

    Variants: accents dropped, first name shortened to an initial, the second surname
    replaced, or the first name kept with a different surname.
    """
    parts = name.split()
    variants: list[str] = []
    if strip_accents(name) != name:
        variants.append(strip_accents(name))
    if len(parts) >= 3:
        variants.append(" ".join([*parts[:-1], new_surname]))
    if len(parts) >= 2:
        variants.append(f"{parts[0][0]}. {' '.join(parts[1:])}")
        variants.append(" ".join([parts[0], new_surname, *parts[2:]]))
    variants = [v for v in variants if v != name] or [f"{name} {new_surname}"]
    return rng.choice(variants)


def varied_date_styles(
    n: int, rng: random.Random, *, lang: str, present_words: list[str], seps: list[str] | None = None
) -> tuple[list[DateStyle], str]:
    """One independently chosen style per role (the ``mixed_dates`` hard case); ``seps`` are the
    language's own separators when it has some."""
    seps = list(seps or []) or [" – ", " - ", "–", "-", " — "] + ([" to "] if lang == "en" else [])
    styles = []
    for _ in range(n):
        sep = rng.choice(seps)
        styles.append(DateStyle(style=rng.choice(DATE_STYLES), sep=sep, since_form=rng.random() < 0.4))
    return styles, rng.choice(present_words)
