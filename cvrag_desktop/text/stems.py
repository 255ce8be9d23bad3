"""Crude stems: two ways of letting inflected forms of a word meet, kept apart because they differ.

* :func:`suffix_stem` drops one English/Romance ending ("building" → "build", "pipelines" →
  "pipelin"): the answer checks compare the stems of two texts.
* :func:`prefix_stem` keeps all but the last two letters, at least four ("nurses" → "nurs"):
  the relevance floor takes a passage word that *starts* with a query word's stem.
"""

from __future__ import annotations

_SUFFIXES = ("ations", "ation", "ings", "ing", "ies", "ied", "ers", "er", "es", "ed", "s", "e")


def suffix_stem(word: str) -> str:
    """A crude English/Romance stem so "built"/"building"/"builds" meet ("pipelines" → "pipelin")."""
    for suffix in _SUFFIXES:
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def prefix_stem(word: str) -> str:
    """All but the last two letters of a word, at least four ("nursing" → "nurs", "java" → "java")."""
    return word[:max(4, len(word) - 2)]
