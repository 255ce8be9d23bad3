"""Gaps between roles, a break since the last role, and career changes, from the dated history.
Every person here is invented."""

from __future__ import annotations

import datetime as dt

import pytest

from cvrag_desktop.assistant.facts.gaps import career_gaps, months_asked
from cvrag_desktop.assistant.facts.store import CandidateFacts
from cvrag_desktop.domain import Chunk, Education, Experience, NormalizedCV
from tests.unit.assistant.conftest import AS_OF, assistant_over

PEOPLE = [
    dict(cid="cand_gil", name="Gil Aramby", cv_date=None, roles=[
        ("Staff Accountant", "Corvin & Hale", "2012-01", "2015-06"),
        ("Senior Accountant", "Tamsin Partners", "2016-09", "2019-12"),
        ("Finance Manager", "Oreley Foods", "2020-01", None)], edu=[]),
    # a gap covered by a master's is not unexplained
    dict(cid="cand_mia", name="Mia Tolvanen", cv_date=None, roles=[
        ("Nurse", "Harbor General Hospital", "2010-01", "2014-08"),
        ("Nurse Practitioner", "Lakeside Clinic", "2016-09", None)],
         edu=[("MSc Nursing", "Example University", "2014-09", "2016-07")]),
    # on a break since her last role; her first job was teaching, her latest is software
    dict(cid="cand_rhea", name="Rhea Quillon", cv_date="2024-06", roles=[
        ("Math Teacher", "Riverside High School", "2014-09", "2019-07"),
        ("Software Developer", "Pellham Systems", "2020-01", "2022-12")], edu=[]),
    dict(cid="cand_ode", name="Ode Brannick", cv_date=None, roles=[
        ("Backend Developer", "Quarry Analytics", "2015-01", "2019-12"),
        ("Backend Developer", "Brightline Media", "2020-02", None)], edu=[]),
]


def _cv(p: dict) -> NormalizedCV:
    exps = [Experience(title=t, company=c, start=s, end=e, is_current=e is None) for t, c, s, e in p["roles"]]
    edu = [Education(degree=d, institution=i, start=s, end=e) for d, i, s, e in p["edu"]]
    return NormalizedCV(name=p["name"], emails=[p["cid"] + "@example.com"], experiences=exps, education=edu,
                        cv_date=p["cv_date"]).with_derived(AS_OF)


def _chunks(p: dict) -> list[Chunk]:
    texts = [("contact", f"{p['name']}\n{p['cid']}@example.com")]
    texts += [("experience", f"{t}, {c}, {s} – {e or 'present'}") for t, c, s, e in p["roles"]]
    texts += [("education", f"{d}, {i}, {s} – {e}") for d, i, s, e in p["edu"]]
    return [Chunk(chunk_id=f"{p['cid']}-{i}", candidate_id=p["cid"], section=sec, ordinal=i, text=text,
                  header=p["name"], page=0) for i, (sec, text) in enumerate(texts)]


@pytest.fixture
def gap_assistant():
    """An assistant over the invented people above (no language model)."""
    yield from assistant_over((p["cid"], _cv(p), _chunks(p)) for p in PEOPLE)


def test_the_gap_length_a_question_sets():
    assert months_asked("any gaps of more than 12 months?") == 12
    assert months_asked("who took a career break of over a year?") == 12
    assert months_asked("lücken von mehr als 2 jahren?") == 24
    assert months_asked("any unexplained gaps?") == 6


def test_gaps_are_whole_months_between_dated_stretches():
    record = {"experiences": [{"title": "A", "company": "X", "start": "2015", "end": "2016"},
                              {"title": "B", "company": "Y", "start": "2017", "end": "2018-03"},
                              {"title": "C", "company": "Z", "start": "2018-04", "end": None, "is_current": True}]}
    f = CandidateFacts("c1", "P", None, record, {})
    assert career_gaps(f, dt.date(2026, 6, 1)) == []  # a year-only "2016" → "2017" is no gap at all


def test_one_persons_gaps_with_the_roles_around_them(gap_assistant):
    r = gap_assistant.ask("Does Gil have any gaps in his CV?", use_llm=False)
    assert r["status"] == "answered" and "1 gap of 6+ months" in r["answer"]
    assert "14 months without a dated role (2015-07 – 2016-08)" in r["answer"]
    assert {c["candidate_id"] for c in r["citations"]} == {"cand_gil"}
    r = gap_assistant.ask("Does Ode have any gaps?", use_llm=False)
    assert r["status"] == "answered" and "no gap of 6 months" in r["answer"] and r["citations"]


def test_everyone_with_unexplained_gaps_leaves_out_studies(gap_assistant):
    r = gap_assistant.ask("any unexplained gaps?", use_llm=False)
    assert r["status"] == "answered"
    assert set(r["data"]["candidate_ids"]) == {"cand_gil", "cand_rhea"}  # Mia studied; Ode's gap is 1 month
    assert "since 2023-01, to the CV's date" in r["answer"]  # Rhea: a break until her CV's own date
    r = gap_assistant.ask("who has gaps of more than 16 months?", use_llm=False)
    assert r["data"]["candidate_ids"] == ["cand_rhea"]


def test_career_changers_go_from_one_field_to_another(gap_assistant):
    r = gap_assistant.ask("Who changed careers?", use_llm=False)
    assert r["data"]["candidate_ids"] == ["cand_rhea"] and "from teaching" in r["answer"]
    r = gap_assistant.ask("Wer ist Quereinsteiger?", use_llm=False)
    assert r["data"]["candidate_ids"] == ["cand_rhea"]


def test_an_employer_called_gap_is_not_a_gap_question(gap_assistant):
    r = gap_assistant.ask("Who worked at Gap?", use_llm=False)
    assert "without a dated role" not in r["answer"]


def test_a_break_between_roles_leaves_out_the_break_since_the_last_role(gap_assistant):
    r = gap_assistant.ask("Has Rhea had a break of 6+ months between roles?", use_llm=False)
    assert r["status"] == "answered" and "no gap of 6 months" in r["answer"]  # her only break runs to today
    r = gap_assistant.ask("Which candidates were out of work for over half a year between roles?", use_llm=False)
    assert r["data"]["candidate_ids"] == ["cand_gil"]
