"""Filter normalisation and validation: same keys at index and query time."""

from __future__ import annotations

import pytest

from cvrag_desktop.errors import InvalidInput
from cvrag_desktop.index.filters import SearchFilters, build_filter, candidate_payload, parse_filters
from cvrag_desktop.text.keys import text_key
from cvrag_desktop.text.vocab.languages import language_key
from cvrag_desktop.text.vocab.skills import skill_key


def test_keys_fold_case_accents_aliases_and_dots():
    assert skill_key("golang") == skill_key("Go") == "go"
    assert skill_key("c sharp") == skill_key("C#")
    assert language_key("Alemán") == language_key("german (C1)") == "german"
    assert text_key("Acme Logistics S.A.") == "acme logistics sa"
    assert text_key("Ph.D. in Physics") == "phd in physics"
    assert text_key("  NÚÑEZ ") == "nunez"


def test_unknown_field_is_invalid_input():
    with pytest.raises(InvalidInput, match="Unknown filter field"):
        parse_filters({"skils": ["python"]})
    with pytest.raises(InvalidInput):
        parse_filters({"min_years": "lots"})
    with pytest.raises(InvalidInput, match="min_years"):
        parse_filters({"min_years": 9, "max_years": 2})


def test_strings_become_lists_and_empty_filter_builds_nothing():
    f = parse_filters({"skills": "Python", "degrees": ["", "  "]})
    assert f.skills == ["Python"] and f.degrees == []
    assert build_filter(SearchFilters()) is None
    assert SearchFilters().is_empty()
    assert f.set_fields() == ["skills"]


def test_payload_normalises_like_the_filter():
    row = {"skills": ["Golang", "C#"], "languages": ["Alemán"], "emails": ["A@X.com"], "name": "Ana Núñez",
           "current_title": "Dev", "current_company": "Acme S.A.", "companies": ["Acme S.A."], "degrees": [],
           "institutions": [], "location": None, "years_of_experience": 5.9, "record": '{"certifications": []}'}
    p = candidate_payload(row)
    assert p["skills"] == sorted([skill_key("go"), skill_key("c#")])
    assert p["languages"] == ["german"] and p["emails"] == ["a@x.com"]
    assert p["years"] == 5 and p["name"] == "ana nunez" and p["companies"] == ["acme sa"]
