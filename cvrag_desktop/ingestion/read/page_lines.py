"""Lines across pages: page furniture dropped, words broken at a line end joined again.

Running headers and footers repeat on every page (page numbers, "Last edited …", a name
and contact card); they are dropped after reading order is known, once per text, and a
header is kept where it first appears. A word hyphenated across two lines of one column
is joined back so that skills and names are found whole.
"""

from __future__ import annotations

import re
from collections import Counter

from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.ingestion.read.textclean import ends_with_break_hyphen, join_broken_word

_PAGE_NUMBER = re.compile(r"^\s*(page|seite|página|pagina|p\.)?\s*\d{1,3}(\s*(/|of|von|de|di)\s*\d{1,3})?\s*$", re.I)
_TRAILING_PAGE = re.compile(r"[–—-]\s*\d{1,3}\s*/\s*\d{1,3}\s*$")


def drop_running_lines(pages: list[list[TextLine]], sizes: list[tuple[float, float]],
                        dropped: list[str] | None = None) -> list[TextLine]:
    """Drop page numbers and headers/footers repeated across pages (their texts, once each, go to ``dropped``:
    a running footer may print the CV's date)."""
    def key(t: str) -> str:
        return re.sub(r"\d+", "#", t.strip().lower())

    edge_counts: Counter[str] = Counter()
    for pno, lines in enumerate(pages):
        h = sizes[pno][1]
        seen = {key(ln.text) for ln in lines if ln.y0 < 0.08 * h or ln.y1 > 0.92 * h}
        edge_counts.update(seen)
    n = len(pages)
    pages = [pages[0], *(_without_repeated_opening(pages[0], p) for p in pages[1:])] if n >= 2 else pages
    out: list[TextLine] = []
    kept_header: set[str] = set()
    for pno, lines in enumerate(pages):
        h = sizes[pno][1]
        for ln in lines:
            if (ln.y0 < 0.15 * h or ln.y1 > 0.85 * h) and _PAGE_NUMBER.match(ln.text):
                continue
            at_edge = ln.y0 < 0.08 * h or ln.y1 > 0.92 * h
            if at_edge:
                if ln.y1 > 0.92 * h and _TRAILING_PAGE.search(ln.text):
                    continue
                if n >= 2 and edge_counts[key(ln.text)] >= max(2, n // 2 + (n > 2)):
                    k = key(ln.text)
                    if ln.y0 < 0.08 * h and k not in kept_header:
                        # a header repeated on every page is read once, where it first appears: LinkedIn
                        # exports and Word page headers print the name, headline and contacts there
                        kept_header.add(k)
                        out.append(ln)
                        continue
                    if dropped is not None and ln.text not in dropped:
                        dropped.append(ln.text)
                    continue
            out.append(ln)
    return out


def _without_repeated_opening(first: list[TextLine], page: list[TextLine]) -> list[TextLine]:
    """A later page without a card repeating page one's opening lines (name, headline, e-mail in the same
    type: the contact card an export prints on its last page). Two such lines in a row at least."""
    opening = {(ln.text.strip(), round(ln.size)) for ln in first[:5] if ln.text.strip()}
    hits = [(ln.text.strip(), round(ln.size)) in opening for ln in page]
    drop = {k for k in range(len(page)) if hits[k] and ((k > 0 and hits[k - 1]) or (k + 1 < len(page) and hits[k + 1]))}
    return [ln for k, ln in enumerate(page) if k not in drop] if drop else page


def rejoin_broken_words(lines: list[TextLine]) -> list[TextLine]:
    """Merge a line ending in a word-splitting hyphen with the next line of the same column."""
    out: list[TextLine] = []
    for ln in lines:
        if out:
            prev = out[-1]
            if (
                prev.page == ln.page
                and prev.column == ln.column
                and ends_with_break_hyphen(prev.text)
                and ln.text[:1].islower()
                and 0 <= ln.y0 - prev.y1 < 1.5 * prev.height
            ):
                prev.text = join_broken_word(prev.text, ln.text)
                prev.bbox = (
                    min(prev.x0, ln.x0), prev.y0, max(prev.x1, ln.x1), ln.y1
                )
                continue
        ln.text = ln.text.replace("\u00ad", "")
        out.append(ln)
    for ln in out:
        ln.text = ln.text.replace("\u00ad", "")
    return out
