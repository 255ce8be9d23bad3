"""An adversarial set of invented CVs: the first big line is a heading, a form label, an employment type,
a degree fragment or the document's title (several languages, Chinese and Japanese too). The name found
is the person's, or empty when the CV prints none (an anonymous CV never gets a heading or title as name)."""

from __future__ import annotations

import pytest

from cvrag_desktop.ingestion.fields.identity.names import find_name
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from tests.support.minipdf import lines_doc, write_pdf

# (language, the trap in big type, the person's name in smaller type or None, a section, an entry line)
LATIN = [
    ("en", "Research Interests", "Orla Fennimore", "Experience", "2019 - 2023 Lab Technician, Corvane Labs"),
    ("en", "First Name", None, "Experience", "2017 - 2022 Store Manager, Pellingham Retail"),
    ("en", "Full Time", "Idris Wollaston", "Work History", "2020 - 2024 Electrician, Brampton Works"),
    ("en", "Bachelor of Science in Nursing", None, "Education", "2012 - 2016 Ashcombe University"),
    ("en", "Candidate Profile", None, "Experience", "2018 - 2024 Senior Accountant, Tolliver Partners"),
    ("de", "Lebenslauf", "Henrike Wendeborn", "Berufserfahrung", "2019 - 2024 Pflegefachkraft, Klinikum Nordstadt"),
    ("de", "Vollzeit", None, "Berufserfahrung", "2016 - 2023 Elektriker, Stadtwerke Mühlbach"),
    ("de", "Berufliche Tätigkeiten", "Jonte Albrecht", "Ausbildung", "2010 - 2013 Ausbildung zum Tischler"),
    ("fr", "Activités Professionnelles", "Sidonie Delaunay", "Formation", "2014 - 2017 Licence de Droit"),
    ("fr", "Temps Plein", None, "Expérience", "2019 - 2024 Comptable, Cabinet Morel"),
    ("es", "Actividades Profesionales", "Candela Ferrandiz", "Estudios", "2011 - 2015 Grado en Derecho"),
    ("es", "Hoja de Vida", None, "Experiencia", "2018 - 2024 Enfermera, Hospital del Sur"),
    ("pt", "Atividades Profissionais", "Iracema Valadares", "Formação", "2012 - 2016 Licenciatura em Economia"),
    ("pt", "Tempo Integral", None, "Experiência", "2017 - 2023 Cozinheira, Restaurante Mar Azul"),
    ("nl", "Werkervaring", "Maartje Dekkerink", "Opleiding", "2013 - 2017 Bachelor Verpleegkunde"),
    ("nl", "Voornaam", None, "Werkervaring", "2019 - 2024 Docent, Stedelijk College"),
    ("it", "Attività Professionali", "Ottavia Brunetti", "Istruzione", "2012 - 2017 Laurea in Giurisprudenza"),
    ("it", "Studi", None, "Esperienza", "2016 - 2023 Infermiera, Ospedale Maggiore"),
]


@pytest.mark.parametrize(("lang", "trap", "person", "section", "entry"), LATIN,
                         ids=[f"{c[0]}-{c[1]}" for c in LATIN])
def test_trap_in_big_type_is_never_the_name(tmp_path, lang, trap, person, section, entry):
    items = [(60, 40, trap, 22, True)]
    y = 80
    if person:
        items.append((60, y, person, 13, True))
        y += 24
    items += [(60, y, "contact@example.org | +44 20 7946 0000", 10), (60, y + 40, section, 14, True),
              (60, y + 64, entry, 10)]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / f"{lang}.pdf", [items])))
    assert (cv.name or None) == person, (lang, trap, cv.name)


