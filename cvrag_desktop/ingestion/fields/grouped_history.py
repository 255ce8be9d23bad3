"""Work histories printed as profile exports print them (LinkedIn "Save to PDF", Xing and their copies).

Such a history has one shape whatever the person's trade: a date line that carries its own length
("April 2023 - Present (2 years 7 months)", "2012 - 2015 (4 years)"), the position's title on the
line(s) just above it, the employer either above the title in larger type (several positions grouped
under one firm, often with the firm's total time "7 years 2 months" under its name) or in the title
line itself ("Media Planner at Agency"), and the place on the line below. Typography, not
vocabulary, says which line is which, so hospitals, schools, banks and ministries read as well as
software firms. The reader is used only when the section has that shape; otherwise the general
entry rules apply.
"""

from __future__ import annotations

import re

from cvrag_desktop.domain import Education, Experience
from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.layout.line_kinds import DURATION_UNIT
from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.places import is_place_name

_LENGTH = (rf"\d+\s*{DURATION_UNIT}(?:[,\s]+\d+\s*{DURATION_UNIT})?|less than a year|moins d['’]un an|"
           r"weniger als ein jahr|menos de un año|meno di un anno|menos de um ano|minder dan een jaar|mniej niż rok|"
           r"mindre än ett år|mindre end et år")
_DATED_TAIL = re.compile(rf"\s*\(\s*(?:{_LENGTH})\s*\)\s*$", re.IGNORECASE)
_GROUP_LENGTH = re.compile(rf"^\s*(?:{_LENGTH})\s*$", re.IGNORECASE)
_AT = re.compile(r"\s+(?:at|@|chez|bei|en|presso|na|no|bij|w)\s+", re.IGNORECASE)


def _dated(text: str, *, need_length: bool = False) -> tuple[str | None, str | None, bool] | None:
    """(start, end, current) when the line is a date range (with its printed length if ``need_length``)
    and nothing else."""
    t = text.strip()
    m = _DATED_TAIL.search(t)
    if not m and need_length:
        return None
    head = t[:m.start()].strip() if m else t
    ranges = find_date_ranges(head)
    if len(ranges) != 1:
        return None
    r = ranges[0]
    rest = (head[:r.span[0]] + head[r.span[1]:]).strip(" -–—·|,")
    if rest or not r.start:
        return None
    return r.start, r.end, r.is_current


def _style(ln: TextLine) -> tuple[float, bool]:
    return round(ln.size * 2) / 2, ln.bold


def read_grouped_history(lines: list[TextLine], idx: list[int]) -> list[tuple[Experience, dict[str, int]]] | None:
    """The roles of an export-style experience section, or None when the section has another shape."""
    if not any(_dated(lines[i].text, need_length=True) for i in idx):
        return None  # the export's signature: a date line that prints its own length
    dated = [k for k, i in enumerate(idx) if _dated(lines[i].text)]
    if len(dated) < 0.5 * sum(bool(find_date_ranges(lines[i].text)) for i in idx):
        return None
    roles: list[tuple[Experience, dict[str, int], int]] = []
    firm: tuple[str, int] | None = None
    taken: set[int] = set()
    for n, k in enumerate(dated):
        date_i = idx[k]
        if k == 0:
            return None
        title_ks = [k - 1]
        tstyle = _style(lines[idx[k - 1]])
        while title_ks[0] - 1 >= 0 and title_ks[0] - 1 not in taken and len(title_ks) < 3:
            prev = lines[idx[title_ks[0] - 1]]
            if _style(prev) != tstyle or _GROUP_LENGTH.match(prev.text) or _dated(prev.text):
                break
            if n and title_ks[0] - 1 <= dated[n - 1] + 2:
                break  # the previous role's place and body end where this title begins
            title_ks.insert(0, title_ks[0] - 1)
        title = " ".join(lines[idx[j]].text.strip() for j in title_ks)
        company: str | None = None
        where: dict[str, int] = {"title": idx[title_ks[0]], "dates": date_i}
        above = title_ks[0] - 1
        if above >= 0 and _GROUP_LENGTH.match(lines[idx[above]].text):
            above -= 1
        if above >= 0 and above not in taken and lines[idx[above]].size > lines[idx[k - 1]].size + 0.2 \
                and not _dated(lines[idx[above]].text):
            firm = (lines[idx[above]].text.strip(), idx[above])
            taken.add(above)
        if firm is not None:
            company = firm[0]
            where["company"] = firm[1]
        elif len(parts := _AT.split(title, maxsplit=1)) == 2 and parts[0] and parts[1]:
            title, company = parts[0].strip(), parts[1].strip()
            where["company"] = idx[title_ks[0]]
        else:
            return None  # no firm above and none in the title: not this shape
        taken.update(title_ks)
        taken.add(k)
        start, end, current = _dated(lines[date_i].text)  # type: ignore[misc]
        location = None
        body_from = k + 1
        if k + 1 < len(idx) and _place_line(lines[idx[k + 1]].text):
            location = lines[idx[k + 1]].text.strip()
            taken.add(k + 1)
            body_from = k + 2
        roles.append((Experience(title=title or None, company=company, location=location, start=start, end=end,
                                 is_current=current), where, body_from))
    out: list[tuple[Experience, dict[str, int]]] = []
    for n, (exp, where, body_from) in enumerate(roles):
        stop = dated[n + 1] if n + 1 < len(dated) else len(idx)
        bullets = [lines[idx[j]].text.strip() for j in range(body_from, max(body_from, stop))
                   if j not in taken and not _GROUP_LENGTH.match(lines[idx[j]].text)][:30]
        out.append((exp.model_copy(update={"bullets": bullets}), where))
    return out


