"""One zoo document scored field by field: truth values, extracted values, both-ways counts.

The matching is the scorer's (``evaluation/matching.py``, as ``cvrag eval`` uses it): names and
e-mails exactly after folding, titles, employers, degrees and institutions tolerantly
(``similar``), skills and languages through their alias keys. Phones are compared by their digits.
A field the engine cannot print (the truth's ``zoo.not_printed``) is left out of the truth.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from cvrag_desktop.domain import NormalizedCV
from cvrag_desktop.evaluation.matching import compare, same, same_language, same_skill, similar
from cvrag_desktop.evaluation.real_cvs import FieldCounts

# The four fields the acceptance bars name, then the rest the existing scorers measure.
KEY_FIELDS = ("name", "title", "employers", "degrees")
FIELDS = (*KEY_FIELDS, "current_title", "email", "phone", "institutions", "skills", "languages")
BAR = 0.8  # no family below this on a key field (issue 36)


def same_phone(a: str | None, b: str | None) -> bool:
    """Same phone number: equal digits, or one ends with the other's 7+ digits (a country prefix or the
    trunk 0 left out); an extension ("x348", "ext. 12") may be left out on either side."""
    da, db = _digits(a).lstrip("0"), _digits(b).lstrip("0")
    if len(da) < 7 or len(db) < 7:
        return False
    return da == db or da.endswith(db) or db.endswith(da)


def _digits(phone: str | None) -> str:
    return re.sub(r"\D", "", re.split(r"(?i)\s*(?:x|ext\.?|extension)\s*\d+\s*$", phone or "")[0])


MATCH: dict[str, Callable[[str | None, str | None], bool]] = {
    "name": same, "title": similar, "employers": similar, "degrees": similar, "current_title": similar,
    "email": same, "phone": same_phone, "institutions": similar, "skills": same_skill,
    "languages": same_language,
}
# Truth fields (NormalizedCV's names, as ``zoo.not_printed`` lists them) -> the scored fields they feed.
_NOT_PRINTED = {"name": ("name",), "emails": ("email",), "phones": ("phone",), "skills": ("skills",),
                "languages": ("languages",), "experiences": ("title", "employers", "current_title"),
                "education": ("degrees", "institutions"), "current_title": ("current_title",)}
# Provenance field paths carrying a confidence -> the scored field whose truth says if the value is right.
_CONFIDENCE_KIND = (("name", "name"), ("current_title", "current_title"), (".title", "title"),
                    (".company", "employers"), (".degree", "degrees"), (".institution", "institutions"))


def truth_values(truth: NormalizedCV, not_printed: list[str] | tuple[str, ...] = ()) -> dict[str, list[str]]:
    """The values a perfect extraction would show, per scored field (a single field is a 0/1-item list)."""
    out = {
        "name": [truth.name] if truth.name else [],
        "title": [e.title for e in truth.experiences if e.title],
        "employers": list(truth.companies),
        "degrees": [d.degree for d in truth.education if d.degree],
        "current_title": [truth.current_title] if truth.current_title else [],
        "email": list(truth.emails),
        "phone": list(truth.phones),
        "institutions": list(truth.institutions),
        "skills": list(truth.skills),
        "languages": list(truth.languages),
    }
    for key in not_printed:
        for f in _NOT_PRINTED.get(key, ()):
            out[f] = []
    return out


def shown_values(cv: NormalizedCV) -> dict[str, list[str]]:
    """The values the extraction shows, per scored field (degrees with their field joined, as listed)."""
    return {
        "name": [cv.name] if cv.name else [],
        "title": [e.title for e in cv.experiences if e.title],
        "employers": list(cv.companies),
        "degrees": list(cv.degrees),
        "current_title": [cv.current_title] if cv.current_title else [],
        "email": list(cv.emails),
        "phone": list(cv.phones),
        "institutions": list(cv.institutions),
        "skills": list(cv.skills),
        "languages": list(cv.languages),
    }


def add_counts(counts: dict[str, FieldCounts], truth: dict[str, list[str]], shown: dict[str, list[str]]) -> dict:
    """Add one document's both-ways comparison to ``counts``; returns its misses and inventions per field."""
    detail: dict = {}
    for f in FIELDS:
        cmp = compare(truth[f], shown[f], MATCH[f])
        c = counts[f]
        c.tp += cmp.tp
        c.fp += cmp.fp
        c.fn += cmp.fn
        c.got += len(cmp.got)
        c.got_matched += cmp.got_matched
        if cmp.missed or cmp.invented:
            detail[f] = {"missed": list(cmp.missed), "invented": list(cmp.invented)}
    return detail


def new_counts() -> dict[str, FieldCounts]:
    """Zeroed counts for every scored field."""
    return {f: FieldCounts() for f in FIELDS}


def merge_counts(into: dict[str, FieldCounts], other: dict[str, FieldCounts]) -> None:
    """Add ``other``'s counts to ``into`` (a micro-average over documents)."""
    for f, t in other.items():
        c = into.setdefault(f, FieldCounts())
        c.tp, c.fp, c.fn = c.tp + t.tp, c.fp + t.fp, c.fn + t.fn
        c.got, c.got_matched = c.got + t.got, c.got_matched + t.got_matched


@dataclass
class Tally:
    """A share counted per field: ``[yes, of]`` (agreement, or right among unmarked values)."""

    per_field: dict[str, list[int]] = field(default_factory=dict)

    def add(self, f: str, yes: int, of: int) -> None:
        """Count ``yes`` out of ``of`` for field ``f``."""
        cell = self.per_field.setdefault(f, [0, 0])
        cell[0] += yes
        cell[1] += of

    def share(self, f: str) -> float | None:
        """``yes / of`` for a field (``None`` when nothing was counted)."""
        yes, of = self.per_field.get(f, (0, 0))
        return yes / of if of else None

    def total(self) -> tuple[int, int]:
        """Every field added up."""
        return (sum(v[0] for v in self.per_field.values()), sum(v[1] for v in self.per_field.values()))

    def merge(self, other: Tally) -> None:
        """Add ``other``'s counts."""
        for f, (yes, of) in other.per_field.items():
            self.add(f, yes, of)


def add_agreement(tally: Tally, docx: NormalizedCV, pdf: NormalizedCV) -> None:
    """DOCX against its PDF print: per field, the values both show (after the field's matching) out of
    the values either shows."""
    a, b = shown_values(docx), shown_values(pdf)
    for f in FIELDS:
        cmp = compare(a[f], b[f], MATCH[f])
        union = len(cmp.expected) + cmp.fp
        if union:
            tally.add(f, cmp.tp, union)


def confidence_kind(path: str) -> str | None:
    """The scored field a provenance path's confidence belongs to (``experiences[2].company`` -> employers)."""
    for suffix, kind in _CONFIDENCE_KIND:
        if path == suffix or (suffix.startswith(".") and path.endswith(suffix)):
            return kind
    return None


def add_marks(unmarked: Tally, marked: Tally, cv: NormalizedCV, truth: dict[str, list[str]]) -> None:
    """Every scored value the extraction shows, right or wrong against the truth, counted in ``unmarked``
    (no low-confidence mark) or ``marked`` (below ``LOW_CONFIDENCE``: the "check" mark)."""
    seen: set[str] = set()
    for p in cv.provenance:
        if p.confidence is None or p.field in seen or not p.value:
            continue
        kind = confidence_kind(p.field)
        if kind is None:
            continue
        seen.add(p.field)
        right = any(MATCH[kind](t, p.value) for t in truth[kind])
        (marked if p.low_confidence else unmarked).add(kind, int(right), 1)
