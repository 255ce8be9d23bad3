"""The search index and the chat's filters decide alike: the same rules on the same keys.

The index renders a filter as conditions over a point's payload; the chat evaluates
:mod:`cvrag_desktop.text.rules` over the catalog's facts. A small evaluator of the neutral
filter tree checks both give the same people for every filter here.
"""

from __future__ import annotations

import json

import pytest

from cvrag_desktop.assistant.facts.store import CandidateFacts, CatalogFacts
from cvrag_desktop.index.filters import build_filter, candidate_payload, parse_filters, point_fields
from cvrag_desktop.index.where import Between, Match, Where, Within

ROWS = [
    {"candidate_id": "a", "name": "Ana López", "skills": ["k8s", "Python"], "languages": ["Alemán (B2)", "Spanish"],
     "current_title": "Senior Data Engineer", "current_company": "Acme Logistics S.A.",
     "companies": ["Acme Logistics S.A.", "Globex"], "degrees": ["M.Sc. Computer Science"],
     "institutions": ["Universidad de Sevilla"], "location": "Sevilla, Spain", "years_of_experience": 5.0},
    {"candidate_id": "b", "name": "Ben Okafor", "skills": ["Java", "Docker"], "languages": ["English"],
     "current_title": "Backend Developer", "current_company": "Initech GmbH", "companies": ["Initech GmbH"],
     "degrees": ["BSc Informatics"], "institutions": ["TU Berlin"], "location": "Berlin", "years_of_experience": 5.9},
    {"candidate_id": "c", "name": "Chen Wei", "skills": ["Kubernetes"], "languages": ["Deutsch", "English"],
     "current_title": "Engineer", "current_company": "Acme", "companies": ["Acme"], "degrees": [],
     "institutions": [], "location": None, "years_of_experience": None},
]
FILTERS = [
    {"skills": ["Kubernetes"]}, {"skills": ["kubernetes", "python"]}, {"languages": ["German"]},
    {"languages": ["english"]}, {"companies": ["Acme Logistics"]}, {"companies": ["acme"]},
    {"titles": ["data engineer"]}, {"location": "sevilla"}, {"min_years": 5}, {"max_years": 5},
    {"min_years": 6}, {"degrees": ["msc"]}, {"institutions": ["TU Berlin"]}, {"names": ["okafor"]},
    {"skills": ["Docker"], "max_years": 5}, {"companies": ["logistics globex"]},
]


def _holds(point: dict, cond) -> bool:
    if isinstance(cond, Match):
        value = point.get(cond.key)
        return cond.value in value if isinstance(value, list) else value == cond.value
    if isinstance(cond, Within):
        return any(all(m.value in elem.get(m.key, []) for m in cond.must) for elem in point.get(cond.key) or [])
    if isinstance(cond, Between):
        v = point.get(cond.key)
        return v is not None and (cond.gte is None or v >= cond.gte) and (cond.lte is None or v <= cond.lte)
    raise AssertionError(cond)


def _index_people(where: Where | None) -> set[str]:
    out = set()
    for row in ROWS:
        point = {**point_fields(candidate_payload({**row, "record": json.dumps({})})), "candidate_id": row["candidate_id"]}
        if where is None or all(_holds(point, c) for c in where.must):
            out.add(row["candidate_id"])
    return out


def _chat_people(filters: dict) -> set[str]:
    facts = CatalogFacts(catalog=None)  # matches() reads only the facts it is given
    out = set()
    for row in ROWS:
        rec = {"years_of_experience": row["years_of_experience"]}
        f = CandidateFacts(row["candidate_id"], row["name"], None, rec, candidate_payload({**row, "record": "{}"}))
        if facts.matches(f, filters):
            out.add(row["candidate_id"])
    return out


@pytest.mark.parametrize("filters", FILTERS, ids=[json.dumps(f) for f in FILTERS])
def test_index_and_chat_filters_pick_the_same_people(filters):
    assert _index_people(build_filter(parse_filters(filters))) == _chat_people(filters)
