"""Date ranges that a narrow column or a wrapped line split apart, put back together.

Runs on the extracted lines before anything reads dates: "December 2023 - February" +
"… 2025", "Desde septiembre" + "2025", a date column merged into its row with the range's
end on the next line ("November 2023 Mobile Engineer, X" + "– present").
"""

from __future__ import annotations

import itertools
import re

from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.text.keys import normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon


def repair_wrapped_dates(lines: list[TextLine]) -> list[TextLine]:
    """Re-attach the tail of a date range that wrapped onto the next line.

    "December 2023 - February" + "HR Assistant … 2025" → "December 2023 - February 2025";
    "(2022-10 –" + "2024-07)" → "(2022-10 – 2024-07)"; "maio 2023 – o" + "momento" →
    "maio 2023 – o momento"; and in a gutter merged with its row, "settembre 2021 - Senior …" +
    "ottobre 2022" → "settembre 2021 - ottobre 2022 Senior …". A join is kept only when the
    joined text parses as a complete range.
    """
    # two passes: a range wrapped over three lines ("agosto 2018 –" / "septiembre" / "2022" in a narrow date
    # cell) is joined bottom-up, the month with its year first, then the start with that end
    for a, b in itertools.chain(itertools.pairwise(lines), itertools.pairwise(lines)):
        if a.page != b.page or a.column != b.column:
            continue
        if _stacked_date_cell(a, b, find_date_ranges):
            continue
        if not find_date_ranges(a.text):
            # "… · Desde septiembre" + "2025": a month whose year wrapped onto the next line; in a date
            # column beside the title ("Dal giugno <tab> Developer, X" + "2024 <tab> …") the first cells
            a_first, tab, a_rest = a.text.partition("\t")
            b_first = b.text.strip().split("\t")[0]
            if a_first.strip() in ("-", "–", "—") and find_date_ranges(f"2000 {a_first.strip()} {b_first}"):
                # "kwiecień 2025" / "—" / "obecnie": the dash and the end of a range stacked in a narrow cell
                a.text = f"{a_first.strip()} {b_first}" + (f"\t{a_rest}" if tab else "")
                b.text = "\t".join(b.text.strip().split("\t")[1:])
                continue
            lead = find_date_ranges(b.text.strip()[:30]) if normalize_key(a_first) in load_lexicon().since_words \
                else []
            if lead and lead[0].span[0] == 0:
                date = b.text.strip()[: lead[0].span[1]]
                joined = find_date_ranges(f"{a_first.strip()} {date}")
                if joined and joined[0].start is not None and joined[0].is_current:
                    # "Depuis" / "05.2024" stacked in a narrow date cell (its row's text may follow without a
                    # tab: "December 2025 Boutique law practice"): the since word and its date
                    a.text = f"{a_first.strip()} {date}" + (f"\t{a_rest}" if tab else "")
                    b.text = b.text.strip()[len(date):].strip().lstrip("\t")
                    continue
            year = re.match(r"^((?:19|20)\d{2})\b", b.text.strip())
            month = re.search(r"([^\W\d_]{3,12})\.?$", (a_first if tab and len(a_first.split()) <= 3 else a.text).strip())
            if year and month and len(b_first.split()) <= 3 \
                    and normalize_key(month.group(1)) in load_lexicon().months:
                if tab and len(a_first.split()) <= 3 and month.end() == len(a_first.strip()):
                    a.text = f"{a_first.rstrip()} {year.group(1)}\t{a_rest}"
                else:
                    a.text = f"{a.text.rstrip()} {year.group(1)}"
                b.text = b.text.strip()[len(year.group(1)):].strip()
            if not (find_date_ranges(a.text) and re.match(r"^[-–—]\s*\S", b.text)):
                continue  # else "september" + "2025 - Heden": the end of the range wrapped below as well
        if _join_leading_date(a, b, find_date_ranges):
            continue
        a_cells = a.text.split("\t")
        b_cells = b.text.split("\t")
        done = False
        for ia in dict.fromkeys((0, len(a_cells) - 1)):
            cell = a_cells[ia]
            for ib in dict.fromkeys((0, len(b_cells) - 1)):
                tail = b_cells[ib].strip()
                if not tail or len(tail) > 20 or len(tail.split()) > 3:
                    continue
                joined = _join_range(cell, tail, find_date_ranges)
                if joined is not None:
                    a_cells[ia] = joined
                    del b_cells[ib]
                    a.text = "\t".join(a_cells)
                    b.text = "\t".join(b_cells).strip()
                    done = True
                    break
            if done:
                break
    return [ln for ln in lines if ln.text.strip()]


_YEAR_LEAD = re.compile(r"^((?:19|20)\d{2})\b\s*(.*)$")
_END_THEN_BULLET = re.compile(r"^([-–—]\s*[^\s–—-]+(?:\s+[^\s–—-]+)?)(?:\s+([-–—•]\s+\S.*))?$")


