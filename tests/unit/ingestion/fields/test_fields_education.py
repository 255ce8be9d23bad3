"""Education-entry classes seen on real CVs, reproduced with minimal PDFs of our own text.

An entry whose qualification has no degree word (an exchange programme, a secondary-school
level, a bootcamp course "at" a school) still names one, and never hands its institution to
the next entry's degree; a field printed beside a bare degree belongs to it.
"""

from __future__ import annotations

from pathlib import Path

from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from tests.support.minipdf import write_pdf


def _education(tmp_path: Path, items) -> list[tuple[str | None, str | None]]:
    head = [(40, 20, "Ilse Marrow", 20, True), (40, 44, "ilse.marrow@example.org"), (40, 70, "Education", 14, True)]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [head + items])))
    return [(e.degree, e.institution) for e in cv.education]


def test_date_column_entries_with_a_qualification_without_degree_words(tmp_path):
    rows = [("2018 - 2022", "Master's Degree in Chemistry", "Example Polytechnic - Italy"),
            ("2020 - 2021", "International mobility programme", "Example University of Science - Brazil"),
            ("2014 - 2018", "Bachelor's Degree in Physics", "Example Polytechnic - Italy")]
    items, y = [], 95
    for dates, what, where in rows:
        items += [(40, y, dates), (150, y, what), (170, y + 12, where)]
        y += 30
    assert _education(tmp_path, items) == [
        ("Master's Degree in Chemistry", "Example Polytechnic"),
        ("International mobility programme", "Example University of Science"),
        ("Bachelor's Degree in Physics", "Example Polytechnic")]


def test_school_level_above_the_school_and_a_level_in_a_table_row(tmp_path):
    items = [(40, 95, "BS IN ENGINEERING", 12, True), (40, 109, "Example Institute of Technology", 11),
             (40, 122, "Grad. June 2019 | Springfield"),
             (40, 145, "SECONDARY SCHOOL", 12, True), (40, 159, "Institut Exemple", 11),
             (40, 172, "Grad. June 2015 | Springfield"),
             (40, 195, "2007–2010"), (120, 195, "Ensino Secundário"), (300, 195, "Escola Secundária Exemplo")]
    got = _education(tmp_path, items)
    assert ("SECONDARY SCHOOL", "Institut Exemple") in got
    assert ("Ensino Secundário", "Escola Secundária Exemplo") in got


def test_exchange_semester_under_its_school_and_coursework_is_not_the_field(tmp_path):
    items = [(40, 95, "Example University (USA)", 11), (400, 95, "01/2016 - 06/2016"),
             (40, 109, "Exchange Semester"), (40, 130, "Coursework in human-computer interaction")]
    assert _education(tmp_path, items) == [("Exchange Semester", "Example University (USA)")]


def test_course_at_a_school_and_a_field_beside_a_bare_degree(tmp_path):
    items = [(40, 95, "Web Development at Example Coding School", 10, True),
             (40, 125, "2018 – 2022 B.Tech, Computer Science and Engineering, Example Institute of Technology"),
             (100, 139, "Springfield, Example State, Freedonia"), (100, 153, "Overall GPA: 9.1/10")]
    got = _education(tmp_path, items)
    assert ("Web Development", "Example Coding School") in got
    assert ("B.Tech in Computer Science and Engineering", "Example Institute of Technology") in got


def test_polish_and_dutch_degree_rows_keep_their_subject_and_school(tmp_path):
    """A bare degree and its subject after a dash stay one degree; "Licencjat, Marketing" is a degree,
    not a "City, Region" place; Polish and Dutch school words name the institution."""
    items = [(40, 95, "2019 – 2023"), (150, 95, "Studia I stopnia – Geografia"), (330, 95, "Politechnika Wzorcowa"),
             (40, 125, "2015 – 2019"), (150, 125, "Licencjat, Marketing"), (330, 125, "Uniwersytet Wzorcowy"),
             (40, 155, "2012 – 2015"), (150, 155, "HBO-bachelor Verpleegkunde"), (330, 155, "Hogeschool Voorbeeld")]
    assert _education(tmp_path, items) == [
        ("Studia I stopnia – Geografia", "Politechnika Wzorcowa"),
        ("Licencjat, Marketing", "Uniwersytet Wzorcowy"),
        ("HBO-bachelor Verpleegkunde", "Hogeschool Voorbeeld")]


