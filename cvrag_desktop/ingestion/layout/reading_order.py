"""Reading order for CV pages: columns, sidebars, date gutters and rows.

PDF text comes as positioned lines. CVs put a sidebar (contact, skills) beside the
work history, or dates in a narrow gutter beside each entry. A sidebar must be read
as its own column; a date gutter must stay on the same row as the entry it dates.
This module tells the two apart per page and returns lines in reading order,
with lines of one visual row merged (far-apart pieces joined by a tab).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from functools import lru_cache

from cvrag_desktop.ingestion.layout.rows import merge_rows
from cvrag_desktop.ingestion.layout.textline import TextLine, same_row
from cvrag_desktop.text.keys import heading_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon

__all__ = ["TextLine", "find_gutter", "lift_gutter_headings", "order_page"]


@lru_cache(maxsize=4096)
def _is_heading_text(text: str) -> bool:

    t = text.strip().rstrip(":")
    if t.endswith((".", ",")):
        return False  # the end of a sentence ("… years of experience.") is not a heading
    return 2 < len(t) <= 40 and heading_key(t) in load_lexicon().headings


_DATE_CELL = re.compile(r"(?:19|20)\d{2}|\b\d{1,2}[/.]\d{2,4}\b")


def _heading_lines(side: list[TextLine]) -> set[int]:
    """Ids of lines that are headings, alone or wrapped onto two lines (stacked labels)."""
    ordered = sorted(side, key=lambda ln: ln.y0)
    out: set[int] = set()
    for a, b in zip(ordered, [*ordered[1:], None], strict=True):
        if _is_heading_text(a.text):
            out.add(id(a))
        if b is None or (_is_heading_text(b.text) and id(a) in out) or not any(ch.isalpha() for ch in a.text):
            continue  # "Kluczowe" / "umiejętności", "Kursy i" / "szkolenia": a wrapped heading's last word may be one alone
        if _is_heading_text(f"{a.text} {b.text}") or _is_heading_text(a.text + b.text):
            out.update((id(a), id(b)))
    return out


def _count_aligned(side: list[TextLine], other: list[TextLine], *, tight: bool = False) -> int:
    """How many lines of ``side`` share a visual row with some line of ``other`` (``tight``: same baseline)."""
    others = sorted(other, key=lambda ln: ln.yc)
    keys = [ln.yc for ln in others]
    count = 0
    for ln in side:
        lo = bisect.bisect_left(keys, ln.yc - 2 * ln.height)
        hi = bisect.bisect_right(keys, ln.yc + 2 * ln.height)
        if any(same_row(ln, o) and (not tight or abs(ln.y1 - o.y1) < 0.8) for o in others[lo:hi]):
            count += 1
    return count


def _full_width_headings(left: list[TextLine], right: list[TextLine], left_heads: set[int],
                         right_heads: set[int]) -> bool:
    """True when every heading sits on the left with nothing beside it and the right has none.

    That is a single column whose section headings span the page, above tables whose
    first cells (dates, labels) happen to leave a gap; a real sidebar's headings have
    main-column text beside them, or the main column has headings of its own.
    """
    heads = [ln for ln in left if id(ln) in left_heads]
    # a heading row of two cells ("Languages | Certificates") is still a full-width heading row
    paired = {id(o) for o in right if id(o) in right_heads and any(same_row(o, h) for h in heads)}
    if len(heads) < 2 or right_heads - paired:
        return False
    for h in heads:
        pad = 0.3 * h.height
        if any(min(h.y1 + pad, o.y1) - max(h.y0 - pad, o.y0) > 0 for o in right
               if o.page == h.page and id(o) not in paired):
            return False
    return True


def find_gutter(lines: list[TextLine], page_width: float) -> float | None:
    """Return the x of a vertical gap separating two real columns, or None.

    A candidate gap must have text on both sides (each side at least 15 % of the
    characters and 4 lines) and be crossed by few lines. A left strip whose lines
    are mostly dates or labels sitting on the same rows as the right side is a
    gutter of the entry rows, not a column, and is rejected.
    """
    if len(lines) < 8:
        return None
    total_chars = sum(len(ln.text) for ln in lines) or 1
    # coverage[x] = how many lines cross the vertical x (difference array, 1 pt resolution)
    width = int(page_width) + 2
    diff = [0] * (width + 2)  # a line running past the page's edge ends at ``width``: its ``b + 1`` must fit
    for ln in lines:
        a, b = max(0, int(ln.x0 + 1) + 1), min(width, int(ln.x1 - 1))
        if a <= b:
            diff[a] += 1
            diff[b + 1] -= 1
    coverage, run = [], 0
    for d in diff[:width]:
        run += d
        coverage.append(run)
    lo, hi = int(page_width * 0.18), int(page_width * 0.82)
    if hi <= lo:
        return None
    crossing = min(coverage[lo:hi])
    if crossing > max(2, 0.08 * len(lines)):
        return None
    # centre of the widest run of minimal crossing
    best_run: tuple[int, int] = (0, -1)
    x = lo
    while x < hi:
        if coverage[x] == crossing:
            y = x
            while y + 1 < hi and coverage[y + 1] == crossing:
                y += 1
            if y - x > best_run[1] - best_run[0]:
                best_run = (x, y)
            x = y + 1
        else:
            x += 1
    xs = [float(best_run[0]), float(best_run[1])]
    gutter = (xs[0] + xs[-1]) / 2
    left = [ln for ln in lines if ln.x1 <= gutter + 1]
    right = [ln for ln in lines if ln.x0 >= gutter - 1]
    if len(left) < 4 or len(right) < 4:
        return None
    lchars = sum(len(ln.text) for ln in left)
    rchars = sum(len(ln.text) for ln in right)
    # a wide empty lane is a deliberate column break: a contact-only sidebar may hold few characters
    wide = best_run[1] - best_run[0] >= 0.05 * page_width
    share = 0.02 if wide else 0.06
    if lchars < share * total_chars or rchars < share * total_chars:
        return None
    left_heads, right_heads = _heading_lines(left), _heading_lines(right)
    for side, other, heads in ((left, right, left_heads), (right, left, right_heads)):
        aligned = _count_aligned(side, other)
        incidental = wide and _count_aligned(side, other, tight=True) < 0.3 * len(side)
        if aligned >= 0.6 * len(side) and not heads and not incidental:
            return None  # dates, places or labels beside entries: keep each row together
        if len(heads) >= 0.6 * len(side):
            return None  # a strip of section labels beside their content (lifted later)
        rest = [ln for ln in side if id(ln) not in heads]
        if rest and sum(1 for ln in rest if _DATE_CELL.search(ln.text)) >= 0.6 * len(rest) \
                and _count_aligned(rest, other) >= 0.6 * len(rest):
            return None  # a date gutter that also carries the section headings
        widths = sorted(ln.x1 - ln.x0 for ln in side)
        tight = _count_aligned(side, other, tight=True)
        other_heads = right_heads if side is left else left_heads
        # both sides carry headings of their own, text runs beside this side's headings and rows align
        # only by chance: a sidebar, not a table (whose section headings span empty rows)
        own = [ln for ln in side if id(ln) in heads]
        beside = sum(1 for h in own if any(same_row(h, o) or (o.y0 < h.yc < o.y1) for o in other if o.page == h.page))
        sidebar = len(own) >= 2 and len(other_heads) >= 2 and tight < 0.6 * len(side) and beside * 2 >= len(own)
        if widths[len(widths) // 2] < 0.2 * page_width and tight >= 0.35 * len(side) and not sidebar:
            return None  # narrow cells top-aligned with the other side: a table, read row by row
    if _full_width_headings(left, right, left_heads, right_heads):
        return None  # one column under full-width headings; the left strip is a table's first cells
    aligned = _count_aligned(left, right)
    widths = sorted(ln.x1 - ln.x0 for ln in left)
    incidental = wide and _count_aligned(left, right, tight=True) < 0.3 * len(left)
    if aligned >= 0.85 * len(left) and widths[len(widths) // 2] < 0.2 * page_width and len(left_heads) < 2 \
            and not incidental:
        return None  # table-like rows of short cells (a sidebar has headings of its own)
    return gutter


def lift_gutter_headings(lines: list[TextLine]) -> list[TextLine]:
    """Turn section labels printed in a left gutter beside the content into standalone headings.

    Europass-like templates print "Work / experience" in a narrow left strip, on the
    same rows as the first entry. Merged into those rows, the heading would be lost;
    here each such label (one or several stacked pieces) becomes its own line.
    """
    if not lines:
        return lines
    starts = Counter(round(ln.x0) for ln in lines)
    content_left = starts.most_common(1)[0][0]
    labels = sorted(
        (ln for ln in lines if ln.x1 <= content_left - 3 and len(ln.text) <= 40),
        key=lambda ln: ln.y0,
    )
    if not labels or len(labels) > 0.5 * len(lines):
        return lines
    used: set[int] = set()
    out_extra: list[TextLine] = []
    body = Counter(round(ln.size, 1) for ln in lines).most_common(1)[0][0]
    # the style of the labels the lexicon knows: an unknown word in that style is a heading too ("Work")
    # (only a style that stands out from the body: moderncv's item labels in the gutter are body type)
    styles = {(round(ln.size, 1), ln.bold) for ln in labels if _is_heading_text(ln.text.split("\t")[0])
              and (ln.bold or ln.size >= 1.1 * body)}
    for i, ln in enumerate(labels):
        if id(ln) in used:
            continue
        group = [ln]
        for nxt in labels[i + 1:i + 3]:
            if -0.5 * group[-1].height <= nxt.y0 - group[-1].y1 < 1.2 * group[-1].height:
                group.append(nxt)
            else:
                break
        for n in range(len(group), 0, -1):
            text = " ".join(g.text for g in group[:n])
            glued = "".join(g.text for g in group[:n])  # "Sprachkenntniss" / "e" wrapped mid-word
            if not _is_heading_text(text) and n > 1 and _is_heading_text(glued):
                text = glued
            if _is_heading_text(text) or (n == 1 and (_is_heading_text(text.split("\t")[0])
                                                      or _display_label(ln, lines, body)
                                                      or _styled_label(ln, styles))):
                top = min([ln.y0] + [o.y0 for o in lines if same_row(o, ln)])
                head = TextLine(
                    text=text, page=ln.page,
                    bbox=(ln.x0, top - 0.01, max(g.x1 for g in group[:n]), group[n - 1].y1),
                    size=ln.size, bold=True, font=ln.font, column=ln.column, flags={"standalone": True},
                )
                out_extra.append(head)
                used.update(id(g) for g in group[:n])
                break
    if not used:
        return lines
    return [ln for ln in lines if id(ln) not in used] + out_extra


def _display_label(ln: TextLine, lines: list[TextLine], body: float) -> bool:
    """A short word in display type in the gutter, on the row of the content beside it ("Work" at twice
    the body size beside the first role): a heading the lexicon does not know, kept off that row."""
    text = ln.text.strip()
    return (ln.size >= 1.4 * body and 2 < len(text) <= 30 and len(text.split()) <= 3
            and not any(c.isdigit() or c in "@/:|" for c in text)
            and any(o is not ln and o.x0 > ln.x1 and same_row(o, ln) for o in lines))


def _styled_label(ln: TextLine, styles: set[tuple[float, bool]]) -> bool:
    """A short word in the gutter in the style of the page's known headings ("Work" beside "Education")."""
    text = ln.text.strip()
    return ((round(ln.size, 1), ln.bold) in styles and 2 < len(text) <= 30 and len(text.split()) <= 3
            and not any(c.isdigit() or c in "@/:|" for c in text))


