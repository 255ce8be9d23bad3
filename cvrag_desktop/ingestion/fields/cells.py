"""Text helpers for the cells of an entry header: commas, sentence periods, places.

"Company, Title, City" pieces are split at commas outside brackets, keeping "City, ST",
"Co., Ltd." and "Godfrey, Davies and Little" (one firm) together; a final full stop goes but
an abbreviation's dot stays; "City, ST" / "City, Country" / remote markers are locations.
"""

from __future__ import annotations

import re

from cvrag_desktop.text.vocab.lexicon import load_lexicon

_LOCATION = re.compile(
    r"^(?:remote|hybrid|remoto|híbrido|télétravail|homeoffice|"
    r"[A-ZÀ-Ý][\w.'\-]+(?:\s[A-ZÀ-Ý&][\w.'\-]*)*,\s?(?:[A-Z]{2,3}|[A-ZÀ-Ý][\w.'\-]+(?:\s[A-ZÀ-Ý][\w.'\-]+)*)(?:\s?&.*)?)$"
)
_CONJ = re.compile(r"^[A-ZÀ-Ý][\w'’\-]+\s+(?:and|&|e|y|und|et)\s+[A-ZÀ-Ý]")
_SUFFIX = re.compile(r"^(?:inc|ltd|llc|gmbh|s\.?a|s\.?l|co|corp|plc|ag|s\.?r\.?l|spa|ltda)\.?$", re.IGNORECASE)


def strip_sentence_period(text: str) -> str:
    """Drop a final full stop, but keep the dot of abbreviations ("Inc.", "S.A.", "Co.", "S.Coop.", "Corp.")."""
    if text.endswith(".") and not re.search(r"(?:\b\w{1,3}|\.\w+|\b(?:corp|coop|ltda|bros|assn))\.$", text, re.I):
        return text[:-1].rstrip()
    return text


def _split_outside_brackets(text: str) -> list[str]:
    """Split at commas that are not inside brackets ("Acme (Austin, TX), Intern")."""
    out, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        if ch in "(（[":
            depth += 1
        elif ch in ")）]" and depth:
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:k])
            start = k + 1
    out.append(text[start:])
    return out


def split_commas(fragment: str) -> list[str]:
    """Split "Company, Title, City" pieces, keeping "City, ST" and "Co., Ltd." together."""
    parts = [p.strip() for p in _split_outside_brackets(fragment) if p.strip()]
    out: list[str] = []
    for p in parts:
        if out and (_SUFFIX.match(p) or (re.fullmatch(r"[A-Z]{2}", p) and not load_lexicon().title_re.search(out[-1]))):
            out[-1] = f"{out[-1]}, {p}"
        else:
            out.append(p)
    # "Godfrey, Davies and Little": a list of surnames is one firm name
    for i in range(len(out) - 1, 0, -1):
        if _CONJ.match(out[i]) and re.fullmatch(r"[A-ZÀ-Ý][\w'’\-]+", out[i - 1]):
            out[i - 1 : i + 1] = [f"{out[i - 1]}, {out[i]}"]
    return out


def is_location(text: str) -> bool:
    """True for "City, ST", "City, Country" and remote/hybrid markers."""
    lex = load_lexicon()
    return bool(_LOCATION.match(text.strip())) and not lex.company_re.search(text) and not lex.title_re.search(text)
