"""Lines of one visual row merged left to right; wrapped table cells put back in their row.

Table-like CV layouts print a row's cells side by side (far-apart pieces are joined by a
tab so later stages can split cells), and a long cell wraps under itself, landing beside
the next row's cells unless it is pulled back.
"""

from __future__ import annotations

import itertools
import re

from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.layout.textline import TextLine, same_row

_BULLET_START = re.compile(r"^\s*[-–—•·*▪◦●‣]")
_CONNECTOR = re.compile(r"(?:\b(?:y|e|and|und|et|de|da|do|of|the|&)|[-,&])$", re.IGNORECASE)


def _completes_date(first: str, second: str) -> bool:
    """True when two stacked cell lines only form a date range together ("janv." / "2025–aujourd'hui")."""
    if len(first) > 25 or len(second) > 25:
        return False
    joined = sum(r.complete for r in find_date_ranges(f"{first} {second}"))
    return joined > sum(r.complete for r in find_date_ranges(first)) + sum(r.complete for r in find_date_ranges(second))


def _pull_wrapped_cells(rows: list[list[TextLine]]) -> None:
    """Move the wrapped second line of a table cell back into its cell's row.

    "Banca Privada Sastre y" / "asociados S.L." in a right-hand cell would otherwise be merged
    into the next row (beside a bullet of the middle cell).
    """
    right_edge = max((ln.x1 for row in rows for ln in row), default=0.0)
    for r in range(1, len(rows)):
        above = sorted(rows[r - 1], key=lambda ln: ln.x0)
        for piece in list(rows[r]):
            cell = next((q for q in above[1:] if abs(q.x0 - piece.x0) < 2.0), None)
            if cell is None or not 0 <= piece.y0 - cell.y1 < 0.8 * cell.height:
                continue
            if abs(piece.size - cell.size) > 0.3 or piece.bold != cell.bold:
                continue  # another style: the cell's second field (a place under the employer), not a wrap
            nxt = next((q.x0 for q in above if q.x0 > cell.x1), right_edge)
            first_word = piece.text.strip().split(" ")[0]
            if cell.x1 + (len(first_word) + 1) * 0.55 * cell.size < nxt - cell.size:
                continue  # the word would have fitted on the cell's line: a new row, not a wrap
            # a short capitalised tail ("Istituto Comprensivo" / "Cividale") when this row starts no new entry
            new_row = any(abs(q.x0 - above[0].x0) < 2.0 for q in rows[r])
            short_tail = (not new_row and len(piece.text.split()) <= 3 and len(cell.text.split()) <= 6
                          and piece.text[:1].isupper() and not _BULLET_START.match(piece.text))
            if piece.text[:1].islower() or short_tail or _CONNECTOR.search(cell.text.rstrip()) \
                    or _completes_date(cell.text, piece.text):
                cell.text = f"{cell.text.rstrip()} {piece.text.lstrip()}"
                cell.bbox = (min(cell.x0, piece.x0), cell.y0, max(cell.x1, piece.x1), piece.y1)
                rows[r].remove(piece)


def merge_rows(lines: list[TextLine]) -> list[TextLine]:
    """Merge pieces of one visual row (left to right); far-apart pieces are joined by a tab."""
    lines = sorted(lines, key=lambda ln: (ln.y0, ln.x0))
    rows: list[list[TextLine]] = []
    for ln in lines:
        if ln.flags.get("standalone"):
            rows.append([ln])
            continue
        for row in reversed(rows[-4:]):
            if row[0].flags.get("standalone"):
                continue
            if same_row(row[0], ln):
                row.append(ln)
                break
        else:
            rows.append([ln])
    _pull_wrapped_cells(rows)
    out: list[TextLine] = []
    for row in rows:
        if not row:
            continue
        row.sort(key=lambda ln: ln.x0)
        text = row[0].text
        for prev, cur in itertools.pairwise(row):
            gap = cur.x0 - prev.x1
            small, big = sorted((prev.size, cur.size))
            # pieces in very different type are two things side by side (a town beside a name in display
            # type): the gap is weighed in the smaller type, where a word space is small
            sep = " " if gap < 0.9 * (small if big >= 1.5 * small else big) else "\t"
            text = f"{text}{sep}{cur.text}" if text else cur.text
        first = max(row, key=lambda ln: len(ln.text))
        bbox = (
            min(ln.x0 for ln in row),
            min(ln.y0 for ln in row),
            max(ln.x1 for ln in row),
            max(ln.y1 for ln in row),
        )
        out.append(
            TextLine(
                text=text,
                page=row[0].page,
                bbox=bbox,
                size=first.size,
                bold=all(ln.bold for ln in row if ln.text.strip()),
                font=first.font,
                column=row[0].column,
                flags=dict(row[0].flags) if len(row) == 1 else {},
            )
        )
    out.sort(key=lambda ln: (ln.y0, ln.x0))
    return out