def order_page(lines: list[TextLine], page_width: float) -> list[TextLine]:
    """Return a page's lines in reading order, reading each column of a multi-column band in turn."""
    if not lines:
        return []
    gutter = find_gutter(lines, page_width)
    if gutter is None:
        return merge_rows(lift_gutter_headings(lines))
    full = sorted((ln for ln in lines if ln.x0 < gutter - 1 and ln.x1 > gutter + 1), key=lambda ln: ln.y0)
    full_ids = {id(ln) for ln in full}
    out: list[TextLine] = []
    # bands delimited by full-width lines; within a band, left column then right column
    bounds = [float("-inf")] + [ln.y0 for ln in full] + [float("inf")]
    for i in range(len(bounds) - 1):
        top, bottom = bounds[i], bounds[i + 1]
        if i > 0:
            out.extend(merge_rows([full[i - 1]]))
        band = [ln for ln in lines if top <= ln.y0 < bottom and id(ln) not in full_ids]
        left = [ln for ln in band if ln.x1 <= gutter + 1]
        left_ids = {id(ln) for ln in left}
        right = [ln for ln in band if ln.x0 >= gutter - 1 and id(ln) not in left_ids]
        for ln in left:
            ln.column = 1
        for ln in right:
            ln.column = 2
        out.extend(merge_rows(lift_gutter_headings(left)))
        out.extend(merge_rows(lift_gutter_headings(right)))
    return out
