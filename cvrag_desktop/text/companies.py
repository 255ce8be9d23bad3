"""Employer cores: a company key without its legal form ("acme logistics sa" → "acme logistics").

Two CVs of one person name the same employer with and without "S.A." or "GmbH"; the
catalog's person grouping and the assistant's employer vocabulary both compare cores.
"""

from __future__ import annotations

from cvrag_desktop.text.keys import text_key

LEGAL_SUFFIXES = frozenset({
    "sa", "sl", "slu", "slne", "sau", "gmbh", "ag", "kg", "ltd", "llc", "inc", "plc", "sas", "sarl", "spa", "srl",
    "ltda", "bv", "nv", "co", "corp", "corporation", "company", "limited", "se", "ohg", "eirl", "me", "epp",
})


def company_core(key: str) -> str:
    """An employer's key (a :func:`~cvrag_desktop.text.keys.text_key`) without trailing legal-form words."""
    words = key.split()
    while len(words) > 1 and words[-1] in LEGAL_SUFFIXES:
        words.pop()
    return " ".join(words)


def employer_key(company: str) -> str:
    """An employer as a spacing-free key without legal suffixes ("NVIDIA Research" = "NVIDIAResearch")."""
    return company_core(text_key(company)).replace(" ", "")
