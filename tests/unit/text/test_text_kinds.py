"""Kind checks of the vocabulary room: a value of the wrong kind for its field is named as such."""

from __future__ import annotations

import pytest

from cvrag_desktop.text.kinds import (
    email_problem,
    is_date_like,
    kind_problem,
    language_problem,
    phone_problem,
    place_problem,
    skill_problem,
)


@pytest.mark.parametrize("value", ["2019", "03/2019 - Present", "Present", "Current", "March 2019", "2015 – 2019",
                                   "12.03.2019", "seit 2020", "Actualidad"])
def test_dates_and_present_words_are_date_like(value):
    assert is_date_like(value)


@pytest.mark.parametrize("value", ["+41 44 123 2019", "+41 (0)44 123 45 67", "06 12 34 56 78", "Python 2019 expert"])
def test_phones_and_text_are_not_dates(value):
    assert not is_date_like(value)


@pytest.mark.parametrize(("value", "problem"), [
    ("2019", "a year or a date"), ("2015 - 2019", "a year or a date"), ("12.03.2019", "a year or a date"),
    ("12345", "too few"), ("+41 44 123 45 67 89 01 23 45", "too many"), ("Call me maybe 612345678", "words"),
    ("+41 (0)44 123 45 67", None), ("+34 611 222 333", None), ("06 12 34 56 78", None), ("Tel. 030 1234567", None),
])
def test_phone_shape(value, problem):
    found = phone_problem(value)
    assert (found is None) if problem is None else (found is not None and problem in found)


@pytest.mark.parametrize(("value", "ok"), [
    ("Zurich, Switzerland", True), ("Lyon", True), ("Sankt Gallen", True), ("Zug", True),  # Zug: not in the gazetteer
    ("EXPERIENCE", False), ("Berufserfahrung", False), ("2019", False), ("Present", False), ("Python", False),
    ("English", False), ("Brontide Logistics AG", False), ("Senior Data Engineer", False),
    ("Built Kafka pipelines for payments.", False), ("ana@example.org", False),
])
def test_place(value, ok):
    assert (place_problem(value) is None) == ok


@pytest.mark.parametrize(("value", "ok"), [
    ("English", True), ("Deutsch (C1)", True), ("Alemán (B2)", True), ("Present", False), ("Current", False),
    ("Python", False), ("Madrid", False),
])
def test_language(value, ok):
    assert (language_problem(value) is None) == ok


@pytest.mark.parametrize(("value", "ok"), [
    ("Python", True), ("Apache Spark", True), ("Stakeholder management", True), ("Go", True),
    ("Madrid", False), ("Zürich", False), ("German", False), ("Present", False), ("SKILLS", False),
    ("Led a team of twelve engineers across three countries.", False),
])
def test_skill(value, ok):
    assert (skill_problem(value) is None) == ok


def test_email_and_the_field_dispatch():
    assert email_problem("ana.nunez@example.org") is None and email_problem("2019")
    assert kind_problem("experiences[0].title", "Present") == "a date"
    assert kind_problem("name", "EXPERIENCE") == "a section heading"
    assert kind_problem("location", "Skills") == "a section heading"
    assert kind_problem("phones", "2019") == "a year or a date"
    assert kind_problem("current_company", "Brontide Logistics AG") is None


@pytest.mark.parametrize("value", ["English C1", "Spanish B2", "Native English", "Anglais courant", "Wolof",
                                   "Kiswahili", "Английский", "Deutsch (Muttersprache)"])
def test_languages_with_their_level_or_outside_the_list_pass(value):
    assert language_problem(value) is None


def test_a_phone_with_a_country_code_is_not_a_date():
    assert phone_problem("+49 (0) 30 2019 2020") is None
    assert phone_problem("2019-2020") == "a year or a date"
