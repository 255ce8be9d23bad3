"""Character-level cleaning of text read from PDFs and Word files.

PDF text layers carry icon glyphs from private-use code points, control characters,
ligatures (``ﬁ``), soft hyphens used as real hyphens, and non-breaking spaces. These
helpers turn them into plain text without changing what a person reads.
"""

from __future__ import annotations

import re
import unicodedata

_LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
    "\u0132": "IJ",
    "\u0133": "ij",
}
_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2212": "-", "\ufe63": "-", "\uff0d": "-",
                          "\u2012": "\u2013"})  # a figure dash (CJK fonts print "–" as one) is a range's dash
# A dash a CJK font maps to the combining long stroke overlay, standing alone between spaces: a dash.
_LONE_STROKE = re.compile(r"(?<=\s)\u0336(?=\s|$)")
# small-caps fonts whose text layer keeps a lowercase "i" inside capitals ("STATiSTiCiAN", "UNiVERSiTY")
_SMALL_CAPS_I = re.compile(r"\b(?=(?:[^\W\d_]*[A-Z]){3})[A-Z][A-Zi]*i[A-Zi]*\b")
_SMALL_CAPS_SHORT = re.compile(r"(?:(?<=[A-Z]\s)|(?<=[A-Z]\.\s))[A-Z]?i[A-Z]?(?=\s[A-Z]{2})")  # "MSC iN APPLIED"
_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_ZERO_WIDTH = re.compile(r"[\u200b-\u200d\u2060\ufeff]")
ICON_FONT = re.compile(
    r"fontawesome|awesome|icons?\b|iconfont|simpleicons|academicons|fontello|marvosym|"
    r"material.?(symbols|icons)|wingding|dingbat|zapf|ionicons|feather|octicons|bootstrap-icons",
    re.IGNORECASE,
)


_PLAIN = re.compile(r"[\x20-\x7e\t]*")


def is_private_use(ch: str) -> bool:
    """True for code points in the private-use areas (icon fonts put glyphs there)."""
    cp = ord(ch)
    return 0xE000 <= cp <= 0xF8FF or cp >= 0xF0000


# LaTeX without the T1 font encoding draws an accent as its own glyph before the letter ("Ing´enieur",
# "Maˆıtresse", "Universit¨at"): such a spacing accent is put back on the letter it precedes.
_SPACING_ACCENTS = {"´": "\u0301", "˝": "\u030b", "ˆ": "\u0302", "¨": "\u0308", "˜": "\u0303",
                    "¸": "\u0327", "ˇ": "\u030c", "˘": "\u0306", "˚": "\u030a", "˙": "\u0307", "`": "\u0300"}
_ACCENT_BEFORE_LETTER = re.compile(r"([´˝ˆ¨˜¸ˇ˘˚˙])\s?([a-zA-Zı])|(?<=[a-zA-Z])(`)([aeiouAEIOU])|"
                                   r"(?<![\w`])(`)([aeuAEU])(?![\w`])")


def _compose_accents(s: str) -> str:
    """"Magist`ere" → "Magistère", "´Economie" → "Économie" (dotless ı takes the accent as i)."""
    if not any(ch in s for ch in _SPACING_ACCENTS):
        return s

    def put(m: re.Match) -> str:
        accent, letter = next((m.group(k), m.group(k + 1)) for k in (1, 3, 5) if m.group(k))
        base = "i" if letter == "ı" else letter
        return unicodedata.normalize("NFC", base + _SPACING_ACCENTS[accent])

    return _ACCENT_BEFORE_LETTER.sub(put, s)


def clean_text(text: str) -> str:
    """Remove icon glyphs and control characters, expand ligatures, fold exotic spaces.

    Hyphen look-alikes (non-breaking hyphen, minus sign) become ``-``; a capital word with a
    stray small-caps ``i`` is put in capitals. Soft hyphens inside a word become ``-`` (some templates print hyphens as U+00AD);
    a trailing soft hyphen is kept as ``\u00ad`` so line re-joining can see it.
    """
    if _PLAIN.fullmatch(text):  # printable ASCII (most lines): no glyph, control or hyphen to fix
        s = text
        if "i" in s:
            s = _SMALL_CAPS_I.sub(lambda m: m.group(0).upper(), s)
            s = _SMALL_CAPS_SHORT.sub(lambda m: m.group(0).upper(), s)
        if "`" in s:
            s = _compose_accents(s)
        return _SPACES.sub(lambda m: "\t" if "\t" in m.group(0) else " ", s).strip(" ")
    out = []
    for ch in text:
        if ch in _LIGATURES:
            out.append(_LIGATURES[ch])
            continue
        if is_private_use(ch):
            continue
        cat = unicodedata.category(ch)
        if cat == "Cc" and ch not in "\t":
            out.append(" ")
            continue
        if cat in ("Cs", "Co", "Cn"):
            continue
        out.append(ch)
    s = _LONE_STROKE.sub("\u2014", "".join(out).translate(_HYPHENS))
    if "i" in s:
        s = _SMALL_CAPS_I.sub(lambda m: m.group(0).upper(), s)
        s = _SMALL_CAPS_SHORT.sub(lambda m: m.group(0).upper(), s)
    s = _ZERO_WIDTH.sub("", s)
    s = _compose_accents(s)
    s = re.sub(r"\u00ad(?=\S)", "-", s)
    s = _SPACES.sub(lambda m: "\t" if "\t" in m.group(0) else " ", s)
    return s.strip(" ")


def ends_with_break_hyphen(text: str) -> bool:
    """True when a line ends in a hyphen that splits a word (``learn-``), not a dash or a range."""
    return bool(re.search(r"[^\W\d_]{2,}[-\u00ad]$", text))


def join_broken_word(first: str, second: str) -> str:
    """Join ``learn-`` + ``ing`` → ``learning`` (soft or hard hyphen at a line end)."""
    return first[:-1] + second.lstrip()


# Words a header or headline never ends on but a wrapped line often does (articles, prepositions, conjunctions).
FUNCTION_WORDS = frozenset(
    ["the", "a", "an", "of", "to", "for", "in", "on", "with", "and", "or", "by", "from", "at", "as", "into", "les", "des", "de", "du", "la", "le", "pour", "et", "en", "avec", "sur", "dans", "par", "au", "aux", "der", "die", "das", "den", "dem", "und", "für", "mit", "von", "zu", "zur", "zum", "im", "el", "los", "las", "para", "con", "por", "y", "o", "del", "al", "di", "da", "do", "dos", "em", "com", "per", "il", "che", "della"])
