"""Europass label/value rows: the 2004-2012 Europass CV template read as a form.

That template prints a column of fixed labels on the left ("Dates", "Occupation or
position held", "Name and address of employer", "Mother tongue(s)", ...) and the values
on the right, so every row of the extracted text is ``label <TAB> value``. The generic
entry parser would read the labels as titles and employers; here the first cell of a row
is looked up in a multilingual label table (``resources/europass.yaml``, data, not code)
and the value is filed under the field the label names. A label wrapped over two lines
("Name and address of" / "employer") is recognised by joining the halves.

A document counts as Europass-shaped only when several distinct field labels of the
template occur; otherwise ``read_europass`` returns None and the usual rules apply.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from functools import cache

from cvrag_desktop.domain import Education, Experience
from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.fields.identity.names import strip_post_nominals
from cvrag_desktop.ingestion.layout.textline import TextLine
from cvrag_desktop.text.keys import label_key, normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.places import is_place_name
from cvrag_desktop.text.vocab.resources import resource_yaml

CEFR = re.compile(r"^[ABC][12]$")
_BULLET = re.compile(r"\s*[•·▪●◦]\s*")
# fields whose labels belong to the template's core (the rest, e.g. "Address", also occur in plain CVs)
_CORE = frozenset({"name", "dates", "position", "activities", "employer", "business", "qualification",
                   "subjects", "institution", "level", "mother_tongue", "other_languages", "language_grid"})
_JOB = ("position", "activities", "employer", "business")
_STUDY = ("qualification", "subjects", "institution", "level")


@cache
def europass_labels() -> dict[str, str]:
    """Label key -> field name, read once from ``resources/europass.yaml``."""
    raw = resource_yaml("europass.yaml")
    out: dict[str, str] = {}
    for fld, labels in raw.items():
        for label in labels or []:
            out.setdefault(label_key(str(label)), str(fld))
    return out


@cache
def _label_prefixes() -> frozenset[str]:
    """Every word-prefix of a label of two or more words (the first half of a wrapped label)."""
    out = set()
    for key in europass_labels():
        words = key.split()
        out.update(" ".join(words[:k]) for k in range(1, len(words)))
    return frozenset(out)


def match_label(cell: str) -> str | None:
    """The field a label cell names ("Dates" -> "dates"), else None."""
    key = label_key(cell)
    return europass_labels().get(key) if key else None


@dataclass
class LabelRow:
    """A label and its value; ``line`` is the row's first line, ``lines`` all lines the row spans."""

    field: str
    value: str
    line: int
    lines: list[int] = dataclasses.field(default_factory=list)


@dataclass
class EuropassCV:
    """What the label rows say; lists pair each value with the line it came from."""

    rows: list[LabelRow]
    name: tuple[str, int] | None = None
    headline: tuple[str, int] | None = None  # the "Desired employment / Occupational field" row
    experiences: list[tuple[Experience, dict[str, int]]] = field(default_factory=list)
    education: list[tuple[Education, dict[str, int]]] = field(default_factory=list)
    languages: list[tuple[str, int]] = field(default_factory=list)
    skill_lines: list[int] = field(default_factory=list)

    def value_view(self, lines: list[TextLine]) -> list[TextLine]:
        """A copy of ``lines`` where each label row carries only its (unwrapped) value.

        Lines a row spans beyond its first are emptied, so list readers (skills) see one
        logical value per row and never a label.
        """
        out = list(lines)
        for row in self.rows:
            for j in row.lines:
                out[j] = dataclasses.replace(lines[j], text="")
            out[row.line] = dataclasses.replace(lines[row.line], text=row.value)
        return out


def _split(text: str) -> tuple[str, str]:
    cells = [c.strip() for c in text.split("\t")]
    return cells[0].rstrip(" :"), " ".join(c for c in cells[1:] if c)


