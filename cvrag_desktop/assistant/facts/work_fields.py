"""Fields of work — banking, teaching, nursing, law, sales… — read from a question and from roles.

"Who has experience in banking?", "How many years of teaching has Ana?", "how many of the
nurses…": a recruiter names a *field*, and a CV shows it in its roles' titles ("Staff Nurse",
"Lehrerin") or, when a title names no field, in the employer ("Analyst, Bank Horyzont").
The words are data (``resources/work_fields.yaml``, every listed language). Answers are
computed from the dated roles (overlaps counted once) and cite each role they used.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass

from cvrag_desktop.assistant.facts.analytics import EvidenceBook
from cvrag_desktop.assistant.facts.people import PeopleIndex, Person
from cvrag_desktop.assistant.facts.relations import matches_employer, role_line
from cvrag_desktop.assistant.facts.store import CandidateFacts, role_span, span_years
from cvrag_desktop.assistant.understand.question import has_any, phrase_spans, stopwords
from cvrag_desktop.domain import parse_partial_date
from cvrag_desktop.text.companies import company_core, employer_key
from cvrag_desktop.text.fold import fold
from cvrag_desktop.text.keys import text_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.resources import resource_yaml


@dataclass(frozen=True)
class WorkField:
    """One field of work: how questions name it and which title / employer words put a role in it."""

    fid: str
    label: str
    question: tuple[str, ...]
    title: tuple[str, ...]
    employer: tuple[str, ...]
    sector: bool = False  # a sector (banking, hospitality): its employers count whatever the title


@functools.lru_cache(maxsize=1)
def work_fields() -> tuple[WorkField, ...]:
    """Every field of ``resources/work_fields.yaml`` (words folded)."""
    data = resource_yaml("work_fields.yaml") or {}
    out = []
    for fid, f in (data.get("fields") or {}).items():
        words = {k: tuple(sorted({fold(str(w)) for w in f.get(k) or [] if str(w).strip()}, key=len, reverse=True))
                 for k in ("question", "title", "employer")}
        out.append(WorkField(fid, str(f.get("label") or fid), words["question"], words["title"], words["employer"],
                             f.get("kind") == "sector"))
    return tuple(out)


def field_by_id(fid: str | None) -> WorkField | None:
    """The field with this id (None when unknown)."""
    return next((f for f in work_fields() if f.fid == fid), None)


def field_spans(question: str, taken: str = "") -> list[tuple[WorkField, list[tuple[int, int]]]]:
    """The fields a question names, first written first, with every place it names each; words inside
    ``taken`` (folded text already read as a skill or an employer: "Business Development", "Bank
    Horyzont") do not count."""
    q = fold(question)
    found = []
    for f in work_fields():
        spans = [s for s in phrase_spans(q, f.question) if not (taken and q[s[0]:s[1]] in taken)]
        if spans:
            found.append((f, spans))
    return sorted(found, key=lambda x: x[1][0][0])


def fields_in(question: str, taken: str = "") -> list[tuple[WorkField, tuple[int, int]]]:
    """The fields a question names, first written first, with where it first names each."""
    return [(f, spans[0]) for f, spans in field_spans(question, taken)]


def field_words(question: str) -> set[str]:
    """The folded words of the question that name a field of work."""
    q = fold(question)
    return {w for _, spans in field_spans(question) for a, b in spans for w in q[a:b].split()}


def role_fields(role: dict) -> set[str]:
    """The fields a role is in: those its title names; a sector its employer names (a salesperson
    at a bank works in banking); a profession its employer names only when the title names no
    field (a "Lead Teacher" title is missing, the school is not: teaching; an IT technician at a
    school district is not a teacher)."""
    title = fold(role.get("title") or "")
    company = fold(role.get("company") or "")
    by_title = {f.fid for f in work_fields() if title and has_any(title, f.title)}
    by_employer = {f.fid for f in work_fields() if company and f.employer and has_any(company, f.employer)}
    sectors = {f.fid for f in work_fields() if f.sector}
    return by_title | (by_employer if not by_title else by_employer & sectors)


def present_of(f: CandidateFacts, as_of: dt.date) -> dt.date:
    """What "present" means on this CV: the end of the month it is dated (its roles' "present"
    was written then, as the stored years of experience count it), else ``as_of``."""
    dated = parse_partial_date(f.record.get("cv_date"), end=True)
    return min(dated, as_of) if dated else as_of


def person_fields(documents: list) -> list[str]:
    """The labels of the fields of work of every role a person's documents list, in the table's order."""
    found = {fid for f in documents for r in f.record.get("experiences", []) for fid in role_fields(r)}
    return [w.label for w in work_fields() if w.fid in found]


def _union_days(spans: list[tuple[dt.date, dt.date]]) -> int:
    days, cur = 0, None
    for s, e in sorted(spans):
        if cur and s <= cur[1]:
            cur = (cur[0], max(cur[1], e))
        else:
            days += (cur[1] - cur[0]).days if cur else 0
            cur = (s, e)
    return days + ((cur[1] - cur[0]).days if cur else 0)


def describe_span(days: int) -> str:
    """"about 5 years (4.9)", "about 10 months": how long, rounded the way a person says it."""
    years = span_years(days)
    if years >= 1:
        whole = int(years + 0.5)
        return f"about {whole} year{'s' if whole != 1 else ''} ({years} years)"
    months = max(1, round(days / 30.44))
    return f"about {months} month{'s' if months != 1 else ''}"


def matching_roles(f: CandidateFacts, field: WorkField | None, employers: list[str]) -> list[tuple[int, dict]]:
    roles = list(enumerate(f.record.get("experiences", [])))
    if employers:
        return [(i, r) for i, r in roles if any(matches_employer(r.get("company"), e) for e in employers)]
    return [(i, r) for i, r in roles if field is not None and field.fid in role_fields(r)]


def years_in(book: EvidenceBook, person: Person, f: CandidateFacts, field: WorkField | None,
             employers: list[str], as_of: dt.date) -> dict:
    """How long one person worked in a field (or at the named employers, together): dated roles
    joined, overlaps once, each role cited; undated roles named but not counted."""
    what = " and ".join(dict.fromkeys(employers)) if employers else (field.label if field else "")
    where = f"at {what}" if employers else f"in {what}"
    held = matching_roles(f, field, employers)
    as_of = present_of(f, as_of)
    if not held:
        return {"status": "unknown", "answer": f"{person.name}'s CV lists no role {where}.",
                "data": {"candidate_ids": [f.candidate_id]}}
    dated = [(i, r) for i, r in held if role_span(r, as_of)]
    days = _union_days([role_span(r, as_of) for _, r in dated])
    lines = [role_line(book, f, i, r) + ("" if role_span(r, as_of) else " (undated: not counted)") for i, r in held]
    if not dated:
        head = f"{person.name}'s roles {where} carry no dates, so their length is not known:"
        return {"status": "answered", "answer": head + "\n" + "\n".join(f"- {x}" for x in lines),
                "data": {"candidate_ids": [f.candidate_id]}}
    n = len(dated)
    head = (f"{person.name}: {describe_span(days)} {where}, from {n} dated role{'s' if n != 1 else ''}"
            f"{' (overlaps counted once)' if n > 1 else ''}:")
    return {"status": "answered", "answer": head + "\n" + "\n".join(f"- {x}" for x in lines),
            "data": {"candidate_ids": [f.candidate_id], "years": span_years(days)}}


def longest_stay(book: EvidenceBook, person: Person, f: CandidateFacts, field: WorkField | None,
                 as_of: dt.date) -> dict:
    """Where one person worked longest (within a field when one is asked): roles at one employer
    joined (overlaps once), employers ranked by that time, each role cited."""
    as_of = present_of(f, as_of)
    roles = matching_roles(f, field, []) if field else list(enumerate(f.record.get("experiences", [])))
    stays: dict[str, list[tuple[int, dict]]] = {}
    for i, r in roles:
        if r.get("company") and role_span(r, as_of):
            stays.setdefault(employer_key(r["company"]) or r["company"], []).append((i, r))
    where = f" in {field.label}" if field else ""
    if not stays:
        return {"status": "unknown", "answer": f"{person.name}'s CV lists no dated role{where} with an employer.",
                "data": {"candidate_ids": [f.candidate_id]}}
    ranked = sorted(((_union_days([role_span(r, as_of) for _, r in held]), held) for held in stays.values()),
                    key=lambda x: -x[0])
    days, held = ranked[0]
    lines = [role_line(book, f, i, r) for i, r in held]
    head = f"{person.name} worked longest{where} at {held[0][1]['company']}: {describe_span(days)}"
    others = [f"{h[0][1]['company']} ({describe_span(d)})" for d, h in ranked[1:4]]
    tail = f"\nThen: {'; '.join(others)}." if others else ""
    return {"status": "answered", "answer": head + "\n" + "\n".join(f"- {x}" for x in lines) + tail,
            "data": {"candidate_ids": [f.candidate_id], "years": span_years(days)}}


def people_in(book: EvidenceBook, people: PeopleIndex, field: WorkField, pool: list[CandidateFacts],
              count: bool, as_of: dt.date, what: str = "") -> dict:
    """The people of ``pool`` with a role in ``field`` (a person's documents count once), each with
    how long and the role(s) that show it, cited."""
    people.refresh()
    seen: set[str] = set()
    rows: list[tuple[int, str, str]] = []
    ids: list[str] = []
    for f in pool:
        p = people.person_of(f.candidate_id, refresh=False)
        key = p.person_id if p else f.candidate_id
        if key in seen:
            continue
        held = matching_roles(f, field, [])
        if not held:
            continue
        seen.add(key)
        ids.append(f.candidate_id)
        days = _union_days([s for _, r in held if (s := role_span(r, present_of(f, as_of)))])
        shown = "; ".join(role_line(book, f, i, r) for i, r in held[:3])
        more = f"; and {len(held) - 3} more role(s)" if len(held) > 3 else ""
        length = f" — {describe_span(days)}" if days else ""
        rows.append((days, people.display(p) if p else f.name, f"{length}: {shown}{more}"))
    scope = f" ({what})" if what else ""
    if not rows:
        return {"status": "unknown", "answer": f"No imported CV{scope} lists a role in {field.label}.",
                "data": {"count": 0, "candidate_ids": []}}
    rows.sort(key=lambda r: (-r[0], r[1]))
    n = len(rows)
    head = (f"{n} candidate{'s' if n != 1 else ''}{scope} with a role in {field.label}:" if count
            else f"Candidates{scope} with a role in {field.label} (longest first):")
    return {"status": "answered", "answer": head + "\n" + "\n".join(f"- {name}{rest}" for _, name, rest in rows),
            "data": {"count": n, "candidate_ids": ids}}


def own_employers_named(people: PeopleIndex, persons: list[str], words: list[str]) -> list[str]:
    """Every employer of the named people that the question writes, perhaps shortened ("Northwind"
    for "Northwind Group", "Horyzont" for "Bank Horyzont SA"): the first word of its name that is not
    an employer word (bank, school, group…) is a word of the question."""
    asked = set(words)
    generic = {w for f in work_fields() for e in f.employer for w in e.split()}
    company_re = load_lexicon().company_re
    out: dict[str, str] = {}
    for pid in persons:
        for d in people.people[pid].documents:
            for r in people.doc(d).record.get("experiences", []):
                key = [w for w in company_core(text_key(r.get("company") or "")).split()
                       if w not in stopwords() and w not in generic and not company_re.fullmatch(w)]
                if key and len(key[0]) >= 3 and key[0] in asked:
                    out.setdefault(employer_key(r["company"]), r["company"])
    return list(out.values())
