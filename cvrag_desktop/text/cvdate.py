"""The date a CV prints for itself: "Last updated in Mar 2026", "Stand: 05/2024", "Berlin, 12. Februar 2026".

A CV written in 2015 that says "2015 – Present" means 2015 to 2015, not to today: the
CV's own date is the reference for "present" and for years of experience, and
recruiters ask whose CV is newest. The file's timestamps say when it was copied, not
written. A CV's own date is an "updated / as of / Stand / 現在" line, or a place-and-date
signature line, read with the multilingual month table of the extractor.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable

from cvrag_desktop.text.keys import normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon

_YEAR = r"(19[5-9]\d|20\d\d)"
_CUE = re.compile(r"(last\s+updated|updated|last\s+modified|last\s+edited|last\s+revised|revised|as\s+of|stand|"
                  r"aktualisiert|actualizado|"
                  r"mis\s+a\s+jour|atualizado|aggiornato)\b[\s:]*(on|in|am|le|el|em|il)?", re.I)
_CJK_DATE = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*日)?\s*(現在|更新|现在)")
_SIGNATURE = re.compile(r"^[A-ZÄÖÜÉ][\w .'-]{1,40},\s*(den\s+)?\d{1,2}\.?\s+\w+\.?\s+" + _YEAR + r"\s*$")


def parse_date_text(text: str) -> dt.date | None:
    """The first "day month year", "month day, year", "month year", "dd.mm.yyyy" or "mm/yyyy" in a text."""
    t = re.sub(r"(\d)(?:st|nd|rd|th)\b", r"\1", normalize_key(text))  # "October 29th, 2024"
    months = load_lexicon().months
    words = re.findall(r"[a-zäöüéèêûôàç]+\.?|\d+", t)
    for i, w in enumerate(words):
        m = months.get(w.rstrip("."))
        if not m:
            continue
        after = words[i + 1:i + 3]
        year = next((int(x) for x in after if re.fullmatch(_YEAR, x)), None)
        if year:
            return dt.date(year, m, 1)
    if m := re.search(r"\b(\d{1,2})[./](\d{1,2})[./]" + _YEAR, t):
        month = int(m.group(2))
        return dt.date(int(m.group(3)), month, 1) if 1 <= month <= 12 else None
    if m := re.search(r"\b(\d{1,2})[/.-]" + _YEAR + r"\b", t):
        month = int(m.group(1))
        return dt.date(int(m.group(2)), month, 1) if 1 <= month <= 12 else None
    return None


_FULL_DATE = re.compile(r"^(?:[A-Za-zÀ-ÿ]+\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+|\d{1,2}\.?\s+[A-Za-zÀ-ÿ]+\.?,?\s+|\d{1,2}[./]\d{1,2}[./])"
                        + _YEAR + r"$|^" + _YEAR + r"-\d{2}-\d{2}$")


def find_date_stamp(lines: Iterable[str], today: dt.date | None = None) -> tuple[dt.date, str] | None:
    """A cell that is only a full date with its day ("JUNE 2, 2024" in a running footer), recent enough
    not to be a birth date: the date the CV was printed, when it prints no "updated" line.

    Weaker than :func:`find_cv_date` (a certificate's date can look the same), so the latest such
    date is taken and callers check it against the dates the CV mentions.
    """
    today = today or dt.date.today()
    best: tuple[dt.date, str] | None = None
    for raw in lines:
        if not any(ch.isdigit() for ch in raw):
            continue
        for cell in raw.split("\t"):
            c = " ".join(cell.split())
            if len(c) > 24 or not _FULL_DATE.match(c):
                continue
            d = parse_date_text(c) if not re.match(r"^\d{4}-", c) else dt.date(int(c[:4]), int(c[5:7]), 1)
            if d is not None and today.year - 15 <= d.year and d <= today + dt.timedelta(days=366) \
                    and (best is None or d > best[0]):
                best = (d, " ".join(raw.split()))  # the latest: a certificate's date precedes the CV's own
    return best


def find_cv_date(lines: Iterable[str], today: dt.date | None = None) -> tuple[dt.date, str] | None:
    """The CV's own date (first day of its month) and the line that prints it; None when it prints none."""
    limit = (today or dt.date.today()) + dt.timedelta(days=366)
    for raw in lines:
        if len(raw) > 160 or not any(c.isdigit() for c in raw):
            continue  # every CV date carries a year
        line = " ".join(raw.split())
        if m := _CJK_DATE.search(line):
            month = int(m.group(2))
            if 1 <= month <= 12:
                return dt.date(int(m.group(1)), month, 1), line
        cue = _CUE.search(line)
        d = parse_date_text(line[cue.end():]) if cue else None
        if d is None and _SIGNATURE.match(line):
            d = parse_date_text(line)
        if d is not None and d <= limit:
            return d, line
    return None


_PDF_DATE = re.compile(r"^(?:D:)?(\d{4})(\d{2})?(\d{2})?")


def file_date(value: object, today: dt.date | None = None) -> dt.date | None:
    """The date a file says it was created (PDF "D:20190301…", a DOCX ``datetime``), if believable.

    Used as the CV's date when the CV prints none: a CV exported in 2019 that says "2017 –
    Present" speaks of 2019. Dates before 1990 or after today are tool defaults or clock
    errors and are ignored.
    """
    today = today or dt.date.today()
    if isinstance(value, dt.datetime):
        d = value.date()
    elif isinstance(value, dt.date):
        d = value
    elif isinstance(value, str) and (m := _PDF_DATE.match(value.strip())):
        try:
            d = dt.date(int(m.group(1)), int(m.group(2) or 1), int(m.group(3) or 1))
        except ValueError:
            return None
    else:
        return None
    return d if dt.date(1990, 1, 1) <= d <= today + dt.timedelta(days=1) else None
