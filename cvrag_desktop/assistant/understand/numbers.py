"""Bounds on years of experience as a question writes them, in any listed language.

"more than 10 years", "mehr als 10 Jahre", "más de 5 años", "ponad 10 lat", "10年以上",
"at least 3 years", "under 2 years", "between 2 and 5 years": the phrases are data
(``years`` in ``resources/question_words.yaml``), the shapes are here.

The filter keeps the index's whole-year bounds (``min_years`` keeps 5.0 and more,
``max_years`` keeps fewer than ``max_years + 1``) and adds the exact bound where whole
years cannot say it: "more than 10" is ``min_years`` 10 *and* ``years_more_than`` 10
(10.5 passes, 10.0 does not), "at most 5" is ``max_years`` 5 *and* ``years_at_most`` 5.
"less than 5" is exactly ``max_years`` 4 and "at least 5" exactly ``min_years`` 5.
"""

from __future__ import annotations

import functools
import re

from cvrag_desktop.text.fold import fold
from cvrag_desktop.text.vocab.resources import resource_yaml

# assistant-side exact bounds, not index filter fields ("a master's or higher" is a held-degree rank)
EXACT_KEYS = ("years_more_than", "years_at_most", "min_degree_level", "within")  # within: a follow-up's people
_NUM = r"(\d{1,2})"
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


@functools.lru_cache(maxsize=1)
def _data() -> dict:
    data = resource_yaml("question_words.yaml") or {}
    return data.get("years") or {}


def _alt(kind: str) -> str:
    """One alternation of every language's phrases of a kind (folded, longest first, edges for Latin words)."""
    phrases = {fold(p) for words in (_data().get(kind) or {}).values() for p in words or [] if str(p).strip()}
    parts = []
    for p in sorted(phrases, key=len, reverse=True):
        esc = re.escape(p)
        if p[:1].isalpha() and not _CJK.match(p):
            esc = r"(?<![^\W\d_])" + esc
        if p[-1:].isalpha() and not _CJK.search(p[-1:]):
            esc += r"(?![^\W\d_])"
        parts.append(esc)
    return "(?:" + "|".join(parts) + ")" if parts else "(?!)"


@functools.lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern]:
    unit = _alt("unit")
    num_unit = _NUM + r"\s*" + unit
    return {
        "range": re.compile(_alt("between") + r"\s*" + _NUM + r"\s*(?:" + unit + r")?\s*" + _alt("and") + r"\s*"
                            + num_unit + "|" + _NUM + r"\s*[-–~]\s*" + num_unit),
        **{kind: re.compile(_alt(kind) + r"\s*" + num_unit) for kind in
           ("more_than", "at_least", "less_than", "at_most")},
        **{kind + "_after": re.compile(_NUM + r"\s*(?:" + unit + r"\s*" + _alt(kind + "_after") + "|" + _alt(kind + "_after")
                            + r"\s*" + unit + ")") for kind in ("more_than", "at_least", "less_than", "at_most")},
    }


def _bound(kind: str, n: int) -> dict:
    if kind == "more_than":
        return {"min_years": n, "years_more_than": n}
    if kind == "at_least":
        return {"min_years": n}
    if kind == "less_than":
        return {"max_years": max(0, n - 1)}
    return {"max_years": n, "years_at_most": n}


def extract_years(question: str) -> dict:
    """The years bounds a question states (``min_years``/``max_years`` and the exact keys), or {}."""
    q = fold(question)
    pats = _patterns()
    if m := pats["range"].search(q):
        low, high = (int(g) for g in m.groups() if g)
        return {"min_years": min(low, high), "max_years": max(low, high), "years_at_most": max(low, high)}
    out: dict = {}
    found: list[tuple[int, int, str, int]] = []
    for key, pat in pats.items():
        if key == "range":
            continue
        for m in pat.finditer(q):
            found.append((m.start(), -m.end(), key, int(next(g for g in m.groups() if g))))
    taken: list[tuple[int, int]] = []
    for start, neg_end, kind, n in sorted(found):
        if any(a <= start and -neg_end <= b for a, b in taken):
            continue  # inside a longer phrase of another kind: "no more than" is not "more than"
        taken.append((start, -neg_end))
        bound = _bound(kind.removesuffix("_after"), n)
        if not any(k in out for k in bound if k in ("min_years", "max_years")):
            out.update(bound)
    return out


def years_phrase_words(question: str) -> set[str]:
    """The folded words (and CJK pieces) of the question's years phrases: question words, never evidence."""
    q = fold(question)
    out: set[str] = set()
    for pat in _patterns().values():
        for m in pat.finditer(q):
            text = m.group(0)
            out.update(w for w in re.findall(r"[^\W\d_]+", text))
            out.update(re.findall(r"[\u3040-\u30ff\u3400-\u9fff]+", text))
    return out


def describe_years(filters: dict) -> list[str]:
    """How an answer states the years bounds ("with more than 10 years of experience")."""
    parts = []
    if filters.get("years_more_than") is not None:
        parts.append(f"with more than {filters['years_more_than']} years of experience")
    elif filters.get("min_years") is not None:
        parts.append(f"with {filters['min_years']}+ years of experience")
    if filters.get("years_at_most") is not None:
        parts.append(f"with at most {filters['years_at_most']} years of experience")
    elif filters.get("max_years") is not None:
        parts.append(f"with under {filters['max_years'] + 1} years of experience")
    return parts
