"""Fields of work and certificates: "who worked in banking?", "how many years of teaching has X?",
"where did X work the longest?", "which candidates have a certificate from Google?".
Every person here is invented."""

from __future__ import annotations

import pytest

from cvrag_desktop.assistant.facts.work_fields import describe_span, fields_in, role_fields
from cvrag_desktop.domain import Chunk, Experience, NormalizedCV
from tests.unit.assistant.conftest import AS_OF, assistant_over

PEOPLE = [
    # a teacher with three schools (the titles lost, as a Word table can lose them) and a tutoring gig
    dict(cid="cand_tess", name="Tess Marlowe", roles=[
        ("Oakfield Charter Schools", "Oakfield Academy", "2014-02", "2018-08"),
        ("Math Teacher", "Riverside High School", "2013-08", "2014-01"),
        ("Brookline High School", "Brookline School District", "2012-09", "2013-06"),
        ("Data Analyst", "Quarry Analytics", "2018-10", None)], certs=[], skills=["Python"]),
    # banks, one of them as a salesperson (a sector counts its employers whatever the title)
    dict(cid="cand_bo", name="Bogna Wierzba", roles=[
        ("Tester IT", "Probnik Labs", "2019-01", None),
        ("Konsultant ds. klienta", "Bank Horyzont SA", "2012-04", "2017-09"),
        ("Specjalista ds. Sprzedaży", "Sygnet Banque SA", "2010-10", "2012-02"),
        ("Doradca", "Lazur Bank SA", "2009-06", "2010-05")],
         certs=["Kurs marketingu online", "Google", "ISTQB Foundation Level"], skills=["SQL"]),
    # an IT technician at a school district is no teacher; Google is a skill here, not a certificate
    dict(cid="cand_ivo", name="Ivo Castellan", roles=[
        ("IT Technician", "Northgate School District", "2011-04", "2014-07"),
        ("Desktop Support Manager", "Pellham Systems Inc.", "2014-08", None)],
         certs=["Google IT Support Professional Certificate - Coursera", "Professional Scrum Master"],
         skills=["Google Analytics"]),
    dict(cid="cand_ada", name="Ada Quist", roles=[("Marketing Lead", "Brightline Media", "2019-01", None)],
         certs=["Advanced Cardiovascular Life Support (ACLS), AHA", "Driving licence, category B"],
         skills=["Google Analytics", "SEO"]),
    dict(cid="cand_noor", name="Noor Halvard", roles=[
        ("Charge Nurse", "St. Brigid Medical Center", "2019-03", None),
        ("Staff Nurse", "Harbor General Hospital", "2015-01", "2019-02")],
         certs=["Registered Nurse (RN), State Board of Nursing, License #000000, Active",
                "Advanced Cardiovascular Life Support (ACLS), AHA"], skills=["Patient Care"]),
    dict(cid="cand_lev", name="Lev Ostrander", roles=[("Registered Nurse", "Lakeside Clinic", "2021-05", None)],
         certs=["Basic Life Support (BLS), American Heart Association"], skills=["Triage"]),
]


def _cv(p: dict) -> NormalizedCV:
    exps = [Experience(title=t, company=c, start=s, end=e, is_current=e is None) for t, c, s, e in p["roles"]]
    return NormalizedCV(name=p["name"], emails=[p["cid"] + "@example.com"], experiences=exps, skills=p["skills"],
                        certifications=p["certs"]).with_derived(AS_OF)


def _chunks(p: dict) -> list[Chunk]:
    texts = [("contact", f"{p['name']}\n{p['cid']}@example.com"), ("skills", "Skills: " + ", ".join(p["skills"]))]
    texts += [("experience", f"{t}, {c}, {s} – {e or 'present'}") for t, c, s, e in p["roles"]]
    if p["certs"]:
        texts.append(("certifications", "\n".join(p["certs"])))
    return [Chunk(chunk_id=f"{p['cid']}-{i}", candidate_id=p["cid"], section=sec, ordinal=i, text=text,
                  header=p["name"], page=0) for i, (sec, text) in enumerate(texts)]


@pytest.fixture
def work_assistant():
    """An assistant over the invented people above (no language model)."""
    yield from assistant_over((p["cid"], _cv(p), _chunks(p)) for p in PEOPLE)


def _cited(r: dict) -> set[str]:
    return {c["candidate_id"] for c in r["citations"]}


def test_a_field_is_read_from_the_question_in_several_languages():
    assert [f.fid for f, _ in fields_in("who has experience in banking?")] == ["banking"]
    assert [f.fid for f, _ in fields_in("Welche Kandidaten arbeiten in der Pflege?")] == ["nursing"]
    assert [f.fid for f, _ in fields_in("W którym banku pracowała najdłużej?")] == ["banking"]
    assert fields_in("Who knows Business Development?", taken="business development") == []
    assert fields_in("Is it on her CV?") == []  # "it" is a word, not the IT field


