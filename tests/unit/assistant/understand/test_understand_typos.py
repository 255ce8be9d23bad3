"""Misspelt questions are read as the library's own terms, and the answer says what was read."""

from __future__ import annotations

import pytest

from cvrag_desktop.assistant.understand.typos import (
    TermIndex,
    build_terms,
    closest_term,
    correct_question,
    read_as_note,
)
from cvrag_desktop.assistant.understand.vocabulary import build_vocabulary


@pytest.fixture
def terms(catalog) -> TermIndex:
    from cvrag_desktop.assistant.understand.typos import corpus_words

    return build_terms(build_vocabulary(catalog), corpus_words(catalog))


@pytest.mark.parametrize("question, expected, read", [
    ("who knows pyhton?", "who knows Python?", [("pyhton", "Python")]),
    ("Who has kafak and Pyhton?", "Who has Kafka and Python?", [("kafak", "Kafka"), ("Pyhton", "Python")]),
    ("who speaks germna", "who speaks German", [("germna", "German")]),
    ("what is Ortzi's email?", "what is Ortiz's email?", [("Ortzi", "Ortiz")]),  # a candidate's name, swapped letters
    ("who has experiance with Kafka?", "who has experience with Kafka?", [("experiance", "experience")]),
    ("who worked at Globxe?", "who worked at Globex?", [("Globxe", "Globex")]),  # an employer
])
def test_misspelt_words_are_read_as_known_terms(terms, question, expected, read):
    corrected, corrections = correct_question(question, terms)
    assert corrected == expected
    assert [(c.written, c.read) for c in corrections] == read


@pytest.mark.parametrize("question", [
    "Who speaks German?",
    "Welche Kandidaten sprechen Deutsch?",  # German question words are not typos of anything
    "¿Quién habla alemán?",
    "Who built event streaming pipelines?",  # every word is one the CVs or the question lists use
    "Who has ACLS?",  # an acronym the library does not know is not corrected
    "Who knows Kafkas?",  # an inflection of a known word
    "Zoe Quill's phone number",  # a person the library does not know stays unknown
])
def test_known_words_are_never_corrected(terms, question):
    assert correct_question(question, terms) == (question, [])


def test_short_words_need_one_edit_and_the_same_first_letter(terms):
    assert closest_term("Jaca", terms) == "Java"  # one substitution, same first letter
    assert closest_term("Rava", terms) is None  # one substitution, but not the first letter kept
    assert closest_term("Jva", terms) is None  # three letters: too close to too many terms


def test_a_tie_between_two_terms_is_left_alone():
    terms = TermIndex({"kelly": "Kelly", "kelsey": "Kelsey"}, frozenset({"kelly", "kelsey"}))
    assert closest_term("kelsy", terms) is None
    one = TermIndex({"kelsey": "Kelsey"}, frozenset({"kelsey"}))
    assert closest_term("kelsy", one) == "Kelsey"


def test_note_names_every_reading():
    note = read_as_note([{"written": "pyhton", "read": "Python"}, {"written": "dokcer", "read": "Docker"}])
    assert note == "Read 'pyhton' as Python; 'dokcer' as Docker."
    assert read_as_note([]) == ""


def test_answer_says_what_was_read(assistant):
    result = assistant.ask("who knows pyhton?", use_llm=False)
    assert result["status"] == "answered"
    assert result["answer"].startswith("Read 'pyhton' as Python.")
    assert result["read_as"] == [{"written": "pyhton", "read": "Python"}]
    assert {c["candidate_name"] for c in result["citations"]} == {"Ana Núñez"}


def test_a_question_of_only_typos_is_a_clear_unknown(assistant):
    result = assistant.ask("qwzx blorptin fnarglezog?", use_llm=False)
    assert result["status"] == "unknown"
    assert result["answer"]
    assert result["citations"] == []


@pytest.mark.parametrize("question", [
    "Nani anajua Kafka?",  # Swahili: no word list, the skill still filters
    "Kinek van Kafka tapasztalata?",  # Hungarian
])
def test_a_language_with_no_word_list_works_on_its_content_words(assistant, question):
    result = assistant.ask(question, use_llm=False)
    assert result["status"] == "answered"
    assert {c["candidate_name"] for c in result["citations"]} == {"Ana Núñez"}


def test_shortened_words_are_read_whole(terms):
    corrected, corrections = correct_question("who has 5+ yrs of Kafka exp?", terms)
    assert corrected == "who has 5+ years of Kafka experience?"
    assert [(c.written, c.read) for c in corrections] == [("yrs", "years"), ("exp", "experience")]
    assert correct_question("Wer hat mind. 5 Jahre Erfahrung?", terms)[0] == "Wer hat mindestens 5 Jahre Erfahrung?"
    assert correct_question("Who has EXP?", terms) == ("Who has EXP?", [])  # capitals: an acronym, kept


@pytest.mark.parametrize("question", ["Dove ha lavorato Ana Núñez?", "Gdzie pracowała Ana Núñez?",
                                      "Wo hat Ana Núñez gearbeitet?", "¿Dónde trabajó Ana Núñez?"])
def test_work_words_of_every_listed_language_are_not_required_evidence(catalog, question):
    from cvrag_desktop.assistant.facts.people import PeopleIndex
    from cvrag_desktop.assistant.facts.store import CatalogFacts
    from cvrag_desktop.assistant.understand.router import parse_question

    plan = parse_question(question, build_vocabulary(catalog), None, PeopleIndex(CatalogFacts(catalog)))
    assert plan.persons and plan.terms == []


def test_a_word_known_only_by_a_guessed_ending_is_still_read_as_the_close_term():
    from cvrag_desktop.assistant.understand.typos import TermIndex, closest_term

    targets = {"testing": "Testing", "test": "test", "catalan": "Catalan", "catala": "Catala", "mongodb": "MongoDB"}
    terms = TermIndex(targets, frozenset({"test", "mongo", *targets}), frozenset())
    assert closest_term("Testin", terms) == "Testing"  # not "test" + a foreign ending
    assert closest_term("MongoBD", terms) == "MongoDB"  # two letters swapped: one edit
    assert closest_term("Cataln", terms) == "Catalan"  # two names of one language: that language