def test_a_city_and_region_is_still_no_degree(tmp_path):
    items = [(40, 95, "2016 – 2020"), (150, 95, "BSc Chemistry"), (330, 95, "Example University"),
             (150, 110, "Cambridge, MA")]
    assert _education(tmp_path, items) == [("BSc Chemistry", "Example University")]


def test_dashed_subject_before_the_school_compound_schools_and_doctorates(tmp_path):
    """"Ausbildung – Hotelfach, Berufsschule X": the subject ends at the school's comma; compound school words
    (Berufskolleg, Kunstakademie) and the Dutch and German doctorates (Promotie, Dr. rer. nat.) are read."""
    items = [(40, 95, "2019 – 2022"), (150, 95, "Promotie Natuurkunde"), (330, 95, "Universiteit Voorbeeld"),
             (40, 125, "2016 – 2019"), (150, 125, "Dr. rer. nat. Chemie"), (330, 125, "Universität Musterstadt"),
             (40, 155, "2012 – 2014"), (150, 155, "Ausbildung – Hotelfach, Berufskolleg Musterstadt"),
             (40, 185, "2010 – 2012"), (150, 185, "MBO Zorg, ROC Voorbeeld")]
    assert _education(tmp_path, items) == [
        ("Promotie Natuurkunde", "Universiteit Voorbeeld"),
        ("Dr. rer. nat. Chemie", "Universität Musterstadt"),
        ("Ausbildung – Hotelfach", "Berufskolleg Musterstadt"),
        ("MBO Zorg", "ROC Voorbeeld")]


def test_a_school_known_by_its_initials_after_the_degree_comma(tmp_path):
    """"B.A. Design, RWTH Aachen" looks like "City, Region" yet opens with its degree word; the school after the
    comma is known by its initials; a non-school after the comma stays part of the degree."""
    items = [(40, 95, "2019 – 2023"), (150, 95, "B.A. Mediendesign, RWTH Aachen"),
             (40, 125, "2015 – 2019"), (150, 125, "BSc Nursing, Honours Degree"), (330, 125, "Example University")]
    assert _education(tmp_path, items) == [("B.A. Mediendesign", "RWTH Aachen"),
                                           ("BSc Nursing, Honours Degree", "Example University")]


def test_a_label_introducing_a_list_names_no_degree(tmp_path):
    """"Skills gained in the degree:" mentions a degree word but introduces a list."""
    items = [(40, 95, "2017 – 2021"), (150, 95, "Grado en Biotecnología"), (330, 95, "Example University"),
             (150, 110, "Competencias adquiridas en el grado:"), (160, 125, "◦ Diseñar experimentos.")]
    assert _education(tmp_path, items) == [("Grado en Biotecnología", "Example University")]


def test_a_german_doctorate_named_by_its_subject_and_a_supervisor_is_no_degree(tmp_path):
    """"Dr. Physik" is a doctorate; "Prof. Dr. Ines Beispiel" on the description line is a person, not a degree."""
    items = [(40, 95, "Dr. Chemie, Note: 1.0"), (330, 95, "Okt. 2018 - Mai 2023"), (40, 109, "Universität Musterstadt"),
             (40, 123, "Doktorand, Thema: Katalyse, betreut von Prof. Dr. Ines Beispiel"),
             (40, 150, "MSc. Chemie, Note: 1.3"), (330, 150, "Okt. 2016 - Sep. 2018"),
             (40, 164, "Hochschule Beispielstadt")]
    got = _education(tmp_path, items)
    assert [d for d, _ in got] == ["Dr. Chemie, Note: 1.0", "MSc. Chemie, Note: 1.3"]
    assert got[0][1] == "Universität Musterstadt"
