"""The marks calibrated on the layout zoo and the labelled folders (issue 36): a title needs job-title words, an
employer a recognisable title beside it (or a legal form), and digits or a heading word count against both.

The CV is the invented minimal PDF of the confidence tests (``tests/support/confidence_docs.py``).
"""

from __future__ import annotations

import pytest

from cvrag_desktop.domain import LOW_CONFIDENCE, Provenance
from cvrag_desktop.ingestion.fields.confidence import CUES, PRIORS, document_contexts, score_value
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from tests.support.confidence_docs import write_page


@pytest.fixture(scope="module")
def context(tmp_path_factory):
    doc = extract_document(write_page(tmp_path_factory.mktemp("calibrated")))
    cv, blocks = normalize_document(doc)
    ctx = document_contexts(cv, doc, blocks)

    def at(text: str, field: str, value: str):
        i = next(n for n, ln in enumerate(doc.lines) if text in ln.text)
        start, end = doc.line_span(i)
        return ctx(Provenance(field=field, value=value, page=0, char_start=start, char_end=end))
    return at


def _best_without(kind: str, *main: str) -> float:
    return PRIORS[kind] + sum(c.weight for c in CUES[kind] if c.weight > 0 and c.name not in main)


def test_without_its_main_evidence_a_title_or_employer_stays_marked_whatever_else_agrees():
    assert _best_without("title", "title_words") < LOW_CONFIDENCE
    assert _best_without("company", "legal_form", "role_title") < LOW_CONFIDENCE
    assert _best_without("company", "legal_form") >= LOW_CONFIDENCE  # a title beside it is enough
    assert _best_without("company", "role_title") >= LOW_CONFIDENCE  # and so is a legal form


def test_a_title_without_job_title_words_is_marked_even_beside_a_firm_with_a_legal_form(context):
    # the first role's employer has a legal form, its dates are beside it: the value has no title word
    score, reason = score_value("title", context("Senior Software", "experiences[0].title", "Zephyr Tinkerer"))
    assert score < LOW_CONFIDENCE and "no job-title vocabulary" in reason
    good, _ = score_value("title", context("Senior Software", "experiences[0].title", "Senior Software Engineer"))
    assert good >= LOW_CONFIDENCE


def test_an_employer_whose_role_has_no_title_needs_a_legal_form(context):
    with_title, _ = score_value("company", context("Brindle", "experiences[0].company", "Okapi Marmalade"))
    without, reason = score_value("company", context("Okapi", "experiences[1].company", "Okapi Marmalade"))
    assert with_title >= LOW_CONFIDENCE > without and "its role has no recognisable title" in reason
    firm, _ = score_value("company", context("Okapi", "experiences[1].company", "Okapi Marmalade GmbH"))
    assert firm >= LOW_CONFIDENCE


@pytest.mark.parametrize(("kind", "field", "line"), [("title", "experiences[0].title", "Senior Software"),
                                                     ("company", "experiences[0].company", "Brindle")])
def test_a_heading_word_or_digits_count_against_a_title_or_employer(context, kind, field, line):
    score, reason = score_value(kind, context(line, field, "Experience"))
    assert score < LOW_CONFIDENCE and "a section heading word" in reason
    plain, _ = score_value(kind, context(line, field, "Senior Engineer" if kind == "title" else "Brindle GmbH"))
    digits, reason = score_value(kind, context(line, field, "Senior Engineer 42" if kind == "title"
                                               else "Brindle 42 GmbH"))
    assert plain - digits == pytest.approx(0.2) and "holds digits" in reason


def test_a_title_of_more_than_eight_words_counts_against_it(context):
    short, _ = score_value("title", context("Senior Software", "experiences[0].title", "Senior Software Engineer"))
    long_, reason = score_value("title", context("Senior Software", "experiences[0].title",
                                                 "Senior Software Engineer for the billing and the payment teams"))
    assert short - long_ >= 0.2 and "too long for a title" in reason
