"""Analytics in code over the catalog: exact results, each fact cited by the chunk that shows it."""

from __future__ import annotations

from cvrag_desktop.assistant.facts.store import holds


def _check_citations(result):
    given = set(result["evidence_ids"])
    for c in result["citations"]:
        assert c["evidence_id"] in given
        for fact in c["facts"]:
            assert holds(c["full_text"], fact["value"], fact["kind"]), (c, fact)


def test_longest_tenure(assistant):
    r = assistant.ask("Who stayed longest at one job?", use_llm=False)
    assert r["route"] == "analytics" and r["status"] == "answered" and r["mode"] == "deterministic"
    assert r["data"]["candidate_ids"] == ["cand_cara"]
    assert r["data"]["years"] == 14.3  # 2012-03-01 .. 2026-06-01
    assert "Cara Lopez" in r["answer"] and "Globex" in r["answer"]
    assert [c["chunk_id"] for c in r["citations"]] == ["cand_cara-5"]
    _check_citations(r)


def test_counts_lists_and_degree_levels(assistant):
    r = assistant.ask("How many candidates speak German?", use_llm=False)
    assert r["data"]["count"] == 2 and set(r["matches"]) == {"cand_ana", "cand_dan"}
    _check_citations(r)
    r = assistant.ask("How many candidates have a PhD?", use_llm=False)
    assert r["data"]["count"] == 1 and r["matches"] == ["cand_cara"]
    assert r["citations"][0]["section"] == "education"
    r = assistant.ask("How many candidates know COBOL?", use_llm=False)
    assert r["status"] == "unknown" and not r["citations"]


def test_skill_years_and_experience(assistant):
    r = assistant.ask("Who has the most years of experience with Kafka?", use_llm=False)
    assert r["data"]["candidate_ids"] == ["cand_ana"]
    _check_citations(r)
    r = assistant.ask("Who is the least experienced candidate?", use_llm=False)
    assert r["data"]["candidate_ids"] == ["cand_ben"]


def test_compare_two_named_candidates(assistant):
    r = assistant.ask("Compare Ana Núñez and Ben Ortiz", use_llm=False)
    assert r["status"] == "answered"
    assert {c["candidate_id"] for c in r["citations"]} == {"cand_ana", "cand_ben"}
    assert "11.4 years" in r["answer"] and "4.0 years" in r["answer"]
    assert len(r["sources"]) == 2  # one source per candidate for the display list
    _check_citations(r)


def test_lookup_and_missing_field(assistant):
    r = assistant.ask("What is Ana Núñez's email?", use_llm=False)
    assert "cand_ana@example.com" in r["answer"] and r["citations"][0]["section"] == "contact"
    r = assistant.ask("What is Ben Ortiz's phone number?", use_llm=False)
    assert r["status"] == "unknown" and "does not state a phone number" in r["answer"]


def test_filter_answers_cite_every_fact(assistant):
    r = assistant.ask("Who knows Kafka and speaks German?", use_llm=False)
    assert r["route"] == "metadata" and r["matches"] == ["cand_ana"]
    kinds = {f["kind"] for c in r["citations"] for f in c["facts"]}
    assert kinds == {"skills", "languages"}
    _check_citations(r)


def test_unanswerable_and_out_of_scope(assistant):
    r = assistant.ask("What are Ana Núñez's salary expectations?", use_llm=False)
    assert r["status"] == "unknown" and "does not state a salary" in r["answer"]
    r = assistant.ask("What's the weather in Paris?", use_llm=False)
    assert r["route"] == "out_of_scope" and r["status"] == "unknown" and not r["citations"]
    r = assistant.ask("What is Zebulon Quartermaine's phone number?", use_llm=False)
    assert r["status"] == "unknown"


def test_extractive_answer_quotes_supporting_lines(assistant):
    r = assistant.ask("Who built event streaming pipelines?", use_llm=False)
    assert r["status"] == "answered" and r["mode"] == "deterministic"
    assert "extractive" in r["answer"]
    assert r["citations"] and all(c["candidate_id"] == "cand_ana" for c in r["citations"])



def test_longest_at_a_named_employer_joins_the_roles_there(assistant):
    """"Who stayed longest at Globex?" measures each person's stay at Globex (roles there joined, overlaps once),
    not their longest role anywhere."""
    r = assistant.ask("Which Globex employee stayed longest at Globex?", use_llm=False)
    assert r["route"] == "analytics" and r["status"] == "answered"
    assert r["answer"].startswith("The longest time at Globex (roles there joined):")
    assert r["data"]["candidate_ids"] == ["cand_cara"] and r["data"]["years"] == 14.3
    _check_citations(r)
