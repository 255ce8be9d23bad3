"""Tolerant comparison of extracted values with labels (case, accents, punctuation)."""

from __future__ import annotations

import re

from cvrag_desktop.ingestion.textclean import normalize_key


def match_key(value: str) -> str:
    """Lowercase, accents stripped, punctuation to spaces, whitespace folded."""
    return " ".join(re.sub(r"[^\w+#]+", " ", normalize_key(value)).split())


def same(a: str | None, b: str | None) -> bool:
    """Exact match after :func:`match_key`."""
    return bool(a) and bool(b) and match_key(a) == match_key(b)


def similar(a: str | None, b: str | None) -> bool:
    """Equal, one contained in the other (as whole words), or token overlap ≥ 60 %."""
    if not a or not b:
        return False
    ka, kb = match_key(a), match_key(b)
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
