"""Years bounds as every listed language writes them; "more than N" is strict, "at least N" is not."""

from __future__ import annotations

import math

import pytest

from cvrag_desktop.assistant.understand.numbers import describe_years, extract_years
from cvrag_desktop.assistant.understand.question import question_language, stopwords
from cvrag_desktop.text.rules import years_pass

MORE_THAN_10 = {"min_years": 10, "years_more_than": 10}


@pytest.mark.parametrize("question, expected", [
    ("who has more than 10 years?", MORE_THAN_10),
    ("Wer hat mehr als 10 Jahre Erfahrung?", MORE_THAN_10),
    ("¿Quién tiene más de 10 años de experiencia?", MORE_THAN_10),
    ("Qui a plus de 10 ans d'expérience ?", MORE_THAN_10),
    ("Chi ha più di 10 anni di esperienza?", MORE_THAN_10),
    ("Quem tem mais de 10 anos de experiência?", MORE_THAN_10),
    ("Wie heeft meer dan 10 jaar ervaring?", MORE_THAN_10),
    ("Kto ma ponad 10 lat doświadczenia?", MORE_THAN_10),
    ("Kto ma więcej niż 10 lat doświadczenia?", MORE_THAN_10),
    ("谁有超过10年的经验？", MORE_THAN_10),
    ("10年以上の経験がある候補者は？", {"min_years": 10}),  # 以上 includes ten
    ("有10年以上经验的候选人", {"min_years": 10}),
    ("at least 5 years of Python", {"min_years": 5}),
    ("mindestens 5 Jahre", {"min_years": 5}),
    ("co najmniej 5 lat", {"min_years": 5}),
    ("5+ years", {"min_years": 5}),
    ("10 years or more", {"min_years": 10}),
    ("less than 3 years", {"max_years": 2}),
    ("menos de 3 años", {"max_years": 2}),
    ("no more than 5 years", {"max_years": 5, "years_at_most": 5}),  # not also "more than 5"
    ("between 2 and 5 years", {"min_years": 2, "max_years": 5, "years_at_most": 5}),
    ("zwischen 2 und 5 Jahren", {"min_years": 2, "max_years": 5, "years_at_most": 5}),
    ("who worked at Acme in 2019?", {}),
    ("Python 3 years", {}),
])
def test_years_phrases_in_every_listed_language(question, expected):
    assert extract_years(question) == expected


def test_more_than_is_strict_and_at_least_is_not():
    assert not years_pass(10.0, MORE_THAN_10)
    assert years_pass(10.5, MORE_THAN_10)
    assert years_pass(10.0, extract_years("at least 10 years"))
    assert years_pass(5.0, extract_years("at most 5 years"))
    assert not years_pass(5.5, extract_years("at most 5 years"))
    assert describe_years(MORE_THAN_10) == ["with more than 10 years of experience"]


def test_more_than_keeps_a_fraction_above_the_bound(assistant, catalog):
    """A person with 11.4 years has more than 11 years (whole-year "12+" would drop them)."""
    from cvrag_desktop.assistant.facts.store import CatalogFacts

    facts = CatalogFacts(catalog)
    years = {f.name: f.years for f in facts.all().values()}
    name, y = next((n, y) for n, y in years.items() if y and y != math.floor(y))
    n = math.floor(y)
    above = facts.matching(extract_years(f"more than {n} years"))
    assert name in {f.name for f in above}
    assert all(f.years > n for f in above)
    result = assistant.ask(f"Who has more than {n} years of experience?", use_llm=False)
    assert name in result["answer"]
    assert f"more than {n} years" in result["answer"]


def test_polish_is_a_listed_language():
    assert question_language("Kto zna język niemiecki?") == "pl"
    assert {"kto", "ktory", "gdzie"} <= stopwords("pl")


@pytest.mark.parametrize("question", ["Who is currently at Globex?", "Wer arbeitet derzeit bei Globex?",
                                      "¿Quién trabaja actualmente en Globex?", "Kto obecnie pracuje w Globex?",
                                      "Wie werkt momenteel bij Globex?", "目前谁在Globex工作？"])
def test_currently_in_every_listed_language(question):
    from cvrag_desktop.assistant.understand.question import says_currently

    assert says_currently(question)


def test_before_and_after_are_data():
    from cvrag_desktop.assistant.understand.intents import AFTER, BEFORE
    from cvrag_desktop.text.fold import fold

    assert BEFORE.search(fold("Gdzie pracowała przed Globex?")) and BEFORE.search(fold("Wo war sie vor Globex?"))
    assert AFTER.search(fold("Dove ha lavorato dopo Globex?")) and AFTER.search(fold("O que fez após a Globex?"))


@pytest.mark.parametrize("question", ["Qui a le permis de conduire ?", "Kto ma prawo jazdy?", "Chi ha la patente?"])
def test_a_who_question_in_another_language_is_in_scope(vocab_and_people, question):
    from cvrag_desktop.assistant.understand.router import parse_question

    vocab, people = vocab_and_people
    assert parse_question(question, vocab, None, people).route != "out_of_scope"


def test_a_word_many_cvs_use_is_not_read_as_a_name_from_a_cv_header(catalog):
    from cvrag_desktop.assistant.facts.people import PeopleIndex, find_mentions
    from cvrag_desktop.assistant.facts.store import CatalogFacts

    people = PeopleIndex(CatalogFacts(catalog))
    word = "madrid"  # on the top lines of one fixture CV (its location), in no name
    assert sum(f" {word} " in head for head in people.headers().values()) == 1
    assert find_mentions(f"who has {word}?", people, {"who", "has"})  # an unread name on the top lines ...
    assert not find_mentions(f"who has {word}?", people, {"who", "has"}, frozenset({word}))  # ... unless common


@pytest.fixture
def vocab_and_people(catalog):
    from cvrag_desktop.assistant.facts.people import PeopleIndex
    from cvrag_desktop.assistant.facts.store import CatalogFacts
    from cvrag_desktop.assistant.understand.vocabulary import build_vocabulary

    return build_vocabulary(catalog), PeopleIndex(CatalogFacts(catalog))


@pytest.mark.parametrize("question", ["Who has more than 3 years of experience?", "¿Quién tiene más de 3 años de experiencia?",
                                      "Wer hat mehr als 3 Jahre Erfahrung?", "Kto ma ponad 3 lata doświadczenia?",
                                      "Qui a plus de 3 ans d'expérience ?", "3年以上の経験がある候補者は？"])
def test_a_years_question_in_any_listed_language_is_a_filter(vocab_and_people, question):
    from cvrag_desktop.assistant.understand.router import parse_question

    vocab, people = vocab_and_people
    plan = parse_question(question, vocab, None, people)
    assert plan.filters.get("min_years") == 3
    assert plan.terms == [] and plan.route in ("metadata", "analytics")