def read_label_rows(lines: list[TextLine]) -> list[LabelRow]:
    """Every ``label <TAB> value`` row of the template, wrapped labels and values joined.

    Values are paired with their label by position as well as by reading order: on a long
    page the extractor may read the whole label column before the value column.
    """
    rows: list[LabelRow] = []
    used: set[int] = set()
    for i, ln in enumerate(lines):
        if i in used:
            continue
        first, rest = _split(ln.text)
        fld = None
        if i + 1 < len(lines) and label_key(first) in _label_prefixes():
            nxt_first, nxt_rest = _split(lines[i + 1].text)
            fld = match_label(f"{first} {nxt_first}")
            if fld:
                used.add(i + 1)
                rows.append(LabelRow(fld, " ".join(v for v in (rest, nxt_rest) if v), i, [i, i + 1]))
                continue
        fld = match_label(first)
        if fld:
            rows.append(LabelRow(fld, rest, i, [i]))
    if rows:
        _attach_values(lines, rows, used)
    return rows


def _attach_values(lines: list[TextLine], rows: list[LabelRow], used: set[int]) -> None:
    """Value-column lines join the row whose label is the nearest left-column line above them.

    This covers a wrapped value, further bullets, and values read apart from their labels.
    A left-column line that is not a label (a section heading) ends the row above it.
    """
    # the label column ends left of the value column; grid headers sit over the values, so they do not count
    label_x = max((lines[r.line].x0 for r in rows if r.field in _CORE - {"language_grid"}),
                  default=max(lines[r.line].x0 for r in rows))
    owner = {j: r for r in rows for j in r.lines}
    markers = sorted((ln.page, ln.y0, i) for i, ln in enumerate(lines)
                     if i in owner or "\t" in ln.text or ln.x0 <= label_x + 2)
    values = sorted((ln.page, ln.y0, i) for i, ln in enumerate(lines)
                    if i not in owner and "\t" not in ln.text and ln.x0 > label_x + 2)
    extra: dict[int, list[tuple[int, float, int]]] = {}
    k = -1
    for page, y, i in values:
        ln = lines[i]
        while k + 1 < len(markers) and (markers[k + 1][0], markers[k + 1][1]) <= (page, ln.yc):
            k += 1
        if k < 0:
            continue
        row = owner.get(markers[k][2])
        if row is None or row.field in ("language_grid", "contact"):
            continue
        extra.setdefault(id(row), []).append((page, y, i))
    for row in rows:
        for _, _, i in extra.get(id(row), []):
            row.value = f"{row.value} {lines[i].text.strip()}".strip()
            row.lines.append(i)


def is_europass(rows: list[LabelRow]) -> bool:
    """Several distinct template fields, at least one a job or study field: a Europass CV."""
    fields = {r.field for r in rows if r.field in _CORE}
    return len(fields) >= 4 and bool(fields & {*_JOB, *_STUDY})


def _company(value: str) -> tuple[str, str | None]:
    """The employer without its address ("ACME S.A., Calle Mayor 3, Madrid" -> "ACME S.A.", "Madrid").

    The label asks for "name and address", so trailing comma parts are the address: everything
    after the last part with a legal form ("Celentano, Nugnes e Columbo SPA, Napoli"), else
    trailing places, parts with numbers, and one short capitalised part (a city the place
    table does not know).
    """
    parts = [p.strip() for p in value.split(", ") if p.strip()]
    if len(parts) < 2:
        return value.strip(" ,;"), None
    company_re = load_lexicon().company_re
    legal = [k for k, p in enumerate(parts) if company_re.search(p)]
    if legal:
        keep = legal[-1] + 1
    else:
        keep = len(parts)
        while keep > 1 and (is_place_name(parts[keep - 1]) or re.search(r"\d", parts[keep - 1])):
            keep -= 1
        if keep == len(parts) and len(parts[-1].split()) <= 3 and all(w[:1].isupper() for w in parts[-1].split()):
            keep -= 1
    address = [p for p in parts[keep:] if not re.search(r"\d", p)]
    return ", ".join(parts[:keep]), (address[-1] if address else None)


def _languages_in(text: str) -> list[str]:
    lex = load_lexicon()
    out = []
    for m in lex.language_re.finditer(text):
        canon = lex.languages.get(normalize_key(m.group(0)))
        if canon and canon not in out:
            out.append(canon)
    return out


