"""What the candidate pane's facets show: each person's criteria and the people per facet value.

A person has a skill, a language, a degree, a credential or a field of work when any of
their CVs states it (:func:`person_criteria`); :func:`facet_counts` counts people per value.
Both decide with the rules of :mod:`cvrag_desktop.text.rules` (held degrees only, whole
years), the same ones the chat's counts and filters use.
"""

from __future__ import annotations

import math
from collections import Counter

from cvrag_desktop.assistant.facts.work_fields import person_fields
from cvrag_desktop.text.rules import degree_rank
from cvrag_desktop.text.vocab.credentials import person_credentials
from cvrag_desktop.text.vocab.degrees import LEVEL_RANK
from cvrag_desktop.text.vocab.languages import language_key, language_name
from cvrag_desktop.text.vocab.skills import skill_key


def facet_counts(rows: list[dict]) -> dict[str, Counter]:
    """People per facet value over person rows (``services.list_people``): what each facet choice shows.

    ``skills`` and ``languages`` count the people with the value, ``degree`` the people whose
    highest held degree reaches each rank (2, 3, 4), ``min_years`` the people with at least N
    whole years for every N a person reaches, ``fields`` and ``credentials`` the people with each
    field of work and credential.
    """
    fields: Counter = Counter()
    credentials: Counter = Counter()
    skills: Counter = Counter()
    languages: Counter = Counter()
    degree: Counter = Counter()
    years: Counter = Counter()
    for r in rows:
        skills.update(set(r.get("person_skills") or r.get("skills") or []))
        languages.update(set(r.get("person_languages") or r.get("languages") or []))
        fields.update(set(r.get("person_fields") or []))
        credentials.update(set(r.get("person_credentials") or []))
        rank = r.get("degree_rank") or 0
        degree.update(k for k in (2, 3, 4) if rank >= k)
        y = r.get("person_years", r.get("years_of_experience"))
        if y is not None:
            years.update(range(0, math.floor(y) + 1))
    return {"skills": skills, "languages": languages, "degree": degree, "min_years": years, "fields": fields,
            "credentials": credentials}


def skill_names(facts) -> dict[str, str]:
    """One display name per skill key over the library (the first CV's spelling: "HTML/CSS" = "Html/CSS")."""
    names: dict[str, str] = {}
    for f in facts:
        for s in f.record.get("skills") or []:
            names.setdefault(skill_key(s), s)
    return names


def person_criteria(documents: list, names: dict[str, str] | None = None) -> dict:
    """The facet fields of one person from the facts of their documents (``CandidateFacts``).

    A person has a skill, a language or a degree when any of their CVs states it, and the
    most years any of them shows (skills spelt as ``names`` has them, see :func:`skill_names`); ``held_degree`` is the highest held degree as printed,
    ``expected_degrees`` the degrees shown as expected (never counted); ``person_credentials`` the short
    names of the credentials listed, ``person_fields`` the fields of work of their roles (as the chat
    reads them: "how many nurses", "a certificate from Google").
    """
    skills: dict[str, str] = {}
    languages: dict[str, str] = {}
    years = [f.years for f in documents if f.years is not None]
    claims = [c for f in documents for c in f.claims]
    for f in documents:
        for s in f.record.get("skills") or []:
            key = skill_key(s)
            skills.setdefault(key, (names or {}).get(key, s))
        for x in f.record.get("languages") or []:
            languages.setdefault(language_key(x), language_name(x))
    held = [c for c in claims if not c.expected]
    best = max(held, key=lambda c: LEVEL_RANK.get(c.level or "", 0), default=None)
    return {"person_skills": list(skills.values()), "person_languages": list(languages.values()),
            "person_credentials": person_credentials(documents), "person_fields": person_fields(documents),
            "person_years": max(years) if years else None, "degree_rank": degree_rank(claims),
            "held_degree": best.degree if best else "",
            "expected_degrees": list(dict.fromkeys(c.degree for c in claims if c.expected))}
