"""Split a CV's ordered lines into canonical sections.

Headings are recognised by the multilingual lexicon (``resources/headings.yaml``)
and by typography: once a few lexicon headings reveal the template's heading style
(size, weight, capitals), other short lines in that style start ``other`` sections.
Lines before the first heading form the ``contact`` header block.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from cvrag_desktop.text.keys import heading_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")  # kana and CJK ideographs


@dataclass
class SectionBlock:
    """A run of lines under one heading (``heading`` is None for the header block)."""

    section: str
    title: str
    heading: int | None
    lines: list[int] = field(default_factory=list)
    merged: bool = False  # entries' header lines in the heading style were merged in (_merge_entry_headings)
    known: bool = True  # the heading is a lexicon phrase (False: a line in the heading style the lexicon does not know)


def body_size(lines: list[TextLine]) -> float:
    """The font size carrying most characters: the CV's body text size."""
    c: Counter[float] = Counter()
    for ln in lines:
        c[round(ln.size * 2) / 2] += len(ln.text)
    return c.most_common(1)[0][0] if c else 10.0


def _emphasised(ln: TextLine, body: float) -> bool:
    letters = [ch for ch in ln.text if ch.isalpha()]
    caps = bool(letters) and sum(ch.isupper() for ch in letters) >= 0.8 * len(letters) and len(letters) > 2
    return ln.bold or caps or ln.size >= body * 1.12


def _subheading(lines: list[TextLine], marks: dict[int, str], i: int) -> bool:
    """An unknown heading in smaller type under a known section's heading ("Full Time" under "Experience")
    divides that section; it does not start a section of its own."""
    before = [j for j in marks if j < i and lines[j].page == lines[i].page and lines[j].column == lines[i].column]
    if not before:
        return False
    j = max(before)
    return marks[j] != "other" and lines[j].size > lines[i].size + 0.5


_JOINED = re.compile(r"\s*(?:[&/+,]|\b(?:and|und|et|y|e|i|og|en)\b)\s*", re.IGNORECASE)


def lexicon_section(text: str, *, partial: bool = False) -> str | None:
    """The canonical section a heading text names, or None.

    ``partial`` also accepts a known heading at the start or end of a short line
    ("Besondere Kenntnisse", "Experience Entries"); callers allow it only for lines
    in the template's heading style.
    """
    raw = text.strip().rstrip(":：").strip()
    if not raw or len(raw) > 60 or raw.endswith((".", ",", ";")):
        return None
    headings = load_lexicon().headings
    key = heading_key(raw)
    if not key:
        return None
    if key in headings:
        return headings[key]
    if re.match(r"^[^\W\d_] [^\W\d_]{3,}", key) and (joined := key[0] + key[2:]) in headings:
        return headings[joined]  # a drop cap set apart: "E xperience"
    if CJK.search(key):
        for phrase, sec in headings.items():
            if CJK.search(phrase) and phrase in key and len(key) <= len(phrase) + 3:
                return sec
        return None
    words = key.split()
    if not partial or len(words) > 5:
        return None
    parts = [p for p in _JOINED.split(raw) if p.strip()]
    if len(parts) > 1 and (first := heading_key(parts[0])) in headings:
        return headings[first]  # "Experience & Relevant Projects": the first named section leads
    for n in range(len(words) - 1, 0, -1):
        for chunk in (" ".join(words[-n:]), " ".join(words[:n])):
            if chunk in headings and len(chunk) >= 5:
                return headings[chunk]
    return None


def _style(ln: TextLine) -> tuple:
    return (round(ln.size * 2) / 2, ln.bold, _all_caps(ln.text))


