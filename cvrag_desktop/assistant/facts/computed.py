"""Run a computed intent (relation, comparison, aggregate) for the analytics node.

A relation of several people (namesakes the question did not tell apart) is answered
for each of them, each block headed by the label that tells them apart.
"""

from __future__ import annotations

import datetime as dt

from cvrag_desktop.assistant.answer.compare import compare_people
from cvrag_desktop.assistant.facts import aggregates, gaps, relations, work_fields
from cvrag_desktop.assistant.facts.analytics import EvidenceBook, describe_filters
from cvrag_desktop.assistant.facts.certificates import people_with_certificate
from cvrag_desktop.assistant.facts.people import PeopleIndex
from cvrag_desktop.assistant.understand.work_intents import pool_filters

PERSON_OPS = ("before", "after", "role_at", "first_role", "latest_role", "degrees")
AGGREGATE_OPS = ("current_start", "graduation", "most_employers", "shared_employers", "shared_contacts",
                 "duplicates", "cv_date", "mention_count", "most_of", "degree_subject", "in_country")
WORK_OPS = ("gaps", "career_change", "years_in", "longest_at", "field_people", "with_certificate")
MAX_PEOPLE = 6


def _person_op(book: EvidenceBook, people: PeopleIndex, intent: dict, pid: str) -> dict:
    p = people.people[pid]
    f = people.facts.get(p.primary)
    op = intent["op"]
    if op in ("before", "after"):
        return relations.neighbour_employer(book, p, f, intent["employer"], before=op == "before")
    if op == "role_at":
        return relations.role_at(book, p, f, intent["employer"])
    if op in ("first_role", "latest_role"):
        return relations.end_role(book, p, f, latest=op == "latest_role")
    return relations.degrees(book, p, f, intent.get("level"))


def _work_op(book: EvidenceBook, people: PeopleIndex, intent: dict, persons: list[str], filters: dict,
             as_of: dt.date) -> dict | None:
    """The field-of-work and certificate intents (see :mod:`.work_intents`)."""
    op, field = intent["op"], work_fields.field_by_id(intent.get("dimension"))
    if op == "years_in" and persons:
        p = people.people[persons[0]]
        employers = [e for e in (intent.get("phrase") or "").split("|") if e]
        return work_fields.years_in(book, p, people.facts.get(p.primary), field, employers, as_of)
    if op == "gaps" and persons:
        p = people.people[persons[0]]
        return gaps.person_gaps(book, p, people.facts.get(p.primary), as_of, int(intent.get("phrase") or 6),
                                between=intent.get("level") == "between")
    if op == "longest_at" and persons:
        p = people.people[persons[0]]
        return work_fields.longest_stay(book, p, people.facts.get(p.primary), field, as_of)
    drop = intent.get("level") in ("drop_skills", "short")
    narrowed = pool_filters(filters, drop)
    pool = people.facts.matching(narrowed) if narrowed else list(people.facts.all().values())
    what = describe_filters(narrowed) if narrowed else ""
    if op == "gaps":
        return gaps.everyone_with_gaps(book, people, pool, as_of, int(intent.get("phrase") or 6),
                                       current_only=bool(intent.get("earliest")), between=intent.get("level") == "between")
    if op == "career_change":
        if persons:
            pool = [people.facts.get(people.people[persons[0]].primary)]
        return gaps.career_changers(book, people, pool)
    if op == "field_people" and field is not None:
        return work_fields.people_in(book, people, field, pool, bool(intent.get("count")), as_of, what)
    if op == "with_certificate":
        if field is not None:
            pool = [f for f in pool if work_fields.matching_roles(f, field, [])]
            what = ", ".join(x for x in (what, field.label) if x)
        short = intent.get("phrase") if intent.get("level") == "short" else None
        return people_with_certificate(book, people, pool, [] if short else (intent.get("phrase") or "").split(),
                                       bool(intent.get("count")), what, kind=intent.get("employer"), short=short)
    return None


def run_intent(book: EvidenceBook, people: PeopleIndex, intent: dict, as_of: dt.date | None = None,
               filters: dict | None = None) -> dict | None:
    """The computed answer for ``intent`` (None when the op is not one of these); ``as_of`` is
    "today" for current roles, ``filters`` the question's stored filters."""
    op = intent.get("op")
    people.refresh()
    persons = [pid for pid in intent.get("persons") or [] if pid in people.people]
    if op in WORK_OPS:
        return _work_op(book, people, intent, persons, filters or {}, as_of or dt.date.today())
    if op in PERSON_OPS and persons:
        results = [(pid, _person_op(book, people, intent, pid)) for pid in persons[:MAX_PEOPLE]]
        if len(results) == 1:
            return results[0][1]
        blocks = []
        for pid, r in results:
            label = people.people[pid].label
            body = r["answer"]
            name = people.people[pid].name
            body = body[len(name):].lstrip(" :—-") if body.startswith(name) else body
            blocks.append(f"{label}:\n{body}")
        status = "answered" if any(r["status"] == "answered" for _, r in results) else "unknown"
        head = f"{len(results)} different people match the name; each answered separately:\n" \
            if len({people.people[p].key for p in persons}) == 1 else ""
        return {"status": status, "answer": head + "\n\n".join(blocks),
                "data": {"candidate_ids": [people.people[p].primary for p in persons]}}
    if op == "compare" and len(persons) >= 2:
        topic = (intent.get("phrase") or "").split()
        return compare_people(book, people, [people.people[p] for p in persons], intent.get("dimension") or "years",
                              topic)
    if op in AGGREGATE_OPS:
        if op == "current_start":
            return aggregates.current_start(book, people, intent.get("earliest", True))
        if op == "graduation":
            return aggregates.graduation(book, people, intent.get("earliest", True))
        if op == "cv_date":
            return aggregates.newest_cv(book, people, newest=not intent.get("earliest"))
        if op == "mention_count":
            return aggregates.mention_count(book, people, intent.get("phrase") or "")
        if op == "in_country":
            return aggregates.in_country(book, people, intent.get("phrase") or "", intent.get("dimension") == "education")
        if op == "most_of":
            return aggregates.most_of(book, people, intent.get("phrase") or "certifications")
        if op == "degree_subject":
            return aggregates.degree_subject(book, people, intent.get("level") or "master", intent.get("phrase") or "")
        return getattr(aggregates, op)(book, people)
    return None
