"""Zoo scoring of one document: truth and shown values, phones, unmarked precision, the engine's gaps."""

from __future__ import annotations

from cvrag_desktop.domain import Education, Experience, NormalizedCV, Provenance
from cvrag_desktop.evaluation.zooscore.fields import (
    Tally,
    add_counts,
    add_marks,
    confidence_kind,
    new_counts,
    same_phone,
    shown_values,
    truth_values,
)


def _cv(**kw) -> NormalizedCV:
    base = {"name": "Odile Brannigan", "emails": ["odile@example.org"], "phones": ["+44 20 7946 0018"],
            "experiences": [Experience(title="Data Engineer", company="Quillfeather Ltd"),
                            Experience(title="Analyst", company="Norrow Labs")],
            "education": [Education(degree="MSc", field="Statistics", institution="Upton College")],
            "skills": ["Python", "SQL"], "languages": ["English"]}
    return NormalizedCV(**{**base, **kw})


def test_phones_match_by_digits_with_or_without_prefix_and_extension():
    assert same_phone("+44 20 7946 0018", "020 7946 0018")
    assert same_phone("437.297.0885x348", "(437) 297-0885")
    assert not same_phone("001-473-279-7088", "001-473-279")
    assert not same_phone("123", "123")


def test_truth_leaves_out_what_the_engine_cannot_print_and_degrees_match_with_their_field():
    truth = truth_values(_cv(), ["phones", "education"])
    assert truth["phone"] == [] and truth["degrees"] == [] and truth["institutions"] == []
    counts = new_counts()
    full = truth_values(_cv())
    assert add_counts(counts, full, shown_values(_cv())) == {}
    assert shown_values(_cv())["degrees"] == ["MSc in Statistics"]
    assert counts["degrees"].precision == 1.0 and counts["title"].tp == 2


def test_unmarked_and_marked_values_are_counted_apart_against_the_truth():
    truth = truth_values(_cv())
    got = _cv(provenance=[
        Provenance(field="name", value="Odile Brannigan", confidence=0.9),
        Provenance(field="name", value="Odile Brannigan", confidence=0.1),  # only the first record counts
        Provenance(field="experiences[0].title", value="Data Engineer", confidence=0.8),
        Provenance(field="experiences[1].company", value="Analyst", confidence=0.7),  # wrong, unmarked
        Provenance(field="education[0].degree", value="Upton College", confidence=0.2),  # wrong, marked
        Provenance(field="headline", value="Data person", confidence=0.9),  # not a scored field
        Provenance(field="location", value="Leeds"),  # no confidence
    ])
    unmarked, marked = Tally(), Tally()
    add_marks(unmarked, marked, got, truth)
    assert unmarked.per_field == {"name": [1, 1], "title": [1, 1], "employers": [0, 1]}
    assert marked.per_field == {"degrees": [0, 1]}
    assert unmarked.total() == (2, 3) and marked.share("degrees") == 0.0
    assert confidence_kind("current_title") == "current_title" and confidence_kind("current_company") is None
