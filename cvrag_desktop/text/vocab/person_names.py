"""Given names and surnames of many languages: is this word a person's name?

The gazetteers are data files of ``resources/names/`` built from Faker's person providers
(86 locales: Latin, Greek, Cyrillic, Arabic, Hebrew, Indic, Thai, Chinese, Japanese and
Korean scripts) by ``make names`` (:mod:`cvrag_desktop.factory.name_gazetteer`); the product
reads only the files, never Faker. Words are compared folded (case and accents off). Each
file is read once, on first use.
"""

from __future__ import annotations

import gzip
from functools import cache

from cvrag_desktop.text.keys import normalize_key
from cvrag_desktop.text.vocab.resources import resources_dir

_STRIP = " .,;:'’\"()[]"


@cache
def _words(name: str) -> frozenset[str]:
    path = resources_dir() / "names" / name
    try:
        raw = gzip.decompress(path.read_bytes()) if name.endswith(".gz") else path.read_bytes()
    except OSError:
        return frozenset()  # a build without the gazetteers: every rule below falls back to word shape
    return frozenset(w for w in raw.decode("utf-8").splitlines() if w)


def _key(token: str) -> str:
    return normalize_key(token.strip(_STRIP))


def is_given_name(token: str) -> bool:
    """True when ``token`` is a given name of some locale ("Anna", "JOÃO", "Søren", "Дмитрий")."""
    return _key(token) in _words("given.txt.gz")


def is_surname(token: str) -> bool:
    """True when ``token`` is a surname of some locale ("Kowalski", "Müller", "Παπαδόπουλος", "山田")."""
    return _key(token) in _words("surname.txt.gz")


def is_name_word(token: str) -> bool:
    """A given name or a surname; a hyphenated word when each part is one ("Jean-Luc", "Müller-Lüdenscheidt")."""
    key = _key(token)
    if key in _words("given.txt.gz") or key in _words("surname.txt.gz"):
        return True
    parts = [p for p in key.split("-") if p]
    return len(parts) > 1 and all(is_name_word(p) for p in parts)


def cjk_surname(text: str) -> str:
    """The known Chinese, Japanese or Korean surname a CJK name starts with ("欧阳修" → "欧阳"), else ""."""
    compact = "".join(text.split()).replace("・", "").replace("·", "")
    table = _words("cjk_surnames.txt")
    for size in (3, 2, 1):  # the longest first: "欧阳" before "欧"
        if len(compact) > size and compact[:size] in table:
            return compact[:size]
    return ""


def name_token_score(tokens: list[str]) -> float:
    """The share of ``tokens`` (particles such as "van", "da" left out) that are known name words, 0 to 1.

    A CJK name scores 1 when it opens with a known surname; no tokens score 0.
    """
    words = [t for t in tokens if t.strip(_STRIP) and not t[:1].islower()]
    if not words:
        return 0.0
    if len(words) == 1 and not words[0].isascii() and cjk_surname(words[0]):
        return 1.0
    return sum(is_name_word(w) for w in words) / len(words)
