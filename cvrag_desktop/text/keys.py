"""Comparison keys of text: what makes "José  GARCÍA" and "jose garcia" the same string.

:func:`normalize_key` is the general key (used per line by the parser, hence cached);
:func:`text_key` is the key of a free-text value (names, titles, employers, degrees),
which also drops dots ("S.A." = "SA", "Ph.D." = "PhD") and turns punctuation into spaces.
The index builds its filter values and the catalog its person keys with these same
functions, so a filter, a grouping rule and a stored value agree.

Three narrower keys differ from :func:`text_key` on purpose (outputs depend on it):
:func:`symbol_key` keeps "+" and "#" and turns dots into spaces ("C++" ≠ "C", "Node.js" →
"node js": the evaluation's label comparison); :func:`label_key` also drops plural marks
("Language(s)"; Europass labels); :func:`heading_key` also drops leading numbering and the
word "and" in four languages (section headings). Skill, language, person-name and employer
keys live beside their vocabularies (:mod:`.vocab.skills`, :mod:`.vocab.languages`,
:mod:`.names`, :mod:`.companies`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_PUNCT = re.compile(r"[^\w\s]")


@lru_cache(maxsize=65536)
def normalize_key(value: str) -> str:
    """Comparison key: NFKD, diacritics stripped, casefolded, whitespace folded (cached: called per line)."""
    if value.isascii():
        return " ".join(value.casefold().split())
    s = unicodedata.normalize("NFKD", value)
    s = "".join(c for c in s if not unicodedata.combining(c))
    return " ".join(s.casefold().split())


def text_key(value: str) -> str:
    """Comparison key of a free-text value: normalised, dots dropped, punctuation to spaces."""
    return " ".join(_PUNCT.sub(" ", normalize_key(value).replace(".", "")).split())


def symbol_key(value: str) -> str:
    """Normalised, every run of characters but letters, digits, "+" and "#" to one space (dots too)."""
    return " ".join(re.sub(r"[^\w+#]+", " ", normalize_key(value)).split())


@lru_cache(maxsize=16384)
def label_key(text: str) -> str:
    """Comparison key of a label: no case, accents, plural marks ("(s)", "(e)"), punctuation."""
    s = normalize_key(text)
    s = re.sub(r"\((?:s|n|e|i|es|\*)\)", " ", s)
    s = re.sub(r"[^\w]+", " ", s)
    return " ".join(s.split())


def heading_key(text: str) -> str:
    """Normalize a heading for lexicon lookup: no accents, case, punctuation or numbering."""
    s = normalize_key(text)
    s = re.sub(r"^[\d\W_]+", "", s)
    s = re.sub(r"[:：|·•.\-–—_/&,]+", " ", s)
    s = s.replace(" and ", " ").replace(" und ", " ").replace(" y ", " ").replace(" et ", " ")
    return " ".join(s.split())