def _stacked_date_cell(a: TextLine, b: TextLine, find) -> bool:
    """Date cells a narrow column broke over two rows, where the break also merged cells.

    "november <tab> Title, X" + "2025 — heden – first bullet": the month, then its year, the range's end
    and the first bullet on one row; "sinds februari Title, X" + "2026 <tab> City": a since-month whose
    tab was lost; "11.2024–pres <tab> Title" + "ente <tab> – bullet": a present word broken mid-word.
    """

    lex = load_lexicon()
    a_first, tab, a_rest = a.text.partition("\t")
    b_cells = b.text.strip().split("\t")
    broken = re.match(r"^(.*[-–—]\s*)([^\W\d_]{2,})$", a_first.strip()) if tab else \
        re.match(r"^(\S*\d{4}\s*[-–—]\s*)([^\W\d_]{2,})(?:\s+(\S.*))?$", a.text.strip())  # the row lost its tab
    if broken and re.fullmatch(r"[^\W\d_]{2,8}", b_cells[0].strip()) \
            and normalize_key(broken.group(2) + b_cells[0].strip()) in lex.present_words:
        rest = a_rest if tab else (broken.group(3) or "")
        a.text = f"{broken.group(1)}{broken.group(2)}{b_cells[0].strip()}" + (f"\t{rest}" if rest else "")
        b.text = "\t".join(b_cells[1:]).strip()
        return True
    words = a.text.split()
    lead_n = 2 if len(words) > 1 and normalize_key(words[0]) in lex.since_words else 1
    if not words or normalize_key(words[lead_n - 1].rstrip(".")) not in lex.months or re.search(r"\d", a_first):
        return False
    year = _YEAR_LEAD.match(b_cells[0].strip())
    if not year:
        return False
    head = " ".join(words[:lead_n])
    if tab and a_first.strip() == head:
        rest = a_rest
    else:  # the tab was lost: the month's row reads on after it
        rest = a.text.split(None, lead_n)[-1] if len(words) > lead_n else ""
    tail = year.group(2)
    end = _END_THEN_BULLET.match(tail) if tail else None
    joined = f"{head} {year.group(1)}" + (f" {end.group(1)}" if end else "")
    ranges = find(joined)
    if not ranges or ranges[0].span != (0, len(joined)) or (end and ranges[0].end is None and not ranges[0].is_current):
        return False
    if tail and not end and len(b_cells) == 1:
        return False  # "2025 Something else": the year opens another line, not this cell's date
    a.text = f"{joined}\t{rest}" if rest else joined
    leftover = end.group(2) if end else tail  # the first bullet, or what followed the year
    b.text = "\t".join([*([leftover] if leftover else []), *b_cells[1:]]).strip()
    return True


def _join_leading_date(a: TextLine, b: TextLine, find) -> bool:
    """"November 2023 Mobile Engineer, X" + "– present <tab> …": a date column merged into its row, the
    range's end wrapped below; the end goes back beside the start, and the date becomes its own cell."""
    b_cells = b.text.strip().split("\t")
    tail = b_cells[0].strip()
    bullet = re.match(r"^([-–—]\s*\S+(?:\s+\S+)?)\s+([-–—•]\s+\S.*)$", tail)
    if bullet and len(tail.split()) > 3:
        # "– noviembre 2018 – Responsable de …": the range's end and the first bullet share a visual row
        tail, b_cells = bullet.group(1), [bullet.group(1), bullet.group(2), *b_cells[1:]]
    if not re.match(r"^[-–—]\s*\S", tail) or len(tail.split()) > 3:
        return False
    lead = next((r for r in find(a.text[:30]) if r.span[0] <= 1), None)
    if lead is None or lead.start is not None or lead.span[1] >= len(a.text.rstrip()):
        return False
    head = a.text[: lead.span[1]].rstrip()
    ranges = find(f"{head} {tail}")
    if not ranges or ranges[0].start is None or (ranges[0].end is None and not ranges[0].is_current):
        return False
    a.text = f"{head} {tail}\t{a.text[lead.span[1]:].strip()}"
    b.text = "\t".join(b_cells[1:]).strip()
    return True


_OPEN_RANGE = re.compile(r"(?:\d{4}|\d{2})\W{0,2}\s*[-–—]\s*")


def _join_range(cell: str, tail: str, find) -> str | None:
    """``cell`` with ``tail`` put where its open range ends, if that completes one more range."""
    before = sum(r.complete for r in find(cell))
    points = [len(cell)]
    for m in _OPEN_RANGE.finditer(cell):
        nxt = re.match(r"[^\W\d_]{2,12}\.?(?=\s|$)", cell[m.end():])  # a dangling month ("março", "déc.")
        if nxt:
            points.append(m.end() + nxt.end())
        points.append(m.end())
    for at in points:
        rest = cell[at:].strip()
        piece = re.sub(r"^[-–—]\s*", "", tail) if re.search(r"[-–—]\s*$", cell[:at]) else tail  # "03.2018 –" + "– 05.2020"
        candidate = f"{cell[:at].rstrip()} {piece}" + (f" {rest}" if rest else "")
        if sum(r.complete for r in find(candidate)) > before:
            return candidate
    return None
