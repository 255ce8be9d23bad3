"""Roles told in sentences: a work-history section written as prose, with no role headers.

"From September 2020 to September 2021 I completed a placement year with Example Devices in
Limerick" names a period and an employer. When an experience section yields no role from its
headers, each sentence that carries a date range and a capitalised name after "with", "at",
"for" or "joined" (or their French, German, Spanish, Italian, Portuguese equivalents) is one.
"""

from __future__ import annotations

import re

from cvrag_desktop.domain import Experience
from cvrag_desktop.ingestion.fields.dates import DateRange, find_date_ranges
from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.text.vocab.lexicon import load_lexicon

_EMPLOYER = re.compile(
    r"\b(?:with|at|for|joined|bei|chez|pour|para|con|presso|per|na|no|em)\s+(?:the\s+)?"
    r"(?P<firm>[A-Z][\w&'’.-]*(?:\s+(?:[A-Z][\w&'’.-]*|&|of|de|du|der|di|do|da|y|and))*(?:\s+[A-Z][\w&'’.-]*)?)")
_TITLE = re.compile(r"\b(?:as|als|comme|como|come)\s+(?:an?\s+|un\s+|une\s+|ein(?:e)?\s+)?(?P<title>[\w -]{3,50}?)"
                    r"(?=\s+(?:at|with|for|in|bei|chez|en|em|presso)\b|[,.;]|$)")
_STOP = re.compile(r"\s+(?:in|at|on|for|and|und|et|y|e)\s*$")


_BETWEEN = re.compile(r"^\s*(?:and|to|until|till|und|bis|et|à|au|y|a|al|e|ao)\s*$", re.IGNORECASE)


def _periods(text: str) -> list[DateRange]:
    """Date ranges of running text, "between March 2022 and June 2023" (two single dates) included."""
    ranges = find_date_ranges(text)
    out: list[DateRange] = []
    i = 0
    while i < len(ranges):
        r = ranges[i]
        nxt = ranges[i + 1] if i + 1 < len(ranges) else None
        if r.start is None and r.end and nxt is not None and nxt.start is None and (nxt.end or nxt.is_current) \
                and _BETWEEN.match(text[r.span[1]:nxt.span[0]]):
            out.append(DateRange(start=r.end, end=nxt.end, is_current=nxt.is_current, span=(r.span[0], nxt.span[1])))
            i += 2
            continue
        if r.start is not None:
            out.append(r)
        i += 1
    return out


def prose_roles(lines: list[TextLine], idx: list[int]) -> list[tuple[Experience, dict[str, int]]]:
    """Roles read from dated sentences of a prose work history (see the module docstring)."""
    lex = load_lexicon()
    out: list[tuple[Experience, dict[str, int]]] = []
    text, starts = "", []
    for i in idx:
        starts.append((len(text), i))
        text += lines[i].text.replace("\t", " ") + " "
    for r in _periods(text):
        end = text.find(". ", r.span[1])
        sentence = text[r.span[1]: end if end > 0 else len(text)][:240]
        m = _EMPLOYER.search(sentence)
        if m is None:
            continue
        firm = _STOP.sub("", re.split(r",|\s+(?:in|at|on|where|from|to)\s+", m.group("firm"))[0]).strip(" .")
        if len(firm) < 2 or firm.split()[0] in {"I", "We", "The", "My", "A"}:
            continue
        title_m = _TITLE.search(sentence)
        title = title_m.group("title").strip() if title_m and lex.title_re.search(title_m.group("title")) else None
        line = max(i for pos, i in starts if pos <= r.span[0] + m.start())
        exp = Experience(title=title, company=firm, start=r.start, end=r.end, is_current=r.is_current)
        out.append((exp, {"company": line, "dates": line}))
    return out
