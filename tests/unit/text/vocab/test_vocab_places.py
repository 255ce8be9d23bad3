"""The offline gazetteer: places and country names in CV text -> ISO country codes."""

from __future__ import annotations

import pytest

from cvrag_desktop.text.vocab.places import countries_of_places, country_in_text, country_name


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Universität Bonn", {"DE"}),
        ("University of Bremen", {"DE"}),
        ("Freie Universität Berlin", {"DE"}),
        ("Lyon, France", {"FR"}),
        ("München", {"DE"}),
        ("Munich", {"DE"}),
        ("Melbourne", {"AU"}),
        ("San Francisco, CA", {"US"}),
        ("北京大学", {"CN"}),
    ],
)
def test_countries_of_places(text, expected):
    assert countries_of_places(text) == expected


@pytest.mark.parametrize("name", ["Deutschland", "Alemania", "Allemagne", "德国", "Germany"])
def test_country_named_in_other_languages(name):
    assert country_in_text(name) == ["DE"]
    assert countries_of_places(name) == {"DE"}


def test_country_in_text_ignores_cities_and_keeps_order():
    assert country_in_text("Universität Bonn") == []
    assert country_in_text("Studied in Spain, then worked in Deutschland and Spain") == ["ES", "DE"]


def test_no_place_gives_nothing():
    assert countries_of_places("Led a team of five engineers building payment APIs.") == set()
    assert country_in_text("Led a team of five engineers building payment APIs.") == []


def test_common_words_and_lowercase_acronyms_are_no_places():
    assert countries_of_places("Reading") == set()
    assert countries_of_places("Please let us know") == set()
    assert countries_of_places("Worked in the US") == {"US"}


def test_longest_phrase_wins():
    assert countries_of_places("New York University") == {"US"}  # not York, GB
    assert country_in_text("New Jersey Institute of Technology") == []  # not Jersey, JE


def test_country_name():
    assert country_name("DE") == "Germany"
    assert country_name("de") == "Germany"
    assert country_name("ZZ") == "ZZ"


def test_country_of_an_international_phone_number():
    from cvrag_desktop.text.vocab.places import country_of_phone

    assert country_of_phone("+33 6 07 00 00 00") == "FR"
    assert country_of_phone("0049 170 000000") == "DE"
    assert country_of_phone("+351 912 000 000") == "PT"
    assert country_of_phone("+1 415 000 0000") is None  # shared by the United States and Canada
    assert country_of_phone("0170 567890") is None
