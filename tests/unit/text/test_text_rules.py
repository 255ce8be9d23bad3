"""One function per screening rule: the same decision for chat, facets, search filters and job match."""

from __future__ import annotations

from cvrag_desktop.index.filters import candidate_payload
from cvrag_desktop.text.rules import (
    degree_rank,
    has_skill,
    has_skill_key,
    held_levels,
    holds_level,
    speaks,
    speaks_key,
    words_in,
    years_pass,
    years_within,
)
from cvrag_desktop.text.vocab.degrees import DegreeClaim


def _claim(level: str | None, expected: bool = False) -> DegreeClaim:
    return DegreeClaim(level, f"a {level} degree", expected, 0)


def test_whole_year_bounds():
    """The index's semantics: min 5 keeps 5.0+, max 5 keeps fewer than 6; no years passes no bound."""
    assert years_within(5.0, 5) and not years_within(4.9, 5)
    assert years_within(5.9, None, 5) and not years_within(6.0, None, 5)
    assert not years_within(None, 1)
    assert years_within(None)


def test_exact_year_bounds_a_question_states():
    """"more than 10 years": 10.0 fails, 10.5 passes; "at most 5": 5.5 fails; none stated: all pass."""
    assert not years_pass(10.0, {"years_more_than": 10}) and years_pass(10.5, {"years_more_than": 10})
    assert years_pass(5.0, {"years_at_most": 5}) and not years_pass(5.5, {"years_at_most": 5})
    assert not years_pass(None, {"years_more_than": 1})
    assert years_pass(None, {})


def test_languages_by_any_name_and_level():
    assert speaks(["Alemán (B2)", "English"], "German")
    assert not speaks(["English"], "German")
    payload = candidate_payload({"languages": ["Deutsch – C1", "Inglés"]})
    assert speaks_key(payload["languages"], "German") and speaks_key(payload["languages"], "english")
    assert not speaks_key(payload["languages"], "French")


def test_skills_through_the_alias_table():
    assert has_skill(["k8s", "Python"], "Kubernetes")
    assert not has_skill(["Python"], "Java")
    payload = candidate_payload({"skills": ["k8s", "Python 3"]})
    assert has_skill_key(payload["skills"], "kubernetes")
    assert not has_skill_key(payload["skills"], "Docker")


def test_held_degree_levels_leave_expected_degrees_out():
    claims = [_claim("master", expected=True), _claim("bachelor"), _claim(None)]
    assert held_levels(claims) == {"bachelor"}
    assert degree_rank(claims) == 2
    assert holds_level(claims, "bachelor") and not holds_level(claims, "master")
    assert holds_level(claims, "vocational", at_least=True) and not holds_level(claims, "master", at_least=True)
    assert degree_rank([_claim(None)]) == 1  # a degree of no recognised level is "other"
    assert degree_rank([_claim("phd", expected=True)]) == 0


def test_free_text_every_word_in_one_value():
    """"Acme Logistics" matches one employer holding both words, not two employers holding one each."""
    assert words_in("Acme S.A.", ["acme sa", "globex"])
    assert words_in("logistics acme", ["acme logistics gmbh"])
    assert not words_in("acme globex", ["acme", "globex"])
    assert words_in("madrid", "calle mayor madrid")
