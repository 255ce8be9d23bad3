"""Why this rank (issue 23): job-match and ranked-search explanations, the candidate-facing export
(audited, nobody else named), must-haves that flag and never reject, a rejection's reason.

The library is the four invented people of this folder's conftest, behind the real facade.
"""

from __future__ import annotations

import json

import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.assistant.jobmatch.rank_explain import (
    MATCH_RULE,
    cited_line,
    explain_match,
    missed_must_haves,
)
from cvrag_desktop.assistant.jobmatch.rank_explain_export import explanation_text
from cvrag_desktop.errors import InvalidInput, NotFound
from tests.unit.assistant.conftest import PEOPLE, add_person

JD = "Backend engineer\nRequirements: Python, Kafka, fluent English.\nNice to have: Go"


@pytest.fixture
def svc():
    s = App()
    for p in PEOPLE:
        add_person(s.catalog, p)
    s.index.rebuild()
    yield s
    s.close()


def test_a_must_have_nobody_meets_lists_every_candidate_flagged_and_rejects_nobody(svc):
    before = len(svc.compliance.audit_entries())
    result = svc.assistant.match_jd("Requirements: Python, Terraform.", use_llm=False, limit=None)
    assert {c["candidate_id"] for c in result["candidates"]} == {p["cid"] for p in PEOPLE}
    assert result["ranked"] == len(PEOPLE)
    for row in result["candidates"]:
        assert "Terraform" in row["must_missed"] == missed_must_haves(row)
    states = svc.screening.screening_of([p["cid"] for p in PEOPLE])
    assert {s["status"] for s in states.values()} == {"new"}
    actions = [e["action"] for e in svc.compliance.audit_entries()[before:]]
    assert actions == ["job_match.run"]  # no status was set by the match


def test_a_job_match_row_explained_requirement_by_requirement(svc):
    result = svc.assistant.match_jd(JD, use_llm=False, limit=None)
    expl = svc.jobs.explain_match(result, "cand_ana")
    assert expl["rank"] == 1 and expl["ranked"] == 4 and expl["name"] == "Ana Núñez"
    by_req = {r["requirement"]: r for r in expl["requirements"]}
    python = by_req["Python"]
    assert python["status"] == "met" and python["must"] and python["points"] == 10
    ev = python["evidence"]
    assert ev["file"] == "cand_ana.pdf" and ev["page"] == 1 and "Python" in ev["line"]
    assert by_req["Go"]["points"] == 3 and not by_req["Go"]["must"]
    b = expl["breakdown"]
    assert b["must_points"] + b["nice_points"] == expl["score"] == 10 * b["must_met"] + 3 * b["nice_met"]
    assert expl["rule"] == MATCH_RULE and expl["model"]["used"] is False
    ben = svc.jobs.explain_match(result, "cand_ben")
    assert "Python" in ben["flags"] and all(r["evidence"] is None for r in ben["requirements"]
                                            if r["status"] != "met")
    with pytest.raises(NotFound):
        explain_match(result, "nobody")


def test_a_model_added_requirement_is_named():
    result = {"mode": "llm", "ranked": 1, "evidence": {}, "candidates": [{
        "candidate_id": "x", "name": "X", "score": 0, "cells": [
            {"requirement": "Python", "kind": "skill", "must": True, "status": "not_met", "evidence_id": ""},
            {"requirement": "Scala", "kind": "skill", "must": True, "status": "not_met", "evidence_id": ""}]}]}
    expl = explain_match(result, "x", jd_text="Requirements: Python.")
    assert expl["model"]["used"] and expl["model"]["added_requirements"] == ["Scala"]
    assert "Scala" in expl["model"]["text"]


