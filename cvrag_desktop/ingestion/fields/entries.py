"""Work-history and education entries from a section's lines.

An entry is a header (one to a few short lines: title, employer, dates, place)
followed by a body (bullets, prose). Entries are cut where a new header follows a
body, or where a header line brings a second date range. Header pieces are then
labelled title / company / location by vocabulary (job-title words, company
suffixes, "City, ST" shapes) and by the template's own order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cvrag_desktop.ingestion.fields.cells import is_location, strip_sentence_period
from cvrag_desktop.ingestion.fields.dates import DateRange, find_date_ranges
from cvrag_desktop.ingestion.layout.line_kinds import (
    BULLET,
    company_blurb,
    ends_with_range,
    group_duration,
    indented_item,
    is_stack_label,
    tech_stack,
)
from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.ingestion.read.textclean import FUNCTION_WORDS
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.places import country_in_text, is_place_name

_CELL_SPLIT = re.compile(
    r"\t|\s+[|•·]\s+|\s+[–—]\s+(?!(?:[A-Z]{2}|USA|UAE|NSW|QLD|ACT)\s*(?:$|,))"
    r"|\s+-\s+(?=[A-ZÀ-Ý\u3040-\u30ff\u3400-\u9fff])(?![A-Z]{2,4}\s*(?:$|,))|\|")
# ("Engineer — UTB" splits at its dash: a 3-letter employer; "Austin – TX" does not: a region code)
_AT = re.compile(r"^(.+?)\s+(?:at|@|bei|chez|presso)\s+(.+)$", re.IGNORECASE)
_LABEL = re.compile(r"^(?:date|dates|location|place|ort|lugar|lieu|luogo|local)\s*:\s*", re.IGNORECASE)
_PARTICLE = re.compile(r"^(?:(?:da|das|do|dos|de|del|della|van|von|der|den|ter|ten|di|du|le|la|al|el|'t)\s+){1,2}"
                       r"[A-ZÀ-Ý]")  # "van den Berg & Zonen", "van 't Riet Advocaten"
_TRAILING_JOIN = re.compile(r"(?:[,\-&]|\b(?:and|und|y|e|et))\s*$", re.IGNORECASE)  # words, not letters ("Italy")


@dataclass
class RawEntry:
    """Line indices of one entry: its header lines, its body lines and its dates."""

    header: list[int] = field(default_factory=list)
    body: list[int] = field(default_factory=list)
    dates: DateRange | None = None
    date_line: int | None = None


def is_body_line(text: str, prev: str | None) -> bool:
    """True for bullets, prose and wrapped continuations (not entry headers)."""
    t = text.strip()
    if BULLET.match(t) and not re.match(r"^\s*[-–—]\s*(?:\d|present|current)", t, re.I):
        cells = BULLET.sub("", t).split("\t")
        # "• Google <tab> Mountain View, CA": a bulleted employer line with its place cell heads an entry
        return not (len(cells) == 2 and len(cells[0].split()) <= 5 and is_location(cells[1]))
    first_cell = t.split("\t")[0]
    words = first_cell.split()
    if len(first_cell) > 80 or len(words) >= 12:
        return True
    if t.endswith(":") and len(words) <= 4:
        return True
    if is_stack_label(t):
        return True  # "Technologies : Kotlin, Ktor, …": the role's tools
    if t.endswith(("；", ";")) and not find_date_ranges(t):
        return True  # "Billing API integration;": a list item whose bullet the file did not keep
    if t.startswith("("):
        return True  # a parenthetical continuation
    if tech_stack(t):
        return True  # "ArgoCD, Kubernetes, Vault, Python": the role's tools, not a header
    if company_blurb(t):
        return True  # "Fintech company with about 300 employees": what the employer is, not who
    if words and words[0].islower() and not re.match(r"^(?:[a-z]+\.)?[a-z0-9-]+\.[a-z]{2,}", first_cell) \
            and not _PARTICLE.match(first_cell):
        return True  # a continuation ("iOS Developer" and "eBay" are not: they carry capitals)
    if t.endswith(".") and len(words) >= 6 and not _ends_in_legal_form(t):
        return True  # a sentence; "Fundacja Gorol-Kwinta Sp. z o.o. Sp.k." ends in a legal form, not a period
    return bool(prev is not None and _TRAILING_JOIN.search(prev) and len(words) <= 3)


def _ends_in_legal_form(text: str) -> bool:
    """True when the line's last characters are an employer's legal form ("… S.A.", "… Sp. z o.o. Sp.k.")."""
    return any(m.end() == len(text) for m in load_lexicon().company_re.finditer(text))


def _standalone_dates(text: str, body: bool) -> DateRange | None:
    """A date range that dates the entry (in bullet lines only when it sits in its own cell)."""
    cells = text.split("\t") if body else [text]
    for cell in cells[1:] if body else cells:
        ranges = find_date_ranges(cell)
        if not ranges:
            continue
        r = ranges[0]
        if r.start is None and r.end is None and not r.is_current:
            continue
        if body:
            covered = r.span[1] - r.span[0]
            if covered < 0.5 * len(cell.strip()):
                continue
        return r
    return None


def _wraps_at_firm(lines: list[TextLine], i: int) -> bool:
    """Line ``i`` finishes the employer of a "Title @ Firm" header line above it (same column and type)."""
    a, b = lines[i - 1], lines[i]
    t = b.text.strip()
    return (re.search(r"\s@(?:\s|$)", a.text) is not None and a.page == b.page and abs(a.x0 - b.x0) <= 2
            and abs(a.size - b.size) <= 0.3 and 1 <= len(t.split()) <= 4 and "\t" not in t
            and not BULLET.match(t) and not find_date_ranges(t))


def _anchor(lines: list[TextLine], entry: RawEntry, i: int) -> int:
    """The header line an indented item is measured against: the entry's dated line when it has one
    on this page (lines above it may be a stray wrap), else its first header line on this page."""
    if entry.date_line is not None and entry.date_line in entry.header and lines[entry.date_line].page == lines[i].page:
        return entry.date_line
    return next((h for h in entry.header if lines[h].page == lines[i].page), entry.header[0])


def segment_entries(lines: list[TextLine], idx: list[int]) -> list[RawEntry]:
    """Cut a section's lines into entries (header + body + dates)."""
    entries: list[RawEntry] = []
    cur: RawEntry | None = None
    prev_text: str | None = None
    date_offset: int | None = None  # where the date sits in this template's entry headers
    sizes = sorted(lines[i].size for i in idx) or [10.0]
    body_pt = sizes[len(sizes) // 2]
    prev_body = False
    prev_x0 = 0.0
    for i in idx:
        text = lines[i].text
        if group_duration(text):
            if cur is not None:
                cur.body.append(i)  # a firm's total time: kept as text, never a header of the next role
            cur = None
            prev_text, prev_body = text, True
            continue
        body = is_body_line(text, prev_text)
        leading = find_date_ranges(text[:40])
        if leading and leading[0].span[0] <= 2:
            body = False  # a line that starts with its dates opens an entry
        elif body and ends_with_range(text):
            body = False  # "Title Firm City, Country Sep. 2021 - Present": a flattened header line
        elif (
            not body
            and prev_body
            and prev_text is not None
            and not prev_text.rstrip().endswith((".", "!", "?", ":", ";"))
            and not lines[i].bold
            and lines[i].size <= body_pt + 0.5
            and not find_date_ranges(text)
            and "\t" not in text
            and lines[i].x0 >= prev_x0 - 1
        ):
            body = True  # the wrapped tail of the previous bullet
        elif not body and not lines[i].bold and lines[i].size <= body_pt + 0.5 and len(text.split()) >= 6 \
                and text.split()[-1].lower() in FUNCTION_WORDS and "\t" not in text and not find_date_ranges(text):
            body = True  # prose in body type wrapped after an article or preposition ("… focus on the")
        elif not body and cur is not None and cur.header and indented_item(lines[i], lines[_anchor(lines, cur, i)],
                                                                           body_pt):
            body = True  # a list item whose bullet is drawn, not typed: indented under its entry's header
        if body and cur is not None and cur.header and not cur.body and cur.header[-1] == i - 1 \
                and prev_text is not None and _TRAILING_JOIN.search(prev_text) and len(text.split()) <= 3 \
                and not BULLET.match(text.strip()) and lines[i - 1].page == lines[i].page:
            body = False  # "Engineer @ Castillo, Stephens and" / "Mason": the header's own wrapped end
        if cur is not None and cur.header and not cur.body and cur.header[-1] == i - 1 and _wraps_at_firm(lines, i):
            body = False  # "Engineer @ Beier Kramer GmbH" / "& Co. KG": the firm after "@" wrapped
        if body and cur is not None and cur.header and not cur.body and cur.header[-1] == i - 1 \
                and re.match(r"^\s*[—–]\s+[A-ZÀ-Ý]", text) and len(text.split()) <= 6 \
                and lines[i - 1].page == lines[i].page and find_date_ranges(lines[i - 1].text):
            body = False  # "— Client Name" under a dated title: the employer wrapped, not a bullet
        dates = _standalone_dates(text, body)
        if not body:
            if cur is None or cur.body:
                cur = RawEntry()
                entries.append(cur)
            elif dates is not None and cur.dates is not None:
                # a second dated header: the lines after the previous date belong to the new entry
                tail = cur.header[cur.header.index(cur.date_line) + 1:] if cur.date_line in cur.header else []
                keep = min(len(tail), date_offset if date_offset is not None else len(tail))
                moved = tail[len(tail) - keep:] if keep else []
                cur.header = [h for h in cur.header if h not in moved]
                cur = RawEntry(header=list(moved))
                entries.append(cur)
            cur.header.append(i)
        else:
            if cur is None:
                cur = RawEntry()
                entries.append(cur)
            cur.body.append(i)
        if dates is not None and cur.dates is None:
            cur.dates, cur.date_line = dates, i
            if date_offset is None and i in cur.header:
                date_offset = cur.header.index(i)
        prev_text = text
        prev_body = body
        prev_x0 = lines[i].x0
    # an undated header without a recognisable title merges into the previous entry's body
    lex = load_lexicon()
    merged: list[RawEntry] = []
    for e in entries:
        head = " ".join(lines[i].text for i in e.header)
        if merged and e.dates is None and not lex.title_re.search(head) and not lex.company_re.search(head) \
                and not lex.degree_re.search(head) and not lex.institution_re.search(head):
            merged[-1].body.extend(e.header + e.body)
            continue
        merged.append(e)
    return merged


_OPEN_END = re.compile(r"\s(?:in|of|en|de|em|di|der|für|and|und|et|e|y|&)$", re.IGNORECASE)  # a phrase cut mid-way
_DANGLING_PLACE = re.compile(r",\s*[A-ZÀ-Þ][\w'’-]*\s*$")


def _unwrap_header(lines: list[TextLine], entry: RawEntry) -> dict[int, str]:
    """Header texts with a wrapped place moved back ("… — Rogers-Holmes, New" / "Jeremyhaven  05/2024 — …").

    A header line that ends in a comma and one capitalised word ("Acme, San") stopped in
    the middle of a place name when the next header line starts with one or two words
    and then a side cell (its dates): those words finish the place.
    """
    texts = {i: lines[i].text for i in entry.header}
    for a, b in zip(entry.header, entry.header[1:], strict=False):
        if b == a + 1 and _wraps_at_firm(lines, b) and texts[b].strip():
            texts[a], texts[b] = f"{texts[a].rstrip()} {texts[b].strip()}", ""  # "… @ Beier Kramer GmbH" / "& Co. KG"
            continue
        dash = re.match(r"^\s*[—–]\s+(\S.*)$", texts[b])
        if b == a + 1 and dash and "\t" not in texts[b] and lines[a].page == lines[b].page:
            # "Advisory work <tab> 2022 – 2023" / "— Client Name": the employer wrapped under the title
            head, tab, side = texts[a].partition("\t")
            texts[a], texts[b] = f"{head.rstrip()} — {dash.group(1).strip()}{tab}{side}", ""
            continue
        if b == a + 1 and "\t" not in texts[b] and _OPEN_END.search(texts[a]) and lines[a].page == lines[b].page:
            texts[a], texts[b] = f"{texts[a].rstrip()} {texts[b].strip()}", ""  # "Laurea triennale in" / "Informatica"
            continue
        first, tab, rest = texts[b].partition("\t")
        if b != a + 1 or not tab or "\t" in texts[a] or lines[a].page != lines[b].page:
            continue
        if not _DANGLING_PLACE.search(texts[a]) or find_date_ranges(texts[a]):
            continue
        if not first.strip() or len(first.split()) > 2 or find_date_ranges(first) or not first[:1].isupper():
            continue
        texts[a] = f"{texts[a].rstrip()} {first.strip()}"
        texts[b] = f"\t{rest}" if rest else ""
    return texts


def header_fragments(lines: list[TextLine], entry: RawEntry) -> list[tuple[str, int]]:
    """Header pieces (date text removed, labels stripped), each with its line index."""
    out: list[tuple[str, int]] = []
    texts = _unwrap_header(lines, entry)
    for i in entry.header + ([entry.date_line] if entry.date_line is not None and entry.date_line not in entry.header else []):
        text = BULLET.sub("", texts.get(i, lines[i].text).strip())  # "• Google <tab> Mountain View, CA"
        if i not in entry.header:  # a body line holding the date in a side cell: keep only side cells
            text = "\t".join(text.split("\t")[1:])
        for r in find_date_ranges(text)[::-1]:
            text = text[: r.span[0]] + "\t" + text[r.span[1]:]
        text = re.sub(r"\b(?:since|seit|desde|depuis)\b", " ", text, flags=re.I)
        for cell in _join_place_country(_CELL_SPLIT.split(text)):
            cell = _trim_cell(cell)
            cell = re.sub(r"^\s*\d+\s+(?:years?|months?|yrs?|mos?)\b.*$", "", cell, flags=re.I)
            if cell and re.search(r"[^\W\d_]", cell):
                out.append((strip_sentence_period(cell), i))
    return out


_EMPLOYMENT = re.compile(
    r"\s*[(\[](?:internship|intern|trainee|praktikum|stage|stagiaire|tirocinio|pr[aá]ctica?s?|est[aá]gio|freelance|"
    r"freelancer|contract|contractor|part[- ]time|full[- ]time|werkstudent|alternance|apprentissage|apprenticeship|"
    r"cdi|cdd|remote|hybrid|volunteer|voluntary|temporary|temp|interim)[)\]]", re.IGNORECASE)
_TITLE_SENTENCE = re.compile(r"^([^.]{3,60}?[^\W\d_]{3})\.\s+[A-ZÀ-Ý]")


def _trim_cell(cell: str) -> str:
    """A header cell without separators, labels, an employment-type note or unbalanced brackets.

    "Acme (Internship)" → "Acme"; "Danggeun Pay Inc. (KarrotPay)" keeps its bracket; "(Remote" loses it;
    "Software Engineer. Design of the X framework" → "Software Engineer" (a title, then a description).
    """
    c = _LABEL.sub("", cell.strip(" ,;:：·|–—-")).strip(" ,;:：·|–—-")
    c = _EMPLOYMENT.sub("", c).strip()
    c = re.sub(r"^[(（][^()（）]{1,25}[)）]\s*:\s*", "", c)  # "(3 months) : Summer intern", "(expected) : PhD"
    for o, e in (("(", ")"), ("（", "）")):
        while c.startswith(o) and c.count(o) > c.count(e):
            c = c[1:].strip()
        while c.endswith(e) and c.count(e) > c.count(o):
            c = c[:-1].strip()
        tail = rf"\s*{re.escape(o)}[^{re.escape(e)}]*$"
        if c.count(o) > c.count(e) and re.search(tail, c):
            c = re.sub(tail, "", c)  # a bracket left open by a split ("Acme (Berlin")
        if c.startswith(o) and c.endswith(e) and c.count(o) == 1:
            c = c[1:-1].strip()
    m = _TITLE_SENTENCE.match(c)
    if m and load_lexicon().title_re.search(m.group(1)) and len(m.group(1).split()) <= 6:
        c = m.group(1)
    return c.strip(" ,;:·|–—-")


def _join_place_country(cells: list[str]) -> list[str]:
    """Re-join "Porto – Portugal" that the cell splitter cut at its dash: a place, then a country."""

    out: list[str] = []
    for cell in cells:
        c = cell.strip(" ,;:·|–—-")
        if out and c and len(c.split()) <= 3 and is_place_name(c) and country_in_text(c):
            prev = out[-1].strip(" ,;:·|–—-")
            if prev and len(prev.split()) <= 3 and prev[:1].isupper() and is_place_name(prev) \
                    and not find_date_ranges(prev):
                out[-1] = f"{prev}, {c}"
                continue
        out.append(cell)
    return out
