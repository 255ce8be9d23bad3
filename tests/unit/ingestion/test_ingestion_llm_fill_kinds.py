"""The gap fill checks each value against its field's kind: found in the text is not enough.

A stub model returns values that are in the (invented) CV text but of the wrong kind: a year
as a phone, a section heading as the location, "Present" as a language, a city as a skill.
They are dropped with a reason and counted, never stored; right-kind values beside them are kept.
"""

from __future__ import annotations

import json

from cvrag_desktop.domain import NormalizedCV
from cvrag_desktop.ingestion.llm_fill import CvGaps, fill_gaps, merge_gaps
from tests.support.ollama_stub import OllamaStub

CV_TEXT = """Oriane Castelvecchi
EXPERIENCE
Data Engineer, Brontide Logistics AG        2019 - Present
Built Kafka pipelines in Zürich.
Phone +41 44 765 43 21
SKILLS
Python, Kafka
LANGUAGES
Italian, English
"""
WRONG = {
    "phones": ["2019", "+41 44 765 43 21"],
    "location": "EXPERIENCE",
    "languages": ["Present", "Italian"],
    "skills": ["Zürich", "Python", "Built Kafka pipelines in Zürich."],
    "experiences": [{"title": "Present", "company": "Brontide Logistics AG", "start": "2019"}],
}


def test_wrong_kind_values_from_a_stub_model_are_dropped_with_a_reason_and_counted():
    with OllamaStub() as stub:
        stub.push(json.dumps({**CvGaps().model_dump(), **WRONG}))
        merged, notes = fill_gaps(NormalizedCV(), CV_TEXT, base_url=stub.url)
    assert merged.phones == ["+41 44 765 43 21"]
    assert merged.location is None
    assert merged.languages == ["Italian"]
    assert merged.skills == ["Python"]
    assert merged.experiences[0].title is None and merged.experiences[0].company == "Brontide Logistics AG"
    dropped = [n for n in notes if "not the field's kind" in n]
    assert any("phones '2019': a year or a date" in n for n in dropped)
    assert any("location 'EXPERIENCE': a section heading" in n for n in dropped)
    assert any("languages 'Present'" in n for n in dropped)
    assert any("skills 'Zürich': a place" in n for n in dropped)
    assert any("skills 'Built Kafka pipelines in Zürich.': a sentence" in n for n in dropped)
    assert any("experiences[0].title 'Present': a date" in n for n in dropped)
    assert "llm fill dropped 6 value(s) of the wrong kind" in notes
    stored = {p.value for p in merged.provenance}
    assert not stored & {"2019", "EXPERIENCE", "Present", "Zürich"}


def test_right_kind_values_still_fill():
    gaps = CvGaps(location="Zürich", phones=["+41 44 765 43 21"], languages=["English"], skills=["Kafka"])
    merged, notes = merge_gaps(NormalizedCV(), gaps, CV_TEXT)
    assert (merged.location, merged.phones, merged.languages, merged.skills) == (
        "Zürich", ["+41 44 765 43 21"], ["English"], ["Kafka"])
    assert not [n for n in notes if "kind" in n]
