"""A work history written as sentences still yields its roles (own invented text)."""

from __future__ import annotations

from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from tests.support.minipdf import write_pdf


def test_dated_sentences_name_their_employers(tmp_path):
    items = [(40, 20, "Cormac Leary", 18, True), (40, 44, "cormac@example.org"), (40, 70, "Work Experience", 14, True),
             (40, 95, "From September 2020 to September 2021 I completed a placement year with Northwind Devices"),
             (40, 109, "International in Galway, working for the customer tooling team. My work was mostly C#."),
             (40, 123, "Between March 2022 and June 2023 I worked as a Software Engineer at Brightfield Labs in"),
             (40, 137, "Cork, where I built internal dashboards.")]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [items])))
    got = [(e.title, e.company, e.start, e.end) for e in cv.experiences]
    assert got == [(None, "Northwind Devices International", "2020-09", "2021-09"),
                   ("Software Engineer", "Brightfield Labs", "2022-03", "2023-06")]


def test_a_sentence_without_a_named_employer_is_not_a_role(tmp_path):
    items = [(40, 20, "Cormac Leary", 18, True), (40, 44, "cormac@example.org"), (40, 70, "Work Experience", 14, True),
             (40, 95, "From 2019 to 2020 I travelled and learned to cook for my family and friends every weekend.")]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [items])))
    assert cv.experiences == []
