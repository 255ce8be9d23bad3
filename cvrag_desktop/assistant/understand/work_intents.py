"""Which field-of-work or certificate question this is, decided once the people it names are known.

- one named person and "where … the longest" (within a field when one is named): ``longest_at``;
- one named person and "how many years / how long" with a field or employers of theirs:
  ``years_in`` ("How many years did Ana spend in banks?", "… at Northwind and Contoso combined?");
- gaps between roles and career changes, of one person or of everyone: ``gaps``, ``career_change``;
- nobody named and a certificate asked about: ``with_certificate`` (kept only when someone
  lists such a certificate; otherwise the CV text is searched as before);
- nobody named and a field that is all the question's content: ``field_people``
  ("who has experience in banking?", "how many nurses are there?").
"""

from __future__ import annotations

import re

from cvrag_desktop.assistant.facts.certificates import (
    asked_kind,
    asks_certificate,
    cert_subject,
    holders,
    library_shorts,
    named_short,
    names_certificate,
)
from cvrag_desktop.assistant.facts.gaps import BETWEEN, months_asked
from cvrag_desktop.assistant.facts.people import PeopleIndex
from cvrag_desktop.assistant.facts.work_fields import field_spans, matching_roles, own_employers_named
from cvrag_desktop.assistant.understand import intents
from cvrag_desktop.assistant.understand.question import has_any, phrase_spans, phrases, says_currently
from cvrag_desktop.text.fold import fold

# words that say "worked in the field" without naming anything else
NEUTRAL = {"experience", "experiences", "experienced", "exp", "background", "worked", "work", "working", "works",
           "field", "fields", "industry", "industries", "sector", "sectors", "area", "areas", "role", "roles",
           "job", "jobs", "career", "careers", "years", "year", "yrs", "professional", "professionals", "history",
           "branche", "bereich", "sektor", "secteur", "domaine", "settore", "setor", "sektorze", "branży"}


EMPLOYER_BEFORE = re.compile(r"(?<!\w)(at|for|with|bei|chez|presso|em|bij|dla)\s+(the\s+)?$")


def pool_filters(filters: dict, drop_skills: bool = False) -> dict:
    """The stored filters that narrow the people (skills dropped when they named the certificate)."""
    return {k: v for k, v in filters.items() if v and not (drop_skills and k == "skills")}


def work_intent(question: str, plan, persons: list[str], people: PeopleIndex, words_asked: list[str],
                skills: list[str], generic: set[str]) -> intents.Intent | None:
    """The field / certificate intent of a question (None: another route answers it)."""
    q = fold(question)
    taken = " ".join([fold(s) for s in skills] + [fold(c) for c in plan.filters.get("companies", [])])
    found = field_spans(question, taken)
    field = found[0][0] if found else None
    field_words = {w for _, spans in found for a, b in spans for w in q[a:b].split()}
    count = bool(intents.COUNT.search(q))
    gap = [(a, b) for a, b in phrase_spans(q, phrases("gap"))  # "worked at Gap": an employer, not a gap
           if q[a:b] not in taken and not EMPLOYER_BEFORE.search(q[:a])]
    if gap:  # "any unexplained gaps?", "does Ana have gaps?"
        return intents.Intent("gaps", persons[:1], phrase=str(months_asked(q)), count=count,
                              earliest=says_currently(question) or has_any(q, ("on a break", "right now")),
                              level="between" if BETWEEN.search(q) else None)
    if has_any(q, phrases("career_change")):
        return intents.Intent("career_change", persons[:1], count=count)
    if persons:
        if len(persons) != 1:
            return None
        if has_any(q, phrases("longest")) and (field or intents.ROLE_WORDS.search(q) or intents.WHERE_WORK.search(q)):
            return intents.Intent("longest_at", persons, dimension=field.fid if field else None)
        if not has_any(q, phrases("how_long")):
            return None
        employers = own_employers_named(people, persons, words_asked)
        if not employers and field is None:
            return None
        return intents.Intent("years_in", persons, dimension=None if employers else field.fid,
                              phrase="|".join(employers))
    degree_asked = plan.filters.get("degree_level") or plan.filters.get("min_degree_level")
    if asks_certificate(q) and not (degree_asked and not names_certificate(q)):  # "holds a master's": a degree
        credential = named_short(q, library_shorts(people))
        if credential is not None:  # "a CPA certificate", "an RN licence": the facet's value, matched as it is
            return intents.Intent("with_certificate", dimension=field.fid if field else None, phrase=credential,
                                  count=count, level="short")
        # the question's own content words ("chartered engineer", "acls"): plan.terms leaves out domain words
        subject = [w for w in cert_subject(words_asked) if w not in field_words and w not in NEUTRAL
                   and w not in generic and len(w) > 1]
        kind = asked_kind(q)
        drop = False
        if not subject and skills:  # "a certificate from Google": the issuer was read as a skill
            subject, drop = [w for s in skills for w in fold(s).split()], True
        if not subject and kind is None:
            return None
        pool = _pool(people, pool_filters(plan.filters, drop), field)
        if not holders(people, pool, subject, kind) and (subject or field is None):
            return None  # nobody lists it: the CV text is searched instead
        return intents.Intent("with_certificate", dimension=field.fid if field else None, phrase=" ".join(subject),
                              count=count, level="drop_skills" if drop else None, employer=kind)
    if field is None:
        return None
    rest = [t for t in plan.terms if t not in field_words and t not in NEUTRAL and t not in generic]
    if rest:
        return None  # "which nurses worked in pediatrics?": more than the field is asked
    return intents.Intent("field_people", dimension=field.fid, count=count)


def _pool(people: PeopleIndex, filters: dict, field) -> list:
    pool = people.facts.matching(filters) if filters else list(people.facts.all().values())
    if field is not None:
        pool = [f for f in pool if matching_roles(f, field, [])]
    return pool
