"""The degrees a CV claims, each with its level and whether it is held or only expected.

A degree the CV marks as expected or in progress ("– In Progress", "(expected)",
"voraussichtlich", "en curso", "预计"), or whose end date is still to come, is a *claim*
shown as expected and never counted as held. The rules that count claims (held level, "a
master's or higher") are :mod:`cvrag_desktop.text.rules`; the words are
:mod:`cvrag_desktop.text.vocab.degrees`.
"""

from __future__ import annotations

import datetime as dt

from cvrag_desktop.domain import parse_partial_date
from cvrag_desktop.text.keys import normalize_key
from cvrag_desktop.text.vocab.degrees import DOCTORATE_WORD, EXPECTED, DegreeClaim, degree_level


def education_lines(text: str) -> list[str]:
    """The non-empty lines of a CV's education chunks."""
    return [ln.strip() for ln in (text or "").splitlines() if ln.strip()]


def _line_of(lines: list[str], needle: str) -> int | None:
    key = normalize_key(needle)
    if not key:
        return None
    return next((i for i, ln in enumerate(lines) if key in normalize_key(ln)), None)


def _unnamed_degree(edu: dict, lines: list[str], named: set[str]) -> str:
    """The doctorate line next to an entry's institution when the extractor kept no degree for it.

    "Universität Hamburg" / "Dr. Physik, Note: 1.0 Okt. 2019 - Mai 2025": the entry has the
    institution and dates but no degree; the line beside it that names a doctorate is its degree.
    """
    at = _line_of(lines, edu.get("institution") or "")
    if at is None:
        return ""
    for j in (at + 1, at - 1, at):
        if 0 <= j < len(lines) and DOCTORATE_WORD.search(normalize_key(lines[j])) \
                and degree_level(lines[j]) == "phd" and normalize_key(lines[j]) not in named:
            return lines[j]
    return ""


def degree_claims(record: dict, education_text: str = "", as_of: dt.date | None = None) -> list[DegreeClaim]:
    """Every degree of a record with its level and expected/held status (see module doc).

    ``education_text`` is the text of the CV's education chunks: the printed line of a
    degree and the line after it say "In Progress" / "(Expected Graduation …)" even when
    the record kept only the degree's name.
    """
    as_of = as_of or dt.date.today()
    lines = education_lines(education_text)
    named = {normalize_key(e.get("degree") or "") for e in record.get("education") or []}
    out = []
    for i, edu in enumerate(record.get("education") or []):
        degree = edu.get("degree") or _unnamed_degree(edu, lines, named)
        if not degree:
            continue
        context = degree
        at = _line_of(lines, degree)
        if at is not None:
            context = " ".join(lines[at:at + 2] if at + 1 < len(lines) and not degree_level(lines[at + 1])
                               else lines[at:at + 1])
        end = parse_partial_date(edu.get("end"), end=True) if edu.get("end") else None
        expected = bool(EXPECTED.search(context) or EXPECTED.search(normalize_key(context))) or (end is not None and end > as_of)
        out.append(DegreeClaim(degree_level(degree), degree, expected, i))
    return out
