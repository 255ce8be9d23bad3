"""A named person's field asked in German, Spanish, French, Polish, Dutch: the stored field answers,
and the question's field words are never required evidence."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("question, expect", [
    ("Welche Sprachen spricht Ana Núñez?", "German"),
    ("¿Qué idiomas habla Ana Núñez?", "Spanish"),
    ("Quelles langues parle Ana Núñez ?", "German"),
    ("Jakie języki zna Ana Núñez?", "Spanish"),
    ("Welke talen spreekt Ana Núñez?", "German"),
    ("¿Cuál es el correo electrónico de Ana Núñez?", "cand_ana@example.com"),
    ("Quelle est l'adresse e-mail de Ben Ortiz ?", "cand_ben@example.com"),
    ("Podaj adres e-mail: Ben Ortiz", "cand_ben@example.com"),
    ("Gdzie obecnie pracuje Ana Núñez?", "Acme Logistics"),
    ("Wo arbeitet Cara Lopez derzeit?", "Globex"),
])
def test_a_field_asked_in_another_language(assistant, question, expect):
    r = assistant.ask(question, use_llm=False)
    assert r["status"] == "answered" and expect in r["answer"], r["answer"]
    assert r["citations"]
