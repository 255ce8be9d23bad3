"""Blind-mode redaction and diagnostics' scrubbing cost linear time on any line (issue 22, item 9).

Unbounded repeats in the e-mail, street and labelled-value patterns made a hostile 20,000-character
line ("a-a-a-…") take up to 85 s to redact, on the GUI's table, detail and preview paths. Not a timed
test: a line ten times longer must cost about ten times as much (quadratic would be ~100x).
"""

from __future__ import annotations

import pytest

from cvrag_desktop.catalog.privacy.blind import redact_text
from cvrag_desktop.catalog.privacy.blind_lines import redact_personal
from cvrag_desktop.diagnostics import scrub
from tests.support.linear_cost import MAX_RATIO
from tests.support.linear_cost import cost as _cost
from tests.support.linear_cost import line as _line

SHAPES = ["a", "a.", "x@a-", "a-", "1 ", "DOB: ", "tel: 611222333 ", "Straße", "ab.pdf"]
FUNCTIONS = {
    "redact_text": lambda s: redact_text(s, ["Quillon Verbrugge", "611 222 333", "q@v.example"]),
    "redact_personal": lambda s: redact_personal(s, "[hidden]"),
    "scrub": scrub,
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("shape", SHAPES)
def test_redaction_is_linear_in_line_length(shape: str, name: str) -> None:
    fn = FUNCTIONS[name]
    small, large = _cost(fn, _line(shape, 10_000)), _cost(fn, _line(shape, 100_000))
    assert large / small < MAX_RATIO, (shape, name, small, large)


def test_bounded_patterns_still_cover_ordinary_values() -> None:
    text = "Mail: jo.roe+cv@mail.example.org, tel +34 611 222 333, Hauptstraße 5, 28013 Madrid, cv_jo.pdf"
    assert "jo.roe" not in redact_text(text, [])
    covered = redact_personal("Address: Hauptstraße 5, 28013 Madrid", "[x]")
    assert "Hauptstraße" not in covered and "Madrid" not in covered
    scrubbed = scrub(text)
    assert "<email>" in scrubbed and "<phone>" in scrubbed and "<file>.pdf" in scrubbed