def _place_line(text: str) -> bool:
    """"Hilversum, North Holland, Netherlands", "Singapore", "Roosendaal Area": the role's place."""
    t = text.strip()
    if not t or len(t) > 60 or re.search(r"[\d.;:!?•]", t):
        return False
    pieces = [p.strip() for p in t.split(",") if p.strip()]
    if any(is_place_name(p) for p in pieces):
        return True
    head = re.sub(r"\s+(?:Area|Region|Metropolitan Area|Bay Area)$", "", pieces[0])
    return head != pieces[0] and is_place_name(head)


_EDU_EXPORT = re.compile(r"^(?P<degree>.*?)\s*·\s*\((?P<dates>[^()]*\d{4}[^()]*)\)\s*$")
_EDU_TRAILING_DATES = re.compile(r"^(?P<degree>.*?),\s*(?P<dates>\d{4}(?:\s*[-–—]\s*\d{4})?)\s*$")


def read_grouped_education(lines: list[TextLine], idx: list[int]) -> list[tuple[Education, dict[str, int]]] | None:
    """Education as exports print it: the school (bold or larger), then "Degree, Field · (2015 - 2019)"
    (2016–17 layout: "Degree, Field, 2010 - 2013" or the years alone). None for any other shape."""
    if not idx:
        return None
    heads = [k for k, i in enumerate(idx) if _EDU_EXPORT.match(lines[i].text.strip())]
    layout = _EDU_EXPORT
    if not heads:
        heads = [k for k, i in enumerate(idx) if k > 0 and _school_line(lines[idx[k - 1]], lines[i])
                 and (_EDU_TRAILING_DATES.match(lines[i].text.strip()) or _only_years(lines[i].text))]
        layout = _EDU_TRAILING_DATES
        schools = [k for k in range(len(idx)) if lines[idx[k]].bold and not _only_years(lines[idx[k]].text)]
        if len(heads) < 2 or len(heads) < len(schools):
            return None  # every bold school must be followed by its degree line for this shape
        lex = load_lexicon()
        if any(lex.degree_re.search(lines[idx[k - 1]].text) or lex.institution_re.search(
                (_EDU_TRAILING_DATES.match(lines[idx[k]].text.strip()) or [lines[idx[k]].text])[0]
                if not _only_years(lines[idx[k]].text) else "") for k in heads):
            return None  # "Degree" in bold above "School, 2018 – 2021": the other order, for the general rules
    out: list[tuple[Education, dict[str, int]]] = []
    for k in heads:
        i = idx[k]
        text = lines[i].text.strip()
        m = layout.match(text)
        degree, dates = (m.group("degree").strip(" ,·"), m.group("dates")) if m else (None, text)
        ranges = find_date_ranges(dates)
        start = ranges[0].start if ranges else None
        end = (ranges[0].end or ranges[0].start) if ranges else None
        where = {"degree": i} if degree else {}
        institution = None
        while layout is _EDU_EXPORT and degree and k >= 2 and idx[k - 1] == i - 1 \
                and not _school_line(lines[idx[k - 1]], lines[i]) and _school_line(lines[idx[k - 2]], lines[i]) \
                and not _EDU_EXPORT.match(lines[idx[k - 1]].text.strip()):
            # "Degree in a Long Subject of" / "Study · (2021 - 2023)": the degree wrapped above its dated tail
            degree = f"{lines[idx[k - 1]].text.strip()} {degree}"
            k, i = k - 1, idx[k - 1]
            where["degree"] = i
        if k > 0 and _school_line(lines[idx[k - 1]], lines[i]):
            institution = lines[idx[k - 1]].text.strip()
            where["institution"] = idx[k - 1]
        out.append((Education(degree=degree or None, institution=institution, start=start, end=end), where))
    return out or None


def _school_line(school: TextLine, degree: TextLine) -> bool:
    """The school's line sits above its degree line in bold or larger type."""
    return (school.bold and not degree.bold) or school.size > degree.size + 0.2


def _only_years(text: str) -> bool:
    return bool(re.fullmatch(r"\s*\d{4}(?:\s*[-–—]\s*(?:\d{4}|present))?\s*", text, re.IGNORECASE))
