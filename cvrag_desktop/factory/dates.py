"""Month arithmetic and the many ways CVs print dates ("03/2019", "marzo 2019", "seit 2020").

Ground-truth dates are partial ISO strings; a style decides both how a date is printed
and how precise the ground truth is (a year-only style yields ``"2019"``), so the truth
never claims a month the reader cannot see.
"""

from __future__ import annotations

import datetime as dt

from cvrag_desktop.factory.profiles import LanguagePack

DATE_STYLES: tuple[str, ...] = ("month_year", "mon_year", "mm_yyyy", "mm_dot_yyyy", "iso", "year")


def month_index(d: dt.date) -> int:
    """A date as a running month number (year * 12 + month - 1)."""
    return d.year * 12 + d.month - 1


def month_iso(idx: int, precision: str = "month") -> str:
    """A running month number as partial ISO (``"2019-03"`` or ``"2019"``)."""
    year, month = divmod(idx, 12)
    return f"{year:04d}" if precision == "year" else f"{year:04d}-{month + 1:02d}"


def precision_of(style: str) -> str:
    """``"year"`` for year-only styles, otherwise ``"month"``."""
    return "year" if style == "year" else "month"


def truncate(partial: str | None, precision: str) -> str | None:
    """Drop the month of a partial date when the style only shows the year."""
    if partial is None or precision == "month":
        return partial
    return partial[:4]


def format_date(partial: str, style: str, pack: LanguagePack) -> str:
    """Print one partial date in a style using the language's month names."""
    year = partial[:4]
    if len(partial) < 7 or style == "year":
        return year
    month = int(partial[5:7])
    if pack.year_first:
        return _year_first(year, month, style)
    if style == "month_year":
        return f"{pack.months[month - 1]} {year}"
    if style == "mon_year":
        return f"{pack.months_short[month - 1]} {year}"
    if style == "mm_dot_yyyy":
        return f"{month:02d}.{year}"
    if style == "iso":
        return f"{year}-{month:02d}"
    return f"{month:02d}/{year}"


def _year_first(year: str, month: int, style: str) -> str:
    """Chinese and Japanese CVs write the year first: "2019年4月", "2019年04月", "2019.04", "2019/04"."""
    if style == "month_year":
        return f"{year}年{month}月"
    if style == "mon_year":
        return f"{year}年{month:02d}月"
    if style == "mm_dot_yyyy":
        return f"{year}.{month:02d}"
    if style == "iso":
        return f"{year}-{month:02d}"
    return f"{year}/{month:02d}"


def format_period(
    start: str | None,
    end: str | None,
    *,
    is_current: bool,
    style: str,
    pack: LanguagePack,
    present: str,
    sep: str = " – ",
    since_form: bool = False,
) -> str:
    """Print a period: ``"03/2019 – 06/2021"``, ``"2019–present"``, ``"seit 2020"``.

    ``since_form`` prints a current role as the language's "since" phrase.
    """
    if start is None:
        return ""
    first = format_date(start, style, pack)
    if is_current:
        if since_form:
            return f"{pack.since} {first}"
        return f"{first}{sep}{present}"
    if end is None:
        return first
    last = format_date(end, style, pack)
    if last == first:
        return first
    return f"{first}{sep}{last}"
