"""One function per screening rule: held degree level, spoken language, skill, years, free-text words.

Chat (the assistant's fact filters and counts), the candidate pane's facets, the search
filters and job matching all decide "holds a doctorate", "a master's or higher", "speaks
German", "5+ years", "knows Kubernetes" or "worked at Acme" with these functions (the search
index evaluates the same rules on its own payload: same keys, same whole years, same "every
word in one value"), so a count can never disagree with the filter that expresses it.

A degree the CV marks as expected (:class:`~cvrag_desktop.text.vocab.degrees.DegreeClaim`)
is never counted as held. Years are whole years (``min 5`` keeps 5.0 and more, ``max 5``
keeps fewer than 6), except the exact bounds a question can state ("more than 10 years":
10.5 passes, 10.0 does not; "at most 5 years": 5.5 does not).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from cvrag_desktop.text.keys import text_key
from cvrag_desktop.text.vocab.degrees import LEVEL_RANK, DegreeClaim
from cvrag_desktop.text.vocab.languages import language_key
from cvrag_desktop.text.vocab.skills import skill_key


def held_levels(claims: list[DegreeClaim]) -> set[str]:
    """The degree levels a person holds (expected degrees left out)."""
    return {c.level for c in claims if c.level and not c.expected}


def degree_rank(claims: list[DegreeClaim]) -> int:
    """The pane's degree rank of the highest held degree: 4 doctorate … 2 bachelor, 1 other, 0 none."""
    held = [c for c in claims if not c.expected]
    if not held:
        return 0
    return max(LEVEL_RANK[c.level] if c.level in ("bachelor", "master", "phd") else 1 for c in held)


def holds_level(claims: list[DegreeClaim], level: str, at_least: bool = False) -> bool:
    """Whether a held degree is of ``level`` (or higher with ``at_least``): the Degree facet and chat."""
    if at_least:
        return degree_rank(claims) >= LEVEL_RANK[level]
    return level in held_levels(claims)


def speaks(languages: list[str], language: str) -> bool:
    """Whether a list of spoken languages (as printed) contains ``language`` (any name or level)."""
    key = language_key(language)
    return any(language_key(x) == key for x in languages or [])


def speaks_key(language_keys: Iterable[str], language: str) -> bool:
    """Whether normalised language keys (a filter payload's) hold ``language`` (any name or level)."""
    return language_key(language) in language_keys


def has_skill(skills: list[str], skill: str) -> bool:
    """Whether a skill list holds ``skill`` (through the alias table: "k8s" = Kubernetes)."""
    key = skill_key(skill)
    return any(skill_key(s) == key for s in skills or [])


def has_skill_key(skill_keys: Iterable[str], skill: str) -> bool:
    """Whether normalised skill keys (a filter payload's) hold ``skill`` (through the alias table)."""
    return skill_key(skill) in skill_keys


def whole_years(years: float | None) -> int | None:
    """Years of experience as the whole years every years rule compares (the index stores these)."""
    return math.floor(years) if isinstance(years, int | float) else None


def years_within(years: float | None, min_years: float | None = None, max_years: float | None = None) -> bool:
    """Whole-year bounds, the index's semantics: ``min 5`` keeps 5.0+, ``max 5`` keeps fewer than 6."""
    if min_years is None and max_years is None:
        return True
    if years is None:
        return False
    whole = whole_years(years)
    return (min_years is None or whole >= min_years) and (max_years is None or whole <= max_years)


def years_pass(years: float | None, filters: dict) -> bool:
    """The exact bounds a question states (``years_more_than``, ``years_at_most``); whole-year ones are apart."""
    if filters.get("years_more_than") is not None and (years is None or years <= filters["years_more_than"]):
        return False
    return not (filters.get("years_at_most") is not None and (years is None or years > filters["years_at_most"]))


def words_in(value: str, field_value: str | list[str]) -> bool:
    """Free-text rule (employer, title, degree, school, place, name): every word of ``value`` in one value.

    ``field_value`` holds :func:`~cvrag_desktop.text.keys.text_key` keys (one, or a list).
    """
    words = set(text_key(value).split())
    values = field_value if isinstance(field_value, list) else [field_value]
    return any(words <= set((v or "").split()) for v in values)
