"""Degree claims: expected degrees are shown as such and never held; the facets count people per value."""

from __future__ import annotations

import datetime as dt

from cvrag_desktop.assistant.facts.claims import degree_claims
from cvrag_desktop.assistant.facts.facets import facet_counts
from cvrag_desktop.text.rules import degree_rank, held_levels, holds_level

TODAY = dt.date(2026, 6, 1)


def _record(*education: dict) -> dict:
    return {"education": list(education)}


def test_a_degree_in_progress_is_not_held():
    """'– In Progress' on the degree line or an expected date on the next line: expected, not held."""
    rec = _record({"degree": "Master of Science in Nursing (MSN)", "institution": "Some State University"},
                  {"degree": "Bachelor of Science in Nursing (BSN)", "institution": "Other College", "end": "2015-05"})
    text = ("EDUCATION\nMaster of Science in Nursing (MSN) – In Progress\nSome State University\n"
            "Bachelor of Science in Nursing (BSN)\nOther College | Graduated 2015")
    claims = degree_claims(rec, text, TODAY)
    assert [c.expected for c in claims] == [True, False]
    assert held_levels(claims) == {"bachelor"}
    assert degree_rank(claims) == 2
    assert not holds_level(claims, "master", at_least=True)


def test_expected_words_in_other_languages_and_future_dates():
    """'voraussichtlich', '预计' and an end date still to come mark a degree as expected."""
    de = degree_claims(_record({"degree": "Promotion in Chemie"}), "Promotion in Chemie (voraussichtlich 2027)", TODAY)
    zh = degree_claims(_record({"degree": "博士 物理学（预计）"}), "", TODAY)
    later = degree_claims(_record({"degree": "PhD in Biology", "end": "2028-09"}), "", TODAY)
    done = degree_claims(_record({"degree": "PhD in Biology", "end": "2020-09"}), "", TODAY)
    assert all(c.expected for c in de + zh + later)
    assert held_levels(done) == {"phd"}


def test_a_doctorate_line_beside_an_entry_with_no_degree_is_read():
    """An entry kept with its school but no degree: the 'Dr. …' line beside the school is its degree."""
    rec = _record({"degree": None, "institution": "Universität Nordstadt", "start": "2019-10", "end": "2024-05"},
                  {"degree": "MSc. Chemie", "institution": "Universität Nordstadt", "end": "2019-09"})
    text = "Universität Nordstadt\nDr. Chemie, Note: 1.0 Okt. 2019 - Mai 2024\nMSc. Chemie, Note: 1.3"
    claims = degree_claims(rec, text, TODAY)
    assert held_levels(claims) == {"phd", "master"}


def test_facet_counts_count_people_per_value():
    """Degree ranks count 'or higher'; minimum years count every whole year a person reaches."""
    rows = [{"person_skills": ["Python"], "person_languages": ["German"], "degree_rank": 4, "person_years": 2.5},
            {"person_skills": ["Python", "SQL"], "person_languages": [], "degree_rank": 2, "person_years": 0.5}]
    counts = facet_counts(rows)
    assert counts["skills"] == {"Python": 2, "SQL": 1}
    assert counts["degree"] == {2: 2, 3: 1, 4: 1}
    assert counts["min_years"] == {0: 2, 1: 1, 2: 1}
