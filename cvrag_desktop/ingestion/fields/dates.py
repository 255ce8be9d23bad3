"""Date ranges as CVs print them, in several languages and formats.

Handles ``Jan 2015 – Present``, ``03/2019 - heute``, ``2015 / 07 -``, ``2019–present``,
``seit 2020``, ``2015 年3 月– 至今``, ``Sep 15 - NOW`` and plain ``2009 - 2011``. The
output is partial ISO dates (``YYYY`` / ``YYYY-MM``) plus an ``is_current`` flag.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from cvrag_desktop.text.fold import fold_same_length
from cvrag_desktop.text.keys import normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon

_SEP = r"\s*(?:--?|–|—|‒|~|〜|～|至|到|to|bis|until|till|hasta|a|al|à|au|até|fino a|ao|do|tot|till|til)?\s*"


@dataclass(frozen=True)
class DateRange:
    """A start/end pair found in text; ``span`` is its character range in that text."""

    start: str | None
    end: str | None
    is_current: bool
    span: tuple[int, int]
    open_ended: bool = False  # "2017 –" with nothing after the dash: current by convention only

    @property
    def complete(self) -> bool:
        """Has a start and an explicit end (a date or a "present" word)."""
        return bool(self.start and (self.end or (self.is_current and not self.open_ended)))


@dataclass
class _Atom:
    kind: str  # date | present | since
    value: str | None
    span: tuple[int, int]


@cache
def _atom_re() -> re.Pattern:
    lex = load_lexicon()
    month_words = sorted(lex.months, key=len, reverse=True)
    mon = "|".join(re.escape(m) for m in month_words)
    present = "|".join([*(re.escape(p) for p in sorted(lex.present_words, key=len, reverse=True)), "∞"])  # "07.2019 – ∞"
    since = "|".join(re.escape(s) for s in lex.since_words)
    year = r"(?:19|20)\d{2}"
    return re.compile(
        rf"(?P<cjk>(?P<cy>{year})\s*年\s*(?:(?P<cm>\d{{1,2}})\s*月(?:\s*\d{{1,2}}\s*日)?)?)"
        rf"|(?P<my>(?<![\w])(?P<mon>{mon})\.?,?\s*(?:de\s+|del\s+)?(?P<myy>{year}|'\d{{2}}|\d{{2}}(?![\d/]))(?!\d))"
        rf"|(?P<ym>(?<!\d)(?P<ymy>{year})\s?[/.\-]\s?(?P<ymm>0?[1-9]|1[0-2])(?![\d]))"
        rf"|(?P<num>(?<![\d/.])(?P<nm>0?[1-9]|1[0-2])\s?[/.\-]\s?(?P<ny>{year})(?!\d))"
        rf"|(?P<yw>(?<![\d/.])(?P<ywy>{year}),?\s+(?P<ywm>{mon})\.?(?![\w])(?!,?\s*(?:19|20)\d{{2}}))"
        rf"|(?P<yr>(?<![\d/.])(?<![A-Za-z]-){year}(?![\d]))"  # not a course code ("PHY-2019")
        rf"|(?P<present>(?<![\w])(?:{present})(?![\w]))"
        rf"|(?P<since>(?<![\w])(?:{since})(?![\w]))",
        re.IGNORECASE,
    )


def _atoms(text: str) -> list[_Atom]:
    lex = load_lexicon()
    src = fold_same_length(text)
    out: list[_Atom] = []
    for m in _atom_re().finditer(src):
        if m.group("cjk"):
            y, mo = m.group("cy"), m.group("cm")
            val = f"{y}-{int(mo):02d}" if mo and 1 <= int(mo) <= 12 else y
        elif m.group("my"):
            month = lex.months.get(normalize_key(m.group("mon")))
            y = m.group("myy").lstrip("'")
            if len(y) == 2:
                y = ("20" if int(y) <= 40 else "19") + y
            val = f"{y}-{month:02d}" if month else y
        elif m.group("yw"):  # "2024, mars" (year first, then the month's name)
            month = lex.months.get(normalize_key(m.group("ywm")))
            val = f"{m.group('ywy')}-{month:02d}" if month else m.group("ywy")
        elif m.group("ym"):
            val = f"{m.group('ymy')}-{int(m.group('ymm')):02d}"
        elif m.group("num"):
            val = f"{m.group('ny')}-{int(m.group('nm')):02d}"
        elif m.group("yr"):
            val = m.group("yr")
        elif m.group("present"):
            out.append(_Atom("present", None, m.span()))
            continue
        else:
            out.append(_Atom("since", None, m.span()))
            continue
        out.append(_Atom("date", val, m.span()))
    return out


def _starts_with_month(text: str) -> bool:
    """True when ``text`` begins with a month name alone ("févr.", "March"), not a title."""
    m = re.match(r"\s*([^\W\d_]+)\.?(?:\s|$)", text)
    return bool(m) and normalize_key(m.group(1)) in load_lexicon().months and len(m.group(1)) >= 3


def find_date_ranges(text: str) -> list[DateRange]:
    """All date ranges (or single dates) in ``text``, left to right."""
    return list(_find_date_ranges_cached(text))


@lru_cache(maxsize=8192)
def _find_date_ranges_cached(text: str) -> tuple[DateRange, ...]:
    return tuple(_find_date_ranges(text))


def _find_date_ranges(text: str) -> list[DateRange]:
    atoms = _atoms(text)
    out: list[DateRange] = []
    i = 0
    lead: int | None = None  # where a "from" word before the next range starts
    while i < len(atoms):
        a = atoms[i]
        if a.kind == "since" and i + 2 < len(atoms) and atoms[i + 1].kind == "date" \
                and atoms[i + 2].kind in ("date", "present") \
                and text[atoms[i + 1].span[1]:atoms[i + 2].span[0]].strip() \
                and re.fullmatch(_SEP, text[atoms[i + 1].span[1]:atoms[i + 2].span[0]]):
            i += 1  # "od 2015 do 2019", "from 2015 to 2019": a "from" word before a closed range
            lead = a.span[0]
            continue
        if a.kind == "since" and i + 1 < len(atoms) and atoms[i + 1].kind == "date" \
                and re.fullmatch(r"\s*", text[a.span[1]:atoms[i + 1].span[0]]):
            b = atoms[i + 1]
            out.append(DateRange(b.value, None, True, (a.span[0], b.span[1])))
            i += 2
            continue
        if a.kind == "present" and re.search(r"[-–—~]\s*$", text[: a.span[0]]):
            # "Month 20XX – Ongoing": the start is unreadable but the role is current
            out.append(DateRange(None, None, True, a.span))
            i += 1
            continue
        if a.kind != "date":
            i += 1
            continue
        if i + 1 < len(atoms):
            b = atoms[i + 1]
            between = text[a.span[1]:b.span[0]]
            if b.kind in ("date", "present") and re.fullmatch(_SEP, between, re.IGNORECASE) and (
                b.kind == "present" or between.strip() or len(between) <= 3
            ):
                start = a.span[0] if lead is None else lead
                if b.kind == "present":
                    out.append(DateRange(a.value, None, True, (start, b.span[1])))
                elif (b.value or "") >= (a.value or ""):
                    out.append(DateRange(a.value, b.value, False, (start, b.span[1])))
                else:
                    out.append(DateRange(b.value, a.value, False, (start, b.span[1])))
                lead = None
                i += 2
                continue
        tail = text[a.span[1]:]
        dots = re.match(r"\s*(?:-|–|—|~|〜|～)\s*(?:\.{2,}|…|\?)", tail)
        if dots:  # "03/2016 - ...": an end left open on purpose, i.e. ongoing
            out.append(DateRange(a.value, None, True, (a.span[0], a.span[1] + dots.end())))
            i += 1
            continue
        m = re.match(r"\s*(?:-|–|—|~|〜|～)(?:\s*$|\s+(?=[^\W\d_]))", tail)
        if m and _starts_with_month(tail[m.end():]):
            # "janv. 2007 – févr." with the year wrapped away: the role ended, when is unknown
            out.append(DateRange(a.value, None, False, (a.span[0], a.span[1] + m.end())))
        elif m and _LISTED_YEAR.search(text[:a.span[0]]):
            # "Juillet Août 2022 et 2021 - Hôtesse": the last of a list of years, the dash separates the title
            out.append(DateRange(None, a.value, False, a.span))
        elif m:
            # open range ("2015 / 07 -", "2017 – Product Manager"): ongoing since the date
            out.append(DateRange(a.value, None, True, (a.span[0], a.span[1] + m.end()), open_ended=True))
        elif (first := _month_before(text, a)) is not None:
            out.append(first)  # "February–August 2020": the first month shares the year printed last
        else:
            out.append(DateRange(None, a.value, False, a.span))
        i += 1
    return out


_LISTED_YEAR = re.compile(r"(?:19|20)\d{2}\s*(?:,|&|\bet|\band|\bund|\by|\be|\bi|\ben|\bog|\boch)\s*$", re.IGNORECASE)
_MONTH_THEN_DASH = re.compile(r"(?<![\w.])([^\W\d_]{3,})\.?\s*(?:-|–|—|/)\s*$")


def _month_before(text: str, a: _Atom) -> DateRange | None:
    """The range "<month> – <month> <year>" ending at date atom ``a``, when a month name stands alone
    before it; None otherwise."""
    if not a.value or len(a.value) != 7:
        return None
    m = _MONTH_THEN_DASH.search(fold_same_length(text[: a.span[0]]))
    month = load_lexicon().months.get(normalize_key(m.group(1))) if m else None
    if not month or month > int(a.value[5:]):
        return None
    return DateRange(f"{a.value[:4]}-{month:02d}", a.value, False, (m.start(1), a.span[1]))
