"""One decision per screening criterion: a held degree level, a spoken language, a skill, years.

Chat counts ("how many have a doctorate?"), the candidate pane's facets (Degree, Language,
Skills, Min/Max years) and job matching all call these functions, so a count can never
disagree with the filter that expresses it. A degree the CV marks as expected or in
progress ("– In Progress", "(expected)", "voraussichtlich", "en curso", "预计"), or whose end
date is still to come, is a *claim* shown as expected and never counted as held.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import Counter
from dataclasses import dataclass

from cvrag_desktop.assistant.understand.vocabulary import LEVEL_RANK, degree_level
from cvrag_desktop.domain import parse_partial_date
from cvrag_desktop.index.filters import language_key, skill_key
from cvrag_desktop.ingestion.lexicon import canonical_language
from cvrag_desktop.text.keys import normalize_key

# the pane's Degree choices: 1 any other degree, 2 bachelor, 3 master, 4 doctorate
RANK_NAMES = {4: "phd", 3: "master", 2: "bachelor"}
EXPECTED = re.compile(
    r"\b(expected|in progress|ongoing|anticipated|pending|(?:ph\s?d|doctoral|degree) candidate|to be completed|"
    r"currently enrolled|\d{4}\s*[-–]\s*(?:present|now|current|heute|aktuell|actualidad|presente|obecnie|oggi)|"
    r"voraussichtlich|laufend|angestrebt|derzeit|"
    r"en curso|cursando|previst[oa]|en cours|prevue?|in corso|em andamento|previsao|"
    r"verwacht|lopend|w trakcie|w toku|planowan\w*)\b|预计|在读|予定|見込み|在学中", re.I)
DEGREE_WORD = re.compile(r"\b(dr|ph\s?d|doktor\w*|doctor\w*|dottorato|doutorado|doctoraat|promotion)\b", re.I)


@dataclass(frozen=True)
class DegreeClaim:
    """One degree a CV prints: its level, the printed text, and whether it is only expected."""

    level: str | None
    degree: str
    expected: bool
    index: int


def education_lines(text: str) -> list[str]:
    """The non-empty lines of a CV's education chunks."""
    return [ln.strip() for ln in (text or "").splitlines() if ln.strip()]


def _line_of(lines: list[str], needle: str) -> int | None:
    key = normalize_key(needle)
    if not key:
        return None
    return next((i for i, ln in enumerate(lines) if key in normalize_key(ln)), None)


def _unnamed_degree(edu: dict, lines: list[str], named: set[str]) -> str:
    """The doctorate line next to an entry's institution when the extractor kept no degree for it.

    "Universität Hamburg" / "Dr. Physik, Note: 1.0 Okt. 2019 - Mai 2025": the entry has the
    institution and dates but no degree; the line beside it that names a doctorate is its degree.
    """
    at = _line_of(lines, edu.get("institution") or "")
    if at is None:
        return ""
    for j in (at + 1, at - 1, at):
        if 0 <= j < len(lines) and DEGREE_WORD.search(normalize_key(lines[j])) \
                and degree_level(lines[j]) == "phd" and normalize_key(lines[j]) not in named:
            return lines[j]
    return ""


def degree_claims(record: dict, education_text: str = "", as_of: dt.date | None = None) -> list[DegreeClaim]:
    """Every degree of a record with its level and expected/held status (see module doc).

    ``education_text`` is the text of the CV's education chunks: the printed line of a
    degree and the line after it say "In Progress" / "(Expected Graduation …)" even when
    the record kept only the degree's name.
    """
    as_of = as_of or dt.date.today()
    lines = education_lines(education_text)
    named = {normalize_key(e.get("degree") or "") for e in record.get("education") or []}
    out = []
    for i, edu in enumerate(record.get("education") or []):
        degree = edu.get("degree") or _unnamed_degree(edu, lines, named)
        if not degree:
            continue
        context = degree
        at = _line_of(lines, degree)
        if at is not None:
            context = " ".join(lines[at:at + 2] if at + 1 < len(lines) and not degree_level(lines[at + 1])
                               else lines[at:at + 1])
        end = parse_partial_date(edu.get("end"), end=True) if edu.get("end") else None
        expected = bool(EXPECTED.search(context) or EXPECTED.search(normalize_key(context))) or (end is not None and end > as_of)
        out.append(DegreeClaim(degree_level(degree), degree, expected, i))
    return out


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


def language_name(value: str) -> str:
    """A spoken language's display name: its English name, without the level ("Alemán (B2)" → "German")."""
    base = re.split(r"[(:\-–,]", value, maxsplit=1)[0].strip() or value
    return canonical_language(base) or base


def has_skill(skills: list[str], skill: str) -> bool:
    """Whether a skill list holds ``skill`` (through the alias table: "k8s" = Kubernetes)."""
    key = skill_key(skill)
    return any(skill_key(s) == key for s in skills or [])


def years_within(years: float | None, min_years: float | None = None, max_years: float | None = None) -> bool:
    """Whole-year bounds, the index's semantics: ``min 5`` keeps 5.0+, ``max 5`` keeps fewer than 6."""
    if min_years is None and max_years is None:
        return True
    if years is None:
        return False
    whole = math.floor(years)
    return (min_years is None or whole >= min_years) and (max_years is None or whole <= max_years)


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
    from cvrag_desktop.assistant.facts.credentials import person_credentials
    from cvrag_desktop.assistant.facts.work_fields import person_fields

    return {"person_skills": list(skills.values()), "person_languages": list(languages.values()),
            "person_credentials": person_credentials(documents), "person_fields": person_fields(documents),
            "person_years": max(years) if years else None, "degree_rank": degree_rank(claims),
            "held_degree": best.degree if best else "",
            "expected_degrees": list(dict.fromkeys(c.degree for c in claims if c.expected))}
