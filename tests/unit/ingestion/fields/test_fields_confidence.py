"""Confidence of extracted values (issue 20): named cues, a score in [0, 1], a reason, the threshold.

Every CV here is a minimal PDF of invented text (``tests/support/confidence_docs.py``) or a generated
one (the factory); no real CV's text is used.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cvrag_desktop.domain import LOW_CONFIDENCE, NormalizedCV, Provenance, confidence_map
from cvrag_desktop.ingestion.fields.confidence import (
    CUES,
    PRIORS,
    document_contexts,
    kind_of,
    score_confidence,
    score_value,
)
from cvrag_desktop.ingestion.layout.sections import find_sections
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from tests.support.confidence_docs import write_page


@pytest.fixture(scope="module")
def read(tmp_path_factory) -> tuple:
    doc = extract_document(write_page(tmp_path_factory.mktemp("conf")))
    cv, blocks = normalize_document(doc)
    return doc, cv, blocks


def _prov(cv: NormalizedCV, field: str) -> Provenance:
    return next(p for p in cv.provenance if p.field == field)


def _at_line(doc, text: str, field: str, value: str | None = None) -> Provenance:
    """A provenance record for ``value`` (default: the line's text) read from the line holding ``text``."""
    i = next(n for n, ln in enumerate(doc.lines) if text in ln.text)
    start, end = doc.line_span(i)
    return Provenance(field=field, value=value or text, page=0, char_start=start, char_end=end)


def test_a_clean_cv_scores_every_identity_and_role_value_high(read):
    _, cv, _ = read
    scored = {p.field: p for p in cv.provenance if p.confidence is not None}
    for field in ("name", "headline", "experiences[0].title", "experiences[0].company", "education[0].degree",
                  "education[0].institution", "current_title", "current_company"):
        assert scored[field].confidence >= LOW_CONFIDENCE, (field, scored[field].reason)
    # the name has every cue: header, largest type, a person's shape, the e-mail agrees
    assert scored["name"].confidence == 1.0 and scored["name"].reason is None
    assert not any(p.confidence is not None for p in cv.provenance if p.field == "emails")  # not scored


def test_a_role_with_neither_title_words_nor_legal_form_is_low_and_says_why(read):
    _, cv, _ = read
    title, firm = _prov(cv, "experiences[1].title"), _prov(cv, "experiences[1].company")
    assert title.low_confidence and firm.low_confidence
    assert title.reason.startswith("title: ") and "no job-title vocabulary" in title.reason
    assert firm.reason.startswith("employer: ")
    assert "no legal form or institution word" in firm.reason and "its role has no recognisable title" in firm.reason


def test_the_reason_names_cues_never_the_value(read):
    _, cv, _ = read
    for p in cv.provenance:
        if p.reason:
            assert p.value.casefold() not in p.reason.casefold()
            assert not any(w.casefold() in p.reason.casefold() for w in p.value.split() if len(w) > 4)


def test_current_title_and_company_carry_their_roles_confidence(read):
    _, cv, _ = read
    assert cv.current_title == "Senior Software Engineer" and cv.current_company == "Brindle Systems GmbH"
    assert _prov(cv, "current_title").confidence == _prov(cv, "experiences[0].title").confidence
    assert _prov(cv, "current_company").confidence == _prov(cv, "experiences[0].company").confidence
    assert [p.field for p in cv.provenance].count("current_title") == 1


def test_a_name_in_body_type_outside_the_header_without_email_agreement_is_low(read):
    doc, cv, blocks = read
    ctx = document_contexts(cv, doc, blocks)(_at_line(doc, "Okapi Marmalade", "name"))
    score, reason = score_value("name", ctx)
    assert score < LOW_CONFIDENCE
    assert reason == "name: not in the header; not in the largest type; no e-mail agreement"


def test_a_heading_word_read_as_a_name_is_low(read):
    doc, cv, blocks = read
    ctx = document_contexts(cv, doc, blocks)(_at_line(doc, "Experience", "name"))
    score, reason = score_value("name", ctx)
    assert score < LOW_CONFIDENCE and "a section heading word" in reason


def test_the_email_agreement_cue(read):
    doc, cv, blocks = read
    context = document_contexts(cv, doc, blocks)
    agree = score_value("name", context(_prov(cv, "name")))[0]
    other = cv.model_copy(update={"emails": ["hello@example.org"]})
    differ, reason = score_value("name", document_contexts(other, doc, blocks)(_prov(cv, "name")))
    assert agree - differ == pytest.approx(0.2) and reason == "name: no e-mail agreement"


def test_degree_vocabulary_decides_a_degree(read):
    doc, cv, blocks = read
    context = document_contexts(cv, doc, blocks)
    good = score_value("degree", context(_prov(cv, "education[0].degree")))[0]
    odd, reason = score_value("degree", context(_at_line(doc, "Master of Science", "education[0].degree",
                                                         "Wandering Studies")))
    assert good >= LOW_CONFIDENCE > odd and "no degree vocabulary" in reason


def test_a_firm_read_as_a_title_and_a_place_read_as_a_firm_are_contrary_cues(read):
    doc, cv, blocks = read
    context = document_contexts(cv, doc, blocks)
    _, reason = score_value("title", context(_at_line(doc, "Zephyr", "experiences[1].title", "Okapi Systems GmbH")))
    assert "looks like an employer" in reason
    low, reason = score_value("company", context(_at_line(doc, "Okapi", "experiences[1].company", "Lisbon, Portugal")))
    assert low < LOW_CONFIDENCE and "looks like a place" in reason


def test_weights_are_explainable_and_bounded():
    """A few named cues per kind; a value with every positive cue and no contrary one is high, at most 1.0."""
    for kind, cues in CUES.items():
        assert 3 <= len(cues) <= 12
        assert len({c.name for c in cues}) == len(cues)
        top = PRIORS[kind] + sum(c.weight for c in cues if c.weight > 0)
        assert LOW_CONFIDENCE + 0.2 <= round(top, 2) <= 1.0, kind
        assert all(c.missing for c in cues if c.weight > 0) and all(c.present for c in cues if c.weight < 0)
    assert kind_of("experiences[3].company") == "company" and kind_of("education[0].field") is None
    assert kind_of("skills") is None and kind_of("name") == "name"


def test_old_records_without_confidence_still_load():
    """A record stored before confidence existed: provenance without the keys loads, and nothing is marked."""
    old = ('{"name": "Ada Quill", "provenance": [{"field": "name", "value": "Ada Quill", "page": 0, '
           '"bbox": [1, 2, 3, 4], "char_start": 0, "char_end": 9}]}')
    cv = NormalizedCV.model_validate_json(old)
    assert cv.provenance[0].confidence is None and cv.provenance[0].reason is None
    assert not cv.provenance[0].low_confidence and confidence_map(cv.provenance) == {}
    with pytest.raises(ValueError):
        Provenance(field="name", value="x", confidence=1.5)


def test_confidence_map_reads_objects_and_stored_dicts(read):
    _, cv, _ = read
    live = confidence_map(cv.provenance)
    stored = confidence_map([p.model_dump() for p in cv.provenance])
    assert live == stored and live["experiences[1].company"]["low"] is True
    assert set(confidence_map(cv.provenance, ("name", "current_title"))) == {"name", "current_title"}


def test_generated_cvs_are_mostly_high_confidence(tmp_path: Path):
    """The factory's CVs print plain, well-formed values: nearly all of them score at or above the threshold."""
    from cvrag_desktop.factory.pipeline import generate_batch

    generate_batch(6, 11, tmp_path, locale="en_US", layout="mixed")
    scored = []
    for pdf in sorted(tmp_path.glob("*.pdf")):
        cv, _ = normalize_document(extract_document(pdf))
        scored += [p for p in cv.provenance if p.confidence is not None]
    assert len(scored) > 30
    assert sum(not p.low_confidence for p in scored) >= 0.9 * len(scored)


def test_a_document_without_lines_is_left_alone():
    empty = ExtractedDoc(lines=[], page_count=1, method="pymupdf")
    bare = NormalizedCV(name="Ada Quill")
    assert score_confidence(bare, empty, find_sections(empty)) is bare
