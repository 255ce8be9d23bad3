"""A name split across label/value cells: read from the same line, the next cell or the next line, and
given + family joined in the order the form prints them. Documents are made here (python-docx, reportlab)."""

from __future__ import annotations

import docx

from cvrag_desktop.ingestion.fields.identity.name_labels import assemble, label_parts
from cvrag_desktop.ingestion.fields.identity.names import find_name
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from tests.support.minipdf import lines_doc, write_pdf


def _table_docx(path, title: str, rows: list[tuple[str, str]], after: list[str]):
    d = docx.Document()
    d.add_heading(title, level=1)
    table = d.add_table(rows=0, cols=2)
    for label, value in rows:
        cells = table.add_row().cells
        cells[0].text, cells[1].text = label, value
    for text in after:
        d.add_paragraph(text)
    d.save(str(path))
    return path


def _name_of(path) -> str | None:
    cv, _ = normalize_document(extract_document(path))
    return cv.name


def test_label_parts_and_pairs():
    found = assemble(label_parts(["Vorname\tAnna", "Nachname\tSchmidt", "Geburtsdatum\t01.02.1990"]))
    assert found[0].value == "Anna Schmidt" and found[0].parts == ("Anna", "Schmidt")
    assert assemble(label_parts(["Nom : DUPONT", "Prénom : Marie"]))[0].value == "DUPONT Marie"  # printed order
    assert assemble(label_parts(["Nome", "Giulia", "Cognome", "Rossi"]))[0].value == "Giulia Rossi"  # next line
    assert assemble(label_parts(["Naam\tJansen", "Voornaam\tPieter"]))[0].value == "Jansen Pieter"
    assert assemble(label_parts(["Nome completo: Rui Almeida"]))[0].value == "Rui Almeida"
    assert assemble(label_parts(["First Name(s) / Surname(s)\tAnna Bell"]))[0].value == "Anna Bell"
    assert not label_parts(["Company Profile", "Experience"])


def test_german_personal_data_table_in_word(tmp_path):
    path = _table_docx(tmp_path / "lebenslauf.docx", "Lebenslauf",
                       [("Vorname", "Henrike"), ("Nachname", "Wendeborn"), ("Geburtsdatum", "03.04.1991"),
                        ("Telefon", "+49 30 1234567")],
                       ["Berufserfahrung", "2019 – heute  Pflegefachkraft, Klinikum Nordstadt"])
    assert _name_of(path) == "Henrike Wendeborn"


def test_french_family_name_first_in_word(tmp_path):
    path = _table_docx(tmp_path / "cv.docx", "Curriculum Vitae",
                       [("Nom", "DELAUNAY"), ("Prénom", "Sidonie"), ("Adresse", "12 rue des Lilas, Lyon")],
                       ["Expérience professionnelle", "2020 – 2024  Comptable, Cabinet Morel"])
    assert _name_of(path) == "DELAUNAY Sidonie"


def test_spanish_dutch_and_english_labels_in_pdfs(tmp_path):
    cases = [("es", [("Apellidos", "Ferrandiz Olmo"), ("Nombre", "Candela")], "Ferrandiz Olmo Candela"),
             ("nl", [("Voornaam", "Maartje"), ("Achternaam", "Dekkerink")], "Maartje Dekkerink"),
             ("en", [("Name:", "Tobiah Quenneville")], "Tobiah Quenneville")]
    for lang, rows, want in cases:
        items = [(60, 40, "Curriculum Vitae", 18, True)]
        for n, (label, value) in enumerate(rows):
            items += [(60, 90 + 20 * n, label, 10, True), (200, 90 + 20 * n, value, 10)]
        items += [(60, 200, "Experience", 14, True), (60, 225, "2018 - 2023 Accountant, Brightwell Ltd", 10)]
        path = write_pdf(tmp_path / f"{lang}.pdf", [items])
        assert _name_of(path) == want, lang


def test_value_on_the_same_line_or_next_line():
    doc = lines_doc([("Persönliche Daten", 14), ("Name: Jan Kowalski", 10), ("Telefon: 0170 1234567", 10)])
    hit = find_name(doc)
    assert hit is not None and hit.value == "Jan Kowalski"
    doc = lines_doc([("Życiorys", 18), ("Imię", 10), ("Zofia", 10), ("Nazwisko", 10), ("Wierzbicka", 10)])
    hit = find_name(doc)  # Polish labels (reportlab's base fonts cannot draw "ę": lines, not a PDF)
    assert hit is not None and hit.value == "Zofia Wierzbicka"
    doc = lines_doc([("履歴書", 18), ("氏名", 10), ("山田 太郎", 10), ("生年月日 1990年4月1日", 10)])
    hit = find_name(doc)
    assert hit is not None and hit.value == "山田 太郎"


def test_a_label_whose_value_is_not_a_name_gives_nothing():
    doc = lines_doc([("Candidate Profile", 18), ("Name of institution: Technical College", 10),
                     ("Full Time", 10)])
    assert find_name(doc) is None
