"""Spoken languages: their English names from any language's name for them, and the language key.

"Alemán (B2)", "Deutsch – C1" and "German" are one language to a filter, a facet, a chat
count and a job match (:func:`language_key`); answers show :func:`language_name`. The names
are ``resources/lexicon.yaml``'s ``languages`` (read by :mod:`.lexicon`).
"""

from __future__ import annotations

import re

from cvrag_desktop.text.keys import normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon


def canonical_language(value: str) -> str | None:
    """The English name of a spoken language written in any supported language, else None."""
    return load_lexicon().languages.get(normalize_key(value))


def language_key(value: str) -> str:
    """Comparison key of a spoken language: its English name normalised ("Alemán" → "german")."""
    base = re.split(r"[(:\-–,]", value, maxsplit=1)[0].strip() or value  # "German (C1)" → "German"
    return normalize_key(canonical_language(base) or base)


def language_name(value: str) -> str:
    """A spoken language's display name: its English name, without the level ("Alemán (B2)" → "German")."""
    base = re.split(r"[(:\-–,]", value, maxsplit=1)[0].strip() or value
    return canonical_language(base) or base
