"""Private-life lines a blind screen hides (catalog/privacy/blind_lines.py): cue words and patterns in the eight
languages the app reads, and the lines that only look like them. Every example is invented."""

from __future__ import annotations

import pytest

from cvrag_desktop.catalog.privacy.blind_lines import is_label_only, personal_kind, redact_personal

H = "[hidden]"

PERSONAL = [
    # en
    ("Date of birth: 14 March 1991", "birth"), ("Nationality: Utopian", "nationality"),
    ("Gender: Female", "gender"), ("Marital status: single", "marital"), ("Age: 33", "age"),
    ("42 Quillfeather Street", "address"), ("Brightwater, TX 73301", "address"), ("Nowhere ZZ1 9QQ", "address"),
    ("317 112th Ave. NE", "address"), ("Religion: Pastafarian", "religion"),
    # de
    ("Geburtsdatum: 01.02.1990", "birth"), ("Staatsangehörigkeit: utopisch", "nationality"),
    ("Geschlecht: weiblich", "gender"), ("Familienstand: verheiratet", "marital"),
    ("Erfundenestraße 5, 99999 Nirgendwo", "address"), ("verheiratet, 2 Kinder", "marital"),
    ("geboren am 3. Mai 1988 in Nirgendwo", "birth"),
    # fr
    ("Date de naissance : 12/04/1989", "birth"), ("Nationalité : utopienne", "nationality"),
    ("12 rue des Inventions, 99999 Nullepart", "address"), ("Situation familiale : célibataire", "marital"),
    # es
    ("Fecha de nacimiento: 5 de mayo de 1992", "birth"), ("Estado civil: soltera", "marital"),
    ("Calle Imaginaria 7, 99999 Ningunaparte", "address"), ("34 años, casado", "age"), ("Sexo: Mujer", "gender"),
    # it
    ("Data di nascita: 07/07/1987", "birth"), ("Nazionalità: utopica", "nationality"),
    ("Via Inventata 12, 99999 Nessunluogo", "address"), ("Stato civile: celibe", "marital"),
    # pt
    ("Data de nascimento: 9 de junho de 1990", "birth"), ("Nacionalidade: utópica", "nationality"),
    ("Rua Imaginária 10, 9999-999 Lugarnenhum", "address"), ("Sexo Masculino", "gender"),
    # pl
    ("Data urodzenia: 1 maja 1990", "birth"), ("Obywatelstwo: utopijskie", "nationality"),
    ("ul. Zmyślona 3, 99-999 Nigdzie", "address"), ("Stan cywilny: kawaler", "marital"), ("Wiek: 34 lata", "age"),
    # nl
    ("Geboortedatum: 1-2-1990", "birth"), ("Nationaliteit: Utopisch", "nationality"),
    ("Verzinstraat 12a, 9999 ZZ Nergens", "address"), ("Burgerlijke staat: gehuwd", "marital"),
]

NOT_PERSONAL = [
    "CAP theorem", "Distributed systems: CAP theorem, consensus", "Age of Empires speedrunner",
    "Address Verification Clerk", "2019 – 2021 Senior Engineer", "2019 IT Manager", "Jan 2018 – present",
    "Catholic University of Imaginaria", "Corso di laurea 2019", "20 años en banca", "15 ans d'expérience",
    "10 anni di esperienza", "Religion and Society (elective)", "Won the 2019 Great Place to Work award",
    "Indirizzo informatico", "Born leader with a passion for teams", "Managed 2019 budget of 3 teams",
    "Python, Go, Kubernetes",
]


@pytest.mark.parametrize(("line", "kind"), PERSONAL)
def test_personal_lines_are_read_in_eight_languages(line, kind):
    assert personal_kind(line) == kind
    redacted = redact_personal(line, H)
    assert H in redacted
    assert not any(ch.isdigit() for ch in redacted.replace(H, "")) or kind in ("marital",)  # the numbers go


@pytest.mark.parametrize("line", NOT_PERSONAL)
def test_lookalikes_are_left_alone(line):
    assert personal_kind(line) is None
    assert redact_personal(line, H) == line


def test_the_label_stays_and_each_value_goes():
    text = "Date of birth: 14 March 1991, Nationality: Utopian\nSenior Engineer at Acme (2019 – 2021)"
    out = redact_personal(text, H)
    assert out == "Date of birth: [hidden], Nationality: [hidden]\nSenior Engineer at Acme (2019 – 2021)"


def test_a_label_alone_on_its_line_counts():
    for label in ("Nationality", "Date of birth", "Geburtsdatum", "Adresse", "Stan cywilny:"):
        assert is_label_only(label) and personal_kind(label)
    assert not is_label_only("CAP") and personal_kind("CAP") is None


def test_empty_and_long_lines():
    assert redact_personal(None, H) == "" and redact_personal("", H) == ""
    assert personal_kind("x " * 200) is None


def test_a_name_broken_over_two_lines_is_replaced_whole():
    from cvrag_desktop.catalog.privacy.blind import redact_answer, redact_text

    assert redact_text("Zelinda Di\nQuorvane, Python", ["Zelinda Di Quorvane", "Zelinda", "Quorvane"]) == \
        "[hidden], Python"
    out = redact_answer("Zelinda Di\nQuorvane fits", [{"id": "p1", "name": "Zelinda Di Quorvane"}])
    assert "Di" not in out and out.endswith(" fits")
    assert redact_text("Python", ["  ", ""]) == "Python"
