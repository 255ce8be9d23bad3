"""Job descriptions as they arrive: huge, in a language with no word list, more people than shown."""

from __future__ import annotations

import pytest

from cvrag_desktop.assistant.jobmatch.matrix import MAX_JD
from cvrag_desktop.errors import InvalidInput

JD = "Backend engineer\nRequirements: Python, Kafka, 5+ years of experience.\nNice to have: Docker"


def test_the_top_n_say_how_many_were_ranked_and_all_can_be_shown(assistant):
    top = assistant.match_jd(JD, use_llm=False, limit=2)
    assert len(top["candidates"]) == 2 and top["ranked"] == 4
    every = assistant.match_jd(JD, use_llm=False, limit=None)
    assert len(every["candidates"]) == 4 and every["ranked"] == 4
    assert [c["candidate_id"] for c in every["candidates"][:2]] == [c["candidate_id"] for c in top["candidates"]]


def test_a_description_past_the_limit_is_read_to_the_limit_and_says_so(assistant):
    text = JD + "\n" + ("Our team values clear writing and kind reviews. " * 1200)
    assert len(text) > 2 * MAX_JD
    r = assistant.match_jd(text, use_llm=False)
    assert r["candidates"] and "Python" in r["requirements"]["must_have_skills"]
    assert any(n.startswith(f"Only the first {MAX_JD:,}") for n in r["notes"])
    exact = assistant.match_jd((JD + "\n" + "x" * MAX_JD)[:MAX_JD], use_llm=False)
    assert not exact["notes"]


def test_a_description_in_a_language_with_no_word_list_still_reads_its_skills(assistant):
    swahili = "Mhandisi wa programu\nMahitaji: Python, Kafka, uzoefu wa miaka 5.\nNi faida: Docker"
    r = assistant.match_jd(swahili, use_llm=False)
    req = r["requirements"]
    assert {"Python", "Kafka"} <= set(req["must_have_skills"] + req["nice_to_have_skills"])
    assert r["candidates"][0]["candidate_id"] == "cand_ana"  # the one with Python and Kafka


@pytest.mark.parametrize("text", ["", "   \n\t  "])
def test_an_empty_description_is_a_clear_error(assistant, text):
    with pytest.raises(InvalidInput, match="Paste a job description"):
        assistant.match_jd(text, use_llm=False)


@pytest.mark.parametrize("jd, must, nice, langs", [
    ("Anforderungen: Python und Kafka, Englisch und Deutsch fließend.\nWünschenswert: Docker",
     ["Python", "Kafka"], ["Docker"], ["English", "German"]),
    ("Requisitos: Python y Docker; inglés y español. Se valorará: Kafka", ["Python", "Docker"], ["Kafka"],
     ["English", "Spanish"]),
    ("Profil : Python et Kafka, anglais et allemand courant. Un plus : Docker", ["Python", "Kafka"], ["Docker"],
     ["English", "German"]),
    ("Wymagania: Python i Kafka, biegły angielski. Mile widziane: Docker", ["Python", "Kafka"], ["Docker"],
     ["English"]),
    ("Eisen: Python en Kafka, vloeiend Nederlands en Engels. Een pré: Docker", ["Python", "Kafka"], ["Docker"],
     ["Dutch", "English"]),
    ("We need someone who speaks English and German.\nPython and Kafka required. Docker is a plus.",
     ["Python", "Kafka"], ["Docker"], ["English", "German"]),
])
def test_requirement_lists_joined_by_and_with_nice_to_haves_in_each_language(jd, must, nice, langs):
    from cvrag_desktop.assistant.jobmatch.matrix import parse_requirements

    req = parse_requirements(jd)
    assert req.must_have_skills == must and req.nice_to_have_skills == nice and sorted(req.languages) == langs


def test_a_language_named_outside_the_requirements_is_no_requirement():
    from cvrag_desktop.assistant.jobmatch.matrix import parse_requirements

    assert parse_requirements("About us: a Polish company.\nRequirements: Python").languages == []