def test_a_title_decides_a_profession_and_an_employer_decides_a_sector():
    assert role_fields({"title": "Math Teacher", "company": "Quarry Analytics"}) == {"teaching"}
    assert role_fields({"title": "Riverside High School", "company": "Riverside School District"}) == {"teaching"}
    assert "teaching" not in role_fields({"title": "IT Technician", "company": "Northgate School District"})
    assert role_fields({"title": "Specjalista ds. Sprzedaży", "company": "Sygnet Banque SA"}) == {"sales", "banking"}


def test_a_span_is_said_the_way_a_person_says_it():
    assert describe_span(int(4.96 * 365.25)) == "about 5 years (5.0 years)"
    assert describe_span(300) == "about 10 months"


def test_years_in_a_field_join_the_roles_in_it(work_assistant):
    r = work_assistant.ask("how many yrs of teaching exp does Tess have?", use_llm=False)
    assert r["status"] == "answered" and r["route"] == "analytics"
    assert "about 6 years (5.9 years)" in r["answer"] and "3 dated roles" in r["answer"]
    assert "Quarry Analytics" not in r["answer"]  # her analyst job is not teaching
    assert _cited(r) == {"cand_tess"} and len(r["citations"]) == 3


def test_years_at_named_employers_together(work_assistant):
    r = work_assistant.ask("How many years did Bogna spend at Horyzont and Sygnet combined?", use_llm=False)
    assert r["status"] == "answered"
    assert "Bank Horyzont SA and Sygnet Banque SA" in r["answer"] and "6.9 years" in r["answer"]
    assert "Lazur" not in r["answer"]


def test_years_in_a_sector_count_a_salesperson_at_a_bank(work_assistant):
    r = work_assistant.ask("Roughly how many years did Bogna work in banks before she moved into testing?",
                           use_llm=False)
    assert "about 8 years" in r["answer"] and "Sygnet Banque SA" in r["answer"] and "Probnik" not in r["answer"]


def test_longest_stay_of_one_person_in_a_field_in_polish(work_assistant):
    r = work_assistant.ask("W którym banku Bogna Wierzba pracowała najdłużej?", use_llm=False)
    assert r["status"] == "answered" and "worked longest in banking at Bank Horyzont SA" in r["answer"]
    assert _cited(r) == {"cand_bo"}


def test_who_worked_in_a_field_lists_only_people_with_a_role_there(work_assistant):
    r = work_assistant.ask("who has experiance in banking?", use_llm=False)
    assert r["status"] == "answered" and r["data"]["candidate_ids"] == ["cand_bo"]
    r = work_assistant.ask("How many nurses are there?", use_llm=False)
    assert r["data"]["count"] == 2 and set(r["data"]["candidate_ids"]) == {"cand_noor", "cand_lev"}
    assert "Ivo" not in r["answer"]
    r = work_assistant.ask("Which candidates are lawyers?", use_llm=False)
    assert r["status"] == "unknown" and not r["citations"]  # a profession no one has: no one listed


def test_certificate_by_issuer_reads_certifications_not_skills(work_assistant):
    r = work_assistant.ask("which candidates have a certificate from Google?", use_llm=False)
    assert r["status"] == "answered"
    assert set(r["data"]["candidate_ids"]) == {"cand_bo", "cand_ivo"}  # Ada lists Google Analytics as a skill
    assert all(c["section"] == "certifications" for c in r["citations"])


def test_certificate_count_within_a_field(work_assistant):
    r = work_assistant.ask("how many of the nurses have an ACLS cert?", use_llm=False)
    assert r["data"]["count"] == 1 and r["data"]["candidate_ids"] == ["cand_noor"]  # Ada has ACLS, not a nurse
    assert "ACLS" in r["answer"]


def test_a_certificate_no_one_lists_falls_back_to_the_cv_text(work_assistant):
    r = work_assistant.ask("Who has a PMP certificate?", use_llm=False)
    assert r["status"] == "unknown", r["answer"]


def test_licences_by_kind_within_a_field(work_assistant):
    r = work_assistant.ask("Which nurses have a licence?", use_llm=False)
    assert r["status"] == "answered" and r["data"]["candidate_ids"] == ["cand_noor"]  # Lev lists BLS only
    assert "License #000000" in r["answer"]
    r = work_assistant.ask("Who has a driving licence?", use_llm=False)
    assert r["data"]["candidate_ids"] == ["cand_ada"]


def test_holding_a_degree_is_no_certificate_question(work_assistant):
    for q in ("Who holds a master's degree?", "Who holds a master?"):  # Ivo's "Professional Scrum Master" is no degree
        r = work_assistant.ask(q, use_llm=False)
        assert "certificate" not in r["answer"] and "cand_ivo" not in (r.get("matches") or [])
