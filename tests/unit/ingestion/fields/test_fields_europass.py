"""Europass label/value rows: labels are keys, never content; wrapped labels, CEFR grid, post-nominal names."""

from __future__ import annotations

from pathlib import Path

from cvrag_desktop.ingestion.fields.europass import match_label, read_europass
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from cvrag_desktop.text.keys import label_key
from tests.support.minipdf import write_pdf

VALUE_X = 240


def _row(y: float, label: str, value: str | None = None, label_x: float = 60) -> list:
    items = [(label_x, y, label, 9, False)]
    if value is not None:
        items.append((VALUE_X, y, value, 10, False))
    return items


def _europass_pdf(path: Path) -> Path:
    items: list = [(150, 40, "Europass", 12, True), (140, 54, "Curriculum Vitae", 9, False),
                   (60, 80, "Personal information", 12, True)]
    items += _row(96, "First name(s) / Surname(s)", "Orla Quennell MSc")
    items += _row(110, "E-mail", "orla.q@example.org")
    items += [(60, 136, "Work experience", 12, True)]
    items += _row(152, "Dates", "03/2021 - present", label_x=190)
    items += _row(166, "Occupation or position held", "Data Analyst")
    items += _row(180, "Main activities and responsibilities", "• Built weekly reporting dashboards")
    items += _row(194, "Name and address of", "Brindlewood Analytics Ltd, 4 Mill Lane, Leeds")
    items += [(150, 205, "employer", 9, False)]
    items += _row(224, "Dates", "01/2018 - 02/2021", label_x=190)
    items += _row(238, "Occupation or position held", "Junior Analyst")
    items += _row(252, "Name and address of employer", "Harrowgate Foods, Sheffield")
    items += [(60, 280, "Education and training", 12, True)]
    items += _row(296, "Dates", "2014 - 2017", label_x=190)
    items += _row(310, "Title of qualification awarded", "BSc Statistics")
    items += _row(324, "Name and type of organisation", "University of Exeter")
    items += [(90, 335, "providing education and training", 9, False)]
    items += [(60, 362, "Personal skills and competences", 12, True)]
    items += _row(378, "Mother tongue(s)", "English")
    items += _row(392, "Other language(s)", "French")
    items += _row(406, "Self-assessment", "Understanding", label_x=150)
    items += [(190, 420, "French", 9, False)] + [(VALUE_X + 40 * k, 420, lvl, 9, False)
                                                 for k, lvl in enumerate(["C1", "C1", "B2", "B2", "C1"])]
    items += [(190, 434, "Italian", 9, False)] + [(VALUE_X + 40 * k, 434, lvl, 9, False)
                                                  for k, lvl in enumerate(["B1", "B1", "A2", "A2", "A2"])]
    items += _row(456, "Technical skills and competences", "Python, SQL, Tableau")
    return write_pdf(path, [items])


def test_labels_match_in_any_language_and_ignore_plural_marks():
    assert match_label("Occupation or position held") == "position"
    assert match_label("Profesión o cargo desempeñado") == "position"
    assert match_label("Muttersprache(n)") == "mother_tongue"
    assert match_label("Langue(s) maternelle(s):") == "mother_tongue"
    assert match_label("Titolo della qualifica rilasciata") == "qualification"
    assert match_label("Senior Data Analyst") is None
    assert label_key("Other language(s)") == "other language"


def test_europass_rows_fill_roles_degrees_languages_and_name(tmp_path):
    doc = extract_document(_europass_pdf(tmp_path / "ep.pdf"))
    cv, _ = normalize_document(doc)
    roles = [(e.title, e.company) for e in cv.experiences]
    assert ("Data Analyst", "Brindlewood Analytics Ltd") in roles
    assert ("Junior Analyst", "Harrowgate Foods") in roles  # the city after the comma is the address
    assert cv.current_title == "Data Analyst" and cv.current_company == "Brindlewood Analytics Ltd"
    assert not {t for t, _ in roles} & {"Dates", "Occupation or position held"}
    assert [(e.degree, e.institution) for e in cv.education] == [("BSc Statistics", "University of Exeter")]
    assert set(cv.languages) == {"English", "French", "Italian"}  # Italian only in the CEFR grid
    assert {"Python", "SQL", "Tableau"} <= set(cv.skills)
    assert cv.name == "Orla Quennell"


def test_a_plain_cv_is_not_europass(tmp_path):
    items = [(60, 40, "Orla Quennell", 20, True), (60, 80, "Experience", 12, True),
             (60, 96, "Data Analyst", 10, True), (60, 110, "Brindlewood Analytics Ltd · 2021 - present", 10, False),
             (60, 140, "Education", 12, True), (60, 156, "BSc Statistics, University of Exeter, 2014 - 2017", 10, False)]
    doc = extract_document(write_pdf(tmp_path / "plain.pdf", [items]))
    assert read_europass(doc.lines) is None