def _grid_language(text: str) -> str | None:
    """A CEFR self-assessment row: a language followed by level codes ("English  C1 C1 B2 B2 C1")."""
    cells = [c.strip() for c in re.split(r"\t|\s{2,}", text) if c.strip()]
    if len(cells) < 3 or sum(bool(CEFR.match(c)) for c in cells[1:]) < 2:
        return None
    found = _languages_in(cells[0])
    return found[0] if found else None


def _entries(rows: list[LabelRow]) -> list[dict[str, LabelRow]]:
    """Group job/study rows into entries: a "Dates" row or a repeated field starts a new one."""
    out: list[dict[str, LabelRow]] = []
    cur: dict[str, LabelRow] = {}
    for r in rows:
        if r.field not in ("dates", *_JOB, *_STUDY):
            continue
        if r.field == "dates" or r.field in cur:
            if cur:
                out.append(cur)
            cur = {}
        cur[r.field] = r
    if cur:
        out.append(cur)
    return out


def _experience(entry: dict[str, LabelRow]) -> tuple[Experience, dict[str, int]]:
    dates = entry.get("dates")
    rng = find_date_ranges(dates.value)[0] if dates and find_date_ranges(dates.value) else None
    company, place = _company(entry["employer"].value) if "employer" in entry else (None, None)
    bullets = [b.strip() for b in _BULLET.split(entry["activities"].value)] if "activities" in entry else []
    exp = Experience(title=entry["position"].value or None if "position" in entry else None,
                     company=company or None, location=place,
                     start=rng.start if rng else None, end=rng.end if rng else None,
                     is_current=bool(rng and rng.is_current), bullets=[b for b in bullets if b][:30])
    where = {k: entry[f].line for k, f in (("title", "position"), ("company", "employer"), ("dates", "dates"))
             if f in entry}
    return exp, where


def _education(entry: dict[str, LabelRow]) -> tuple[Education, dict[str, int]]:
    dates = entry.get("dates")
    rng = find_date_ranges(dates.value)[0] if dates and find_date_ranges(dates.value) else None
    inst = _company(entry["institution"].value)[0] if "institution" in entry else None
    ed = Education(degree=entry["qualification"].value or None if "qualification" in entry else None,
                   institution=inst or None, start=rng.start if rng else None, end=rng.end if rng else None)
    where = {k: entry[f].line for k, f in (("degree", "qualification"), ("institution", "institution")) if f in entry}
    return ed, where


def _name(rows: list[LabelRow]) -> tuple[str, int] | None:
    row = next((r for r in rows if r.field == "name" and r.value), None)
    if row is None:
        return None
    value = strip_post_nominals(row.value.split("\t")[0].strip())
    if "," in value and len(value.split(",")) == 2:  # "Surname, First name" under a surname-first label
        last, first = (p.strip() for p in value.split(","))
        value = f"{first} {last}"
    return (value, row.line) if 1 <= len(value.split()) <= 6 else None


def read_europass(lines: list[TextLine]) -> EuropassCV | None:
    """The facts of a Europass-shaped CV read from its label rows, or None for any other CV."""
    rows = read_label_rows(lines)
    if not is_europass(rows):
        return None
    cv = EuropassCV(rows=rows, name=_name(rows))
    for entry in _entries(rows):
        if any(f in entry for f in _JOB):
            cv.experiences.append(_experience(entry))
        elif any(f in entry for f in _STUDY):
            cv.education.append(_education(entry))
    langs: dict[str, int] = {}
    for r in rows:
        if r.field in ("mother_tongue", "other_languages"):
            for lang in _languages_in(r.value):
                langs.setdefault(lang, r.line)
    for i, ln in enumerate(lines):
        lang = _grid_language(ln.text)
        if lang:
            langs.setdefault(lang, i)
    cv.languages = list(langs.items())
    cv.skill_lines = [r.line for r in rows if r.field == "skills" and r.value]
    desired = next((r for r in rows if r.field == "desired" and r.value), None)
    if desired is not None:
        cv.headline = (desired.value.strip(), desired.line)
    return cv
