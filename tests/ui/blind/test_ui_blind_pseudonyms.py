"""One person, one pseudonym: on a library with namesakes (two people named Ana Ruiz, one of them with two
CVs) the table, the chat, the job match, the CSV exports and the audit viewer call everyone by the same
``Candidate XXXX`` made from the person id; the namesakes by two different ones. Invented people."""

from __future__ import annotations

import csv

import pytest

from cvrag_desktop.catalog.privacy.blind import pseudonym


@pytest.fixture
def library(services):
    """a1 and a2: one Ana (a2 her newer CV, the person's id); a3: another Ana; b1: Ben."""
    from tests.support.people_docs import ANA_NEW, ANA_OLD, ANA_OTHER, BEN, add_document

    lib = services.paths.data_dir / "library"
    for cid, cv in (("a1", ANA_OLD), ("a2", ANA_NEW), ("a3", ANA_OTHER), ("b1", BEN)):
        add_document(services.catalog, cid, cv, lib)
    services.blind.set_blind(True)
    return services


def _csv_names(path) -> dict[str, str]:
    with open(path, encoding="utf-8-sig", newline="") as f:
        return {r["Candidate id"]: r["Name"] for r in csv.DictReader(f)}


def test_every_view_names_a_person_by_one_pseudonym_and_namesakes_apart(qtbot, library, tmp_path):
    from cvrag_desktop.ui.blind_mode import BlindMode, blind_match, blind_result, blind_titles

    svc = library
    ana, other, ben = pseudonym("a2"), pseudonym("a3"), pseudonym("b1")
    assert len({ana, other, ben}) == 3
    people = svc.people.list_people(with_documents=True)
    assert {p["id"] for p in people} == {"a2", "a3", "b1"}  # a1 is a document of person a2
    blind = BlindMode(svc)
    assert blind.enabled
    # table: the person row and each of its document rows
    table = {r["id"]: r for r in blind.table_rows(people)}
    assert table["a2"]["name"] == ana and table["a3"]["name"] == other and table["b1"]["name"] == ben
    assert {d["name"] for d in table["a2"]["document_rows"]} == {ana}
    # chat: a citation of Ana's older CV and one of the namesake; the answer names both by their own
    answer = {"answer": "Ana Ruiz (Northwind) and Ana Ruiz (City Hospital) both know Python.",
              "citations": [{"candidate_id": "a1", "quote": "Ana Ruiz, Developer"},
                            {"candidate_id": "a3", "quote": "Ana Ruiz, Nurse"}]}
    shown = blind_result(blind, answer, people)
    assert shown["citations"][0]["quote"] == f"{ana}, Developer"
    assert shown["citations"][1]["quote"] == f"{other}, Nurse"
    assert "Ana" not in shown["answer"] and ana in shown["answer"] and other in shown["answer"]
    one = blind_result(blind, {"answer": "Ana Ruiz fits.", "citations": [{"candidate_id": "a3", "quote": "x"}]},
                       people)
    assert one["answer"] == f"{other} fits."  # a shared name in the answer: the person it cites
    # conversation titles
    titles = blind_titles(blind, [{"thread_id": "t", "title": "Is Ana Ruiz a nurse?"}], people)
    assert "Ana" not in titles[0]["title"] and other in titles[0]["title"]
    # job match: rows carry the document that matched and its person
    match = {"candidates": [{"candidate_id": "a1", "person_id": "a2", "name": "Ana Ruiz", "evidence": []},
                            {"candidate_id": "a3", "person_id": "a3", "name": "Ana Ruiz", "evidence": []}],
             "requirements": []}
    assert [c["name"] for c in blind_match(blind, match, people)["candidates"]] == [ana, other]
    from cvrag_desktop.assistant.jobmatch.export import pseudonymous

    assert [c["name"] for c in pseudonymous(match)["candidates"]] == [ana, other]
    # CSV: the documents list (a1 and a2 are one person) and the people list
    docs_csv = tmp_path / "documents.csv"
    svc.screening.export_candidates_csv(svc.people.list_candidates(), docs_csv, blind=True)
    assert _csv_names(docs_csv) == {"a1": ana, "a2": ana, "a3": other, "b1": ben}
    people_csv = tmp_path / "people.csv"
    svc.screening.export_candidates_csv(people, people_csv, blind=True)
    assert _csv_names(people_csv) == {"a2": ana, "a3": other, "b1": ben}
    # audit: a reveal of Ana's older CV is shown under her pseudonym
    svc.blind.reveal_candidate("a1", reason="interview")
    entries = [e for e in svc.compliance.audit_entries() if e["action"] == "blind.reveal"]
    assert [e["pseudonym"] for e in entries] == [ana]
    svc.blind.reveal_candidate("a3", reason="interview")
    trail = tmp_path / "audit.csv"
    svc.compliance.audit_export(trail, action="blind.reveal")
    with open(trail, encoding="utf-8-sig", newline="") as f:
        assert [r["pseudonym"] for r in csv.DictReader(f)] == [ana, other]  # the audit CSV too, namesakes apart


def test_a_real_job_match_names_the_person_not_the_document(qtbot, library):
    from cvrag_desktop.assistant.jobmatch.matrix import match_job
    from cvrag_desktop.ui.blind_mode import BlindMode, blind_match

    svc = library
    result = match_job(svc.assistant, "Requirements: Python", use_llm=False, limit=None)
    shown = blind_match(BlindMode(svc), result, svc.people.list_people(with_documents=True))
    names = {c["person_id"]: c["name"] for c in shown["candidates"]}
    assert names and all(n == pseudonym(pid) for pid, n in names.items())
    assert set(names) <= {"a2", "a3", "b1"} and "a2" in names and "a3" in names


def test_best_match_snippets_lose_name_contacts_and_address(qtbot, library):
    from cvrag_desktop.ui.blind_mode import BlindMode, blind_hits
    from cvrag_desktop.ui.ranking import PersonHit

    hit = PersonHit("a2", 1.0, document_id="a1", page=0, section="contact",
                    text="Ana Ruiz, 42 Quillfeather Street, Nowhere ZZ1 9QQ, ana.ruiz@ruizmail.net. Python lead.",
                    terms=["python"])
    [shown] = blind_hits(BlindMode(library), library, [hit])
    assert "Ana" not in shown.text and "Quillfeather" not in shown.text and "ZZ1" not in shown.text
    assert "ruizmail" not in shown.text and "Python lead" in shown.text
