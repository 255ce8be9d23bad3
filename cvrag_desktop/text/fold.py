"""Folded forms of text: the four ways the app compares text without case and accents.

They differ on purpose, and each caller relies on its difference, so they are kept apart
under names that say it:

* :func:`fold` — :func:`~cvrag_desktop.text.keys.normalize_key` that also takes ``None``
  (→ ""): case and accents folded, whitespace collapsed. The assistant's matching form.
* :func:`fold_dashes` — :func:`fold` after turning every dash (‐ ‑ ‒ – — ― −) into "-":
  the model-fill check that a value is written in the CV ("2019–2021" = "2019-2021").
* :func:`fold_keep_spacing` — case and accents folded, whitespace left as it is (no
  collapsing, no trimming): the relevance floor's word split does its own spacing.
* :func:`fold_same_length` — one character for one character (lowercase, accents off,
  curly apostrophes straight), so a match's positions stay valid in the original text.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from cvrag_desktop.text.keys import normalize_key

_DASHES = re.compile(r"[‐-―−]")


def fold(text: str | None) -> str:
    """Case and accents folded, whitespace collapsed (the form every assistant match uses); None → ""."""
    return normalize_key(text or "")


def fold_dashes(text: str) -> str:
    """Case-, accent-, dash- and whitespace-insensitive form used to check a value is in the text."""
    return normalize_key(_DASHES.sub("-", text))


def fold_keep_spacing(text: str | None) -> str:
    """Casefolded, accents removed, spacing untouched (the comparison form of query and passage words)."""
    s = unicodedata.normalize("NFKD", text or "")
    return "".join(c for c in s if not unicodedata.combining(c)).casefold()


@lru_cache(maxsize=8192)
def fold_same_length(text: str) -> str:
    """Lowercase and strip accents character by character, so match positions stay valid."""
    if text.isascii():
        return text.lower()
    return "".join(_fold_char(ch) for ch in text)


@lru_cache(maxsize=4096)
def _fold_char(ch: str) -> str:
    if ch in "’‘ʼ`´":
        return "'"  # "aujourd’hui" is "aujourd'hui"
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)).lower()
    return base if len(base) == 1 else (ch.lower() if len(ch.lower()) == 1 else ch)
