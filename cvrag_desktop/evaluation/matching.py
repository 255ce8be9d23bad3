"""Tolerant comparison of extracted values with labels (case, accents, punctuation; skill and language aliases)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cvrag_desktop.text.keys import symbol_key
from cvrag_desktop.text.vocab.languages import language_key
from cvrag_desktop.text.vocab.skills import skill_key


def same(a: str | None, b: str | None) -> bool:
    """Exact match after :func:`symbol_key`."""
    return bool(a) and bool(b) and symbol_key(a) == symbol_key(b)


def similar(a: str | None, b: str | None) -> bool:
    """Equal, one contained in the other (as whole words), or token overlap ≥ 60 %."""
    if not a or not b:
        return False
    ka, kb = symbol_key(a), symbol_key(b)
    if not ka or not kb:
        return False
    if ka == kb:
        return True
    if min(len(ka), len(kb)) >= 3 and (f" {ka} " in f" {kb} " or f" {kb} " in f" {ka} "):
        return True
    ta, tb = set(ka.split()), set(kb.split())
    return len(ta & tb) / len(ta | tb) >= 0.6


def recall(expected: list[str], got: list[str], *, fuzzy: bool = True) -> tuple[int, int]:
    """(found, total) of expected values present in ``got``."""
    cmp = similar if fuzzy else same
    found = sum(1 for e in expected if any(cmp(e, g) for g in got))
    return found, len(expected)


def same_skill(a: str | None, b: str | None) -> bool:
    """Same skill through the alias table ("JS" = "JavaScript"), the key the search filters use."""
    return bool(a) and bool(b) and bool(skill_key(a)) and skill_key(a) == skill_key(b)


def same_language(a: str | None, b: str | None) -> bool:
    """Same spoken language, level and native name folded ("German (native)" = "Deutsch")."""
    return bool(a) and bool(b) and bool(language_key(a)) and language_key(a) == language_key(b)


KEY_OF: dict[Callable[[str | None, str | None], bool], Callable[[str], str]] = {
    same_skill: skill_key, same_language: language_key,
}


@dataclass(frozen=True)
class Comparison:
    """One field of one CV compared both ways: label values found or missed, extracted values invented.

    ``found`` are the label values some extracted value matches (true positives), ``missed`` the label
    values none matches (false negatives), ``invented`` the extracted values that match no label value
    (false positives: a value where the label is empty, or a wrong value).
    """

    expected: tuple[str, ...]
    got: tuple[str, ...]
    found: tuple[str, ...]
    missed: tuple[str, ...]
    invented: tuple[str, ...]

    @property
    def tp(self) -> int:
        return len(self.found)

    @property
    def fn(self) -> int:
        return len(self.missed)

    @property
    def fp(self) -> int:
        return len(self.invented)

    @property
    def got_matched(self) -> int:
        """Extracted values that match some label value (precision's numerator)."""
        return len(self.got) - len(self.invented)


def distinct(values, key: Callable[[str], str] = symbol_key) -> tuple[str, ...]:
    """Non-blank values, the first of each comparison key kept (``None`` and "" dropped)."""
    out, seen = [], set()
    for v in values or ():
        if not isinstance(v, str) or not v.strip():
            continue
        k = key(v) or v.strip()
        if k not in seen:
            seen.add(k)
            out.append(v.strip())
    return tuple(out)


def compare(expected, got, match: Callable[[str | None, str | None], bool] = similar) -> Comparison:
    """Compare label values with extracted values (lists, or one value or ``None`` for single fields).

    Both sides are de-duplicated by the comparison key of ``match`` first, so "Python" twice or
    "JS" and "JavaScript" are one value.
    """
    key = KEY_OF.get(match, symbol_key)
    exp = distinct([expected] if expected is None or isinstance(expected, str) else expected, key)
    out = distinct([got] if got is None or isinstance(got, str) else got, key)
    found = tuple(e for e in exp if any(match(e, g) for g in out))
    missed = tuple(e for e in exp if e not in found)
    invented = tuple(g for g in out if not any(match(e, g) for e in exp))
    return Comparison(exp, out, found, missed, invented)