@lru_cache(maxsize=16384)
def _all_caps(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return bool(letters) and all(ch.isupper() for ch in letters)


def _dated(text: str) -> bool:
    """A line that starts with a period ("2009 - 2012 Promotion in Physik") is an entry's header, never a heading."""
    return any(r.span[0] == 0 for r in find_date_ranges(text))


def _opens_entry(lines: list[TextLine], i: int) -> bool:
    """An unknown line in the heading style with a period of dates straight under it is a role's header
    ("Firm, Practice Manager" / "Aug. 2019 – Current"), not a section heading: headings are followed by
    their content, entries by their dates."""
    if i + 1 >= len(lines):
        return False
    nxt = lines[i + 1]
    if nxt.page != lines[i].page or nxt.column != lines[i].column:
        return False
    text = re.sub(r"\s*\([^()]*\)\s*$", "", nxt.text.strip())  # "… (1 year 10 months)"
    ranges = find_date_ranges(text)
    covered = sum(r.span[1] - r.span[0] for r in ranges)
    return bool(ranges) and covered >= 0.6 * len(text)


def _drop_entry_labels(lines: list[TextLine], marks: dict[int, str]) -> None:
    """A heading word printed three times or more is a label inside each entry, not a section.

    A section is named once; "Highlights", "Responsibilities" or "Achievements" over every role's bullets
    (JSON Resume themes, many Word templates) cut a history into pieces the size of one role. They are
    dropped only when the CV names other sections too, so a CV made only of such lines keeps them."""
    counts = Counter(heading_key(lines[i].text) for i in marks)
    repeated = {k for k, n in counts.items() if n >= 3}
    if repeated and len(counts) > len(repeated):
        for i in [i for i in marks if heading_key(lines[i].text) in repeated]:
            del marks[i]


def _continues_previous(lines: list[TextLine], i: int) -> bool:
    """A lower-case line set tight under a line of the same style continues it ("Entrevistas por / competencias")."""
    if i == 0 or not lines[i].text.strip()[:1].islower():
        return False
    a, b = lines[i - 1], lines[i]
    return a.column == b.column and a.page == b.page and _style(a) == _style(b) and 0 <= b.y0 - a.y1 < 0.6 * a.height


def _wrapped_headings(lines: list[TextLine], marks: dict[int, str]) -> set[int]:
    """Mark headings wrapped onto two lines ("Conoscenze / linguistiche"); return the tail lines.

    Both lines must share column, page and typography and sit close together; the
    first line gets the section, the second is part of the heading, not content.
    """
    tails: set[int] = set()
    for i in range(len(lines) - 1):
        a, b = lines[i], lines[i + 1]
        if i + 1 in marks or i in tails or "\t" in a.text or "\t" in b.text:
            continue
        if a.column != b.column or a.page != b.page or _style(a) != _style(b):
            continue
        if not (0 <= b.y0 - a.y1 < 0.8 * a.height) or len(a.text) + len(b.text) > 60:
            continue
        joined = f"{a.text.strip()} {b.text.strip()}"
        if i in marks:  # "Competenze / tecniche": the tail qualifies a heading already found
            if lexicon_section(joined, partial=True) == marks[i] and not b.text.strip()[:1].isdigit() \
                    and not _opens_entry(lines, i + 1):
                tails.add(i + 1)
        elif sec := lexicon_section(joined):
            marks[i] = sec
            tails.add(i + 1)
    return tails


def find_sections(doc: ExtractedDoc) -> list[SectionBlock]:
    """Group line indices of ``doc`` under canonical section headings."""
    lines = doc.lines
    body = body_size(lines)
    marks: dict[int, str] = {}
    candidates: list[int] = []
    for i, ln in enumerate(lines):
        cells = [c for c in ln.text.split("\t") if c.strip()]
        if not cells or len(ln.text) > 80:
            continue
        candidates.append(i)
        secs = [lexicon_section(c) for c in cells]
        if secs[0] and all(secs) and not _continues_previous(lines, i):
            marks[i] = secs[0]
    _drop_entry_labels(lines, marks)
    tails = _wrapped_headings(lines, marks)
    # learn the template's heading style from exact lexicon hits, then accept partial lexicon
    # matches and unknown short lines in that style; a sidebar and the main column may use two
    # styles: a second style is learned when its headings sit in columns where the main style has
    # none (otherwise it is a sub-heading style)
    def learn(top: tuple, hits: int) -> bool:
        same_style = sum(1 for ln in lines if _style(ln) == top)
        distinctive = top[0] > body * 1.05 or top[1] or top[2]
        return hits >= 2 and distinctive and same_style <= max(hits * 2, 0.12 * len(lines))

    plain_labels = [i for i in marks if not _emphasised(lines[i], body) and lines[i].text.strip().endswith((":", "："))]
    if doc.method != "pypdf" and len(marks) - len(plain_labels) >= 2:
        for i in plain_labels:
            del marks[i]  # "Highlights:" in body type inside a role: a label of the entry, not a section
    ranked = Counter(_style(lines[i]) for i in marks).most_common(2) if doc.method != "pypdf" else []
    style = ranked[0][0] if ranked and learn(*ranked[0]) else None
    if style is None and doc.method != "pypdf":
        # few exact hits ("Formations et diplômes", "Postes Précédents" are not in the lexicon word for
        # word): a distinctive style shared by three or more lines that partly name a section is the style
        partial = Counter(_style(lines[i]) for i in candidates
                          if "\t" not in lines[i].text and lexicon_section(lines[i].text, partial=True))
        top = partial.most_common(1)
        if top and top[0][1] >= 3 and learn(top[0][0], top[0][1]):
            style = top[0][0]
    learned = {style} if style else set()
    if style and len(ranked) > 1 and learn(*ranked[1]):
        main_cols = {lines[i].column for i in marks if _style(lines[i]) == style}
        if not any(lines[i].column in main_cols for i in marks if _style(lines[i]) == ranked[1][0]):
            learned.add(ranked[1][0])
    subheads: set[int] = set()
    unknown: set[int] = set()  # headings found by style alone, not by the lexicon
    for i in candidates:
        ln = lines[i]
        t = ln.text.strip()
        if i in marks or i in tails or "\t" in t:
            continue
        in_style = _style(ln) in learned if learned else (len(marks) < 2 and _emphasised(ln, body))
        if not in_style:
            continue
        sec = lexicon_section(t, partial=True)
        if sec and not _opens_entry(lines, i) and not _dated(t):  # "Community Editor at Firm" over its dates: a role
            marks[i] = sec
        elif (
            style
            and (2 < len(t) <= 40 or (len(t) == 2 and bool(CJK.search(t))))  # 論文: two ideographs
            and len(t.split()) <= 5
            and not re.search(r"[@\d]|https?:|www\.", t)
            and not t.endswith((".", ",", ":"))
        ):
            if _opens_entry(lines, i):
                continue
            if _subheading(lines, marks, i):
                subheads.add(i)  # a divider inside the section: neither a section nor an entry's text
            else:
                marks[i] = "other"
                unknown.add(i)
    blocks: list[SectionBlock] = [SectionBlock("contact", "", None)]
    current = blocks[0]
    by_column: dict[int, SectionBlock] = {}
    col_x: dict[int, float] = {}  # each column's left edge
    prev: TextLine | None = None
    for i, ln in enumerate(lines):
        if i in tails or i in subheads:
            continue
        if i in marks:
            title = ln.text.split("\t")[0].strip()
            if i + 1 in tails:
                title = f"{title} {lines[i + 1].text.strip()}"
            current = SectionBlock(marks[i], title, i, known=i not in unknown)
            blocks.append(current)
            by_column[ln.column] = current
            prev = ln
            continue
        if prev is not None and ln.column and (ln.column != prev.column or ln.page != prev.page):
            # a column resuming on a new page (or after the other column) continues its own section; the
            # top of a column with no heading yet (the name and headline beside a sidebar) is the header's
            current = by_column.get(ln.column, blocks[0] if ln.page == prev.page and prev.column else current)
        elif prev is not None and not ln.column and ln.page != prev.page and prev.column:
            # a page in one column after a page in two: it goes on with the column it is aligned with
            near = min(col_x, key=lambda c: abs(col_x[c] - ln.x0), default=None)
            if near is not None and abs(col_x[near] - ln.x0) <= 15 and near in by_column:
                current = by_column[near]
        current.lines.append(i)
        if ln.column:
            by_column[ln.column] = current
            col_x[ln.column] = min(col_x.get(ln.column, ln.x0), ln.x0)
        prev = ln
    return _merge_entry_headings([b for b in blocks if b.lines or b.heading is not None])


def _merge_entry_headings(blocks: list[SectionBlock]) -> list[SectionBlock]:
    """A history or an education left empty, followed by "sections" the lexicon does not know, printed its
    entries' headers (an employer, a school) in the heading style: those blocks, their header lines
    included, are its entries ("Work Experience" / "Blümel KGaA" / title / dates...)."""
    out: list[SectionBlock] = []
    for b in blocks:
        last = out[-1] if out else None
        if (b.section == "other" and not b.known and b.heading is not None and last is not None
                and last.heading is not None
                and last.section in ("experience", "education") and (not last.lines or last.merged)):
            last.lines.extend([b.heading, *b.lines])
            last.merged = True
            continue
        out.append(b)
    return out
