"""Strategies, filter exactness, small-to-big and citation dedup over a fixture catalog."""

from __future__ import annotations

from cvrag_desktop.index.citations import dedupe_by_candidate
from cvrag_desktop.index.embeddings import sparse_text

ALL = {"cand_ana", "cand_ben", "cand_cara", "cand_dan"}


def cands(hits):
    return [h["candidate_id"] for h in hits]


def test_hybrid_ranks_exact_tokens_first(service):
    assert cands(service.search("Kafka", k=3))[0] == "cand_ana"
    assert cands(service.search("C#", k=3))[0] == "cand_ben"
    assert cands(service.search("C++", k=3))[0] == "cand_cara"
    assert cands(service.search("golang", k=3))[0] == "cand_ana"  # alias of Go


def test_hybrid_finds_meaning(service):
    assert cands(service.search("people management, leading engineers", k=3))[0] == "cand_cara"
    assert cands(service.search("hospital healthcare worker", k=3))[0] == "cand_dan"


def test_hits_carry_the_documented_fields(service):
    h = service.search("Kafka", k=1)[0]
    assert {"chunk_id", "candidate_id", "candidate_name", "section", "page", "score", "text"} <= set(h)
    assert h["candidate_name"] == "Ana Núñez" and isinstance(h["score"], float)


def test_metadata_filters_are_exact(service):
    def ids(**f):
        return set(cands(service.search("", f, k=50, strategy="metadata")))

    assert ids(skills=["kafka"]) == {"cand_ana"}
    assert ids(skills=["golang"]) == {"cand_ana"}
    assert ids(languages=["Alemán"]) == {"cand_ana", "cand_dan"}
    assert ids(languages=["spanish", "english"]) == {"cand_cara"}
    assert ids(companies=["Acme Logistics S.A"]) == {"cand_ana", "cand_cara"}
    assert ids(companies=["globex"]) == {"cand_ana", "cand_cara"}
    assert ids(degrees=["PhD"]) == {"cand_cara"}
    assert ids(institutions=["complutense"]) == {"cand_cara"}
    assert ids(titles=["engineer"]) == {"cand_ben"}
    assert ids(names=["nunez"]) == {"cand_ana"}
    assert ids(min_years=5) == {"cand_ana", "cand_cara"}
    assert ids(min_years=3, max_years=4) == {"cand_ben", "cand_dan"}
    assert ids(certifications=["aws certified"]) == {"cand_ana"}
    assert ids(skills=["cobol"]) == set()


def test_metadata_prefers_the_section_holding_the_fact(service):
    hits = service.search("", {"companies": ["Acme Logistics"]}, strategy="metadata")
    assert {h["section"] for h in hits} == {"experience"}
    cara = next(h for h in hits if h["candidate_id"] == "cand_cara")
    assert "Acme Logistics" in cara["text"]  # the child chunk naming the company, not its sibling
    assert {h["section"] for h in service.search("", {"degrees": ["phd"]}, strategy="metadata")} == {"education"}
    assert len(cands(hits)) == len(set(cands(hits)))  # one hit per candidate


def test_filtered_strategy_ranks_only_filter_passing_chunks(service):
    hits = service.search("streaming pipelines", {"min_years": 5}, k=20, strategy="filtered")
    assert set(cands(hits)) <= {"cand_ana", "cand_cara"}
    assert hits[0]["candidate_id"] == "cand_ana"
    hybrid = service.search("frontend react", {"languages": ["german"]}, k=20)
    assert set(cands(hybrid)) <= {"cand_ana", "cand_dan"}


def test_small_to_big_child_carries_parent_text(service):
    hits = service.search("", {"companies": ["globex"]}, strategy="metadata")
    cara = next(h for h in hits if h["candidate_id"] == "cand_cara")
    assert cara["parent_id"] == "cand_cara-exp"
    assert "Acme Logistics" in cara["parent_text"] and "Globex" in cara["parent_text"]


def test_citations_deduplicate_per_candidate_not_search(service):
    hits = service.search("Kafka streaming Ana", k=8)
    assert len(cands(hits)) > len(set(cands(hits)))  # search keeps several chunks of one CV
    assert cands(dedupe_by_candidate(hits)) == list(dict.fromkeys(cands(hits)))


def test_sparse_text_keeps_symbol_skills_apart():
    assert "csharp" in sparse_text("C# and .NET")
    assert "dotnet" in sparse_text("C# and .NET")
    assert "cplusplus" in sparse_text("C++")
    assert "german" in sparse_text("Alemán: nativo")