@pytest.mark.parametrize("suffix", [".html", ".txt"])
def test_the_candidate_facing_export_names_nobody_else_and_is_audited(svc, tmp_path, suffix):
    result = svc.assistant.match_jd(JD, use_llm=False, limit=None)
    expl = svc.jobs.explain_match(result, "cand_ben")  # ranked among the others: neighbours above and below
    before = len(svc.compliance.audit_entries())
    out = svc.jobs.export_explanation(expl, tmp_path / f"why{suffix}", title="Backend engineer")
    text = out.read_text(encoding="utf-8")
    assert "Ben Ortiz" in text and f"of {len(PEOPLE)}" in text and "Backend engineer" in text
    others = [(p["cid"], p["name"]) for p in PEOPLE if p["cid"] != "cand_ben"]
    leaks = [s for cid, name in others for s in (cid, name, name.split()[0]) if s in text]
    assert leaks == []  # neither the people ranked above nor those below
    [entry] = svc.compliance.audit_entries()[before:]
    assert entry["action"] == "export.explanation" and entry["person"].startswith("P-")
    assert entry["details"]["format"] == suffix[1:] and entry["details"]["rank"] == expl["rank"]
    dumped = json.dumps(entry, ensure_ascii=False)
    assert "Ben" not in dumped and "React" not in dumped  # ids and counts only, never CV text


def test_a_ranked_search_row_explained_by_the_words_its_cv_states(svc):
    expl = svc.search.explain_search("Kafka streaming pipelines", "cand_ana")
    assert expl["kind"] == "search" and expl["rank"] == 1 and expl["main"]
    words = {r["requirement"]: r for r in expl["requirements"]}
    assert words["kafka"]["status"] == "met" and "Kafka" in words["kafka"]["evidence"]["line"]
    assert words["kafka"]["evidence"]["file"] == "cand_ana.pdf"
    assert "reciprocal rank fusion" in expl["rule"] and "No language model" in expl["model"]["text"]
    text = explanation_text(expl)
    assert "Kafka" in text and "Ranked 1 of" in text
    other = svc.search.explain_search("Kafka streaming pipelines", "cand_ben") if any(
        p["person_id"] == "cand_ben" for p in _people(svc, "Kafka streaming pipelines")) else None
    if other is not None:
        assert other["rank"] > 1 and "kafka" in other["flags"]
    with pytest.raises(NotFound):
        svc.search.explain_search("Kafka streaming pipelines", "no-such-person")


def _people(svc, query):
    from cvrag_desktop.assistant.jobmatch.rank_explain import rank_search_people

    found = svc.search.search_with_floor(query, None, 200, "hybrid")
    return rank_search_people(found["main"], found["weaker"], lambda d: d)


def test_a_rejection_is_a_human_status_change_with_an_optional_reason(svc):
    n = len(svc.compliance.audit_entries())
    svc.screening.set_screening(["cand_ben"], status="rejected", reason="Requirements not met")
    svc.screening.set_screening(["cand_cara"], status="rejected", reason="Prefers Java, see her Globex role")
    svc.screening.set_screening(["cand_dan"], status="rejected")
    got = svc.compliance.audit_entries()[n:]
    assert [e["action"] for e in got] == ["screening.status"] * 3
    assert got[0]["details"]["reason"] == "requirements_not_met"
    assert got[1]["details"] == {"from": "new", "to": "rejected", "reason": "other", "reason_chars": 33}
    assert "reason" not in got[2]["details"]
    assert "Globex" not in json.dumps(svc.compliance.audit_entries(), ensure_ascii=False)
    assert svc.screening.screening_of(["cand_cara"])["cand_cara"]["reason"] == "Prefers Java, see her Globex role"
    svc.screening.set_screening(["cand_cara"], status="rejected", reason="Position filled")  # same status, new reason
    assert svc.compliance.audit_entries()[-1]["action"] == "screening.reason"
    svc.screening.set_screening(["cand_cara"], status="interview")  # a new status clears the old reason
    assert svc.screening.screening_of(["cand_cara"])["cand_cara"]["reason"] == ""
    with pytest.raises(InvalidInput, match="status"):
        svc.screening.set_screening(["cand_ben"], reason="no status")


def test_the_cited_line_is_the_one_that_shows_the_requirement():
    text = "2019 – present Engineer at Initech\nSkills: Python, Kafka\nLanguages: English"
    assert cited_line(text, "Kafka") == "Skills: Python, Kafka"
    assert cited_line(text, "English") == "Languages: English"
    assert cited_line("Summary\n2015 – 2019 Analyst", kind="years") == "2015 – 2019 Analyst"
    assert cited_line(text, "Rust") == "2019 – present Engineer at Initech"