# scripts reportlab's base fonts cannot draw: the same test on lines
LINES = [
    ("zh", [("简历", 22), ("求职意向：会计", 11), ("教育背景", 14), ("2012 - 2016 华东大学 会计学 学士", 10)], None),
    ("zh", [("个人简历", 22), ("张晓梅", 16), ("电话：138 0000 0000", 10), ("工作经历", 14)], "张晓梅"),
    ("ja", [("履歴書", 22), ("山田 花子", 16), ("生年月日 1992年5月3日", 10), ("学歴", 14)], "山田 花子"),
    ("ja", [("職務経歴書", 22), ("2015年4月 株式会社サクラ 入社", 10), ("職歴", 14)], None),
    ("pl", [("Doświadczenie Zawodowe", 22), ("Zofia Wierzbicka", 14), ("Wykształcenie", 14)], "Zofia Wierzbicka"),
    ("pl", [("Życiorys", 22), ("Pełny etat", 14), ("Doświadczenie zawodowe", 14)], None),
    ("en", [("Curriculum Vitae", 22), ("Senior Accountant", 14), ("Professional Summary", 14)], None),
]


@pytest.mark.parametrize(("lang", "rows", "person"), LINES, ids=[f"{c[0]}-{c[1][0][0]}" for c in LINES])
def test_trap_lines_in_other_scripts(lang, rows, person):
    hit = find_name(lines_doc(rows))
    assert (hit.value if hit else None) == person, (lang, hit)


def test_a_han_name_with_a_surname_outside_the_tables():
    # "笪" is a rare surname the tables lack: the largest type at the top of page one still makes it the name
    hit = find_name(lines_doc([("笪晓云", 22), ("电话：139 0000 0000", 10), ("教育背景", 14), ("华东大学 会计学", 10)]))
    assert hit is not None and hit.value == "笪晓云"
    hit = find_name(lines_doc([("简历", 22), ("电话：139 0000 0000", 10), ("教育背景", 14)]))
    assert hit is None  # the CV's title in the same place is not


def test_two_spellings_of_one_name_in_the_same_type_the_first_wins():
    hit = find_name(lines_doc([("玛丽亚・贝克尔", 20), ("Maria Becker", 20), ("数据分析师", 11)]))
    assert hit is not None and hit.value == "玛丽亚・贝克尔"


def test_name_place_and_date_on_the_first_line_and_an_entry_below(tmp_path):
    doc = lines_doc([("Orrin Blackwell, Campus Town, 3 Mar 2016", 10), ("Work History", 10),
                     ("2001 – 2016 Retired, Harbour Unit", 10), ("Reserve Duty, Royal Coast Guard", 10),
                     ("Education", 10)])
    hit = find_name(doc)
    assert hit is not None and hit.value == "Orrin Blackwell"


def test_name_and_headline_in_one_cell_at_the_top():
    for line, name in [("Sophia Kettering, Machine Learning Engineer", "Sophia Kettering"),
                       ("Teun van Bovenen, Juridisch medewerker", "Teun van Bovenen"),
                       ("Ana Ruiz Olmedo – Jefa de Ventas", "Ana Ruiz Olmedo")]:
        hit = find_name(lines_doc([(line, 16), ("mail@example.org | +34 600 000 000 | Lugo", 9), ("SUMMARY", 9)]))
        assert hit is not None and hit.value == name, line


def test_a_name_printed_twice_in_one_row_is_read_once():
    hit = find_name(lines_doc([("Ilse Marbach Ilse Marbach", 12), ("Kiel\t+49 431 000000", 9.6), ("Background", 12)]))
    assert hit is not None and hit.value == "Ilse Marbach"


def test_a_person_whose_names_are_places_but_not_one_place():
    for person in ("Timoteo Santiago", "Adélaïde Torres"):
        hit = find_name(lines_doc([("Contact", 10), ("mail@example.org", 9), (person, 25), ("Verpleegkundige", 11)]))
        assert hit is not None and hit.value == person, person
    for place in ("Hong Kong", "Sierra Leone", "San Diego"):
        hit = find_name(lines_doc([(place, 25), ("Software Engineer", 11), ("Experience", 14)]))
        assert hit is None, place
