"""Comparison keys of text: what makes "José  GARCÍA" and "jose garcia" the same string.

:func:`normalize_key` is the general key (used per line by the parser, hence cached);
:func:`text_key` is the key of a free-text value (names, titles, employers, degrees),
which also drops dots ("S.A." = "SA", "Ph.D." = "PhD") and turns punctuation into spaces.
The index builds its filter values and the catalog its person keys with these same
functions, so a filter, a grouping rule and a stored value agree.
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
