"""Contact patterns and the Word preview's wrap cost linear time on any line (issue 22, item 9a).

A 500,000-character line (or a DOCX paragraph of 200,000 one-character runs) used to burn the whole
parse deadline: unbounded repeats made each start position rescan the rest of the line. Not a timed
test: a line ten times longer must cost about ten times as much (quadratic would be ~100x).
"""

from __future__ import annotations

import pytest

from cvrag_desktop.ingestion.fields.identity import contact
from cvrag_desktop.ingestion.layout.textline import TextLine
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from tests.support.linear_cost import MAX_RATIO
from tests.support.linear_cost import cost as _cost
from tests.support.linear_cost import line as _line

SHAPES = ["a", "a.", "x@a-", "1 ", "a-", "a.b-c_1+", "a@b.co ", "tel: 611222333 ", "Ref: x@y.de "]


def _doc(text: str) -> ExtractedDoc:
    lines = [TextLine("Quillon Verbrugge", 0, (60, 40, 300, 60), 20, True),
             TextLine(text, 0, (60, 70, 500, 80), 10, False)]
    return ExtractedDoc(lines=lines, page_count=1, method="pymupdf", page_sizes=[(595, 842)])


def _contacts(text: str) -> None:
    doc = _doc(text)
    contact.find_emails(doc)
    contact.find_phones(doc, {1})
    contact.find_links(doc, {1})


@pytest.mark.parametrize("shape", SHAPES)
def test_contact_patterns_are_linear_in_line_length(shape: str) -> None:
    small, large = _cost(_contacts, _line(shape, 100_000)), _cost(_contacts, _line(shape, 1_000_000))
    assert large / small < MAX_RATIO, (shape, small, large)


def test_a_megabyte_line_normalizes_in_linear_time() -> None:
    from cvrag_desktop.ingestion.normalize import normalize_document

    def run(text: str) -> None:
        normalize_document(_doc(text))

    run("warm up")
    small, large = _cost(run, _line("a.", 100_000)), _cost(run, _line("a.", 1_000_000))
    assert large / small < MAX_RATIO, (small, large)


def test_contact_values_are_still_found_in_a_long_line() -> None:
    text = _line("a ", 200_000) + " Tel: +34 611 222 333 · quillon@example.org · github.com/quillon"
    doc = _doc(text)
    assert [h.value for h in contact.find_emails(doc)] == ["quillon@example.org"]
    assert [h.value for h in contact.find_phones(doc, set())] == ["+34 611 222 333"]
    assert "github.com/quillon" in [h.value for h in contact.find_links(doc, {1})]


def test_preview_wrap_of_one_huge_word_is_linear() -> None:
    from cvrag_desktop.ingestion.preview.docx_preview import _fonts, _Measure, _wrap

    font = _fonts()["regular"]

    def wrap(text: str) -> None:
        _wrap(text, font, 10.0, 450.0, _Measure())

    small, large = _cost(wrap, "a" * 40_000), _cost(wrap, "a" * 400_000)
    assert large / small < MAX_RATIO, (small, large)
    lines = _wrap("a" * 5_000, font, 10.0, 450.0, _Measure())
    assert "".join(lines) == "a" * 5_000 and all(len(x) < 200 for x in lines)
