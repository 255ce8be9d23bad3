"""The no-LLM router: routes, filters from the alias tables and the catalog, analytics operations."""

from __future__ import annotations

import pytest

from cvrag_desktop.assistant.understand.router import parse_question
from cvrag_desktop.assistant.understand.vocabulary import build_vocabulary
from cvrag_desktop.text.vocab.degrees import degree_level


@pytest.fixture
def vocab(catalog):
    return build_vocabulary(catalog)


@pytest.mark.parametrize("question, route, filters", [
    ("Who knows Kafka?", "metadata", {"skills": ["Kafka"]}),
    ("who has golang and 5+ years?", "metadata", {"skills": ["Go"], "min_years": 5}),
    ("Who speaks German?", "metadata", {"languages": ["German"]}),
    ("Candidates who worked at Globex", "metadata", {"companies": ["Globex"]}),
    ("Who has Kafka experience building event pipelines?", "hybrid_filtered", {"skills": ["Kafka"]}),
    ("Who built event streaming pipelines?", "hybrid", {}),
    ("What's the weather in Paris?", "out_of_scope", {}),
    ("Tell me a joke", "out_of_scope", {}),
])
def test_routes_and_filters(vocab, question, route, filters):
    plan = parse_question(question, vocab)
    assert plan.route == route
    assert plan.filters == filters


@pytest.mark.parametrize("question, op", [
    ("Who stayed longest at one job?", "longest_tenure"),
    ("Which candidate had the shortest job?", "shortest_tenure"),
    ("Who has the most years of experience?", "most_experience"),
    ("Who has the most years of experience with Python?", "skill_years"),
    ("How many candidates have a PhD?", "count"),
    ("List everyone in Madrid", "list"),
    ("Compare Ana Núñez and Ben Ortiz", "compare"),
    ("What is Cara Lopez's education?", "lookup"),
])
def test_analytics_operations(vocab, question, op):
    plan = parse_question(question, vocab)
    assert plan.route == "analytics" and plan.op == op


def test_names_and_pronouns_resolve_to_candidates(vocab):
    assert parse_question("Where does Núñez live?", vocab).candidates == ["cand_ana"]
    plan = parse_question("what about her education?", vocab, context_candidates=["cand_cara"])
    assert plan.candidates == ["cand_cara"] and plan.op == "lookup" and plan.field == "education"


def test_a_field_we_do_not_hold_searches_the_named_cv(vocab):
    plan = parse_question("What are Ana Núñez's salary expectations?", vocab)
    assert plan.route == "hybrid_filtered" and plan.candidates == ["cand_ana"]
    assert plan.terms == ["salary", "expectations"]


@pytest.mark.parametrize("degree, level", [
    ("Ph.D. in Physics", "phd"), ("Doctorado en Química", "phd"), ("Máster en Finanzas", "master"),
    ("M.Sc. Informatik", "master"), ("Grado en Ingeniería Informática", "bachelor"), ("BSc Computer Science", "bachelor"),
    ("Ciclo Formativo de Grado Superior en Administración", "vocational"), ("Laurea magistrale in Fisica", "master"),
    ("Laurea in Economia", "bachelor"), ("Diplôme d'ingénieur en Informatique", "master"), ("BTS Commerce", "vocational"),
])
def test_degree_levels(degree, level):
    assert degree_level(degree) == level


def test_unknown_person_but_not_an_unknown_employer(vocab):
    from cvrag_desktop.assistant.understand.router import looks_like_unknown_name

    plan = parse_question("What is Zoe Quill's phone number?", vocab)
    assert looks_like_unknown_name("What is Zoe Quill's phone number?", plan) == "Zoe Quill"
    q = "Who worked at Istituto Comprensivo Cividale?"
    assert looks_like_unknown_name(q, parse_question(q, vocab)) is None
