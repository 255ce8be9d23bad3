"""Text drawn as vector outlines: found on the page and read by OCR beside the real text.

Some exporters (online designers, "print to PDF" of web pages with custom fonts) draw part
of a page — often the whole main column with the name and every role — as glyph outlines
instead of text. The text layer then holds only the sidebar, and the CV imports with no name.
Such a row of glyphs is a vector drawing shaped like a line of text (a few points high, much
wider than high) made of very many path segments; a page with several of them is read by OCR,
and the OCR lines that do not overlap the real text are added to it.
"""

from __future__ import annotations

from cvrag_desktop.ingestion.layout.reading_order import TextLine

SPARSE_PAGE_CHARS = 1500  # only pages with less real text are searched for outlines (the search costs ~2 ms)
MIN_OUTLINED_ROWS = 3  # one outlined logo or heading is decoration, not a column of text
_MIN_SEGMENTS = 60  # a text row of glyph outlines has hundreds of curve segments; a rule or an icon a few


def outlined_text_rows(page, text_chars: int) -> int:
    """How many text-shaped rows of glyph outlines a page draws (0 on pages with plenty of real text)."""
    if text_chars >= SPARSE_PAGE_CHARS:
        return 0
    try:
        drawings = page.get_cdrawings()
    except Exception:  # a broken content stream: the text that was read stays, no OCR
        return 0
    # a row of glyphs is one drawing (Skia) or one per glyph (SVG converters): group fills by their baseline
    rows: dict[int, list[float]] = {}  # rounded bottom -> [x0, x1, height, segments]
    for d in drawings:
        if "f" not in str(d.get("type", "")):
            continue  # glyphs are filled; rules, frames and underlines are strokes
        x0, y0, x1, y1 = d["rect"]
        if not 3 <= y1 - y0 <= 40:
            continue
        row = rows.setdefault(round(y1 / 2), [x0, x1, 0.0, 0])
        row[0], row[1] = min(row[0], x0), max(row[1], x1)
        row[2], row[3] = max(row[2], y1 - y0), row[3] + len(d.get("items", ()))
    return sum(1 for x0, x1, height, segments in rows.values()
               if segments >= _MIN_SEGMENTS and x1 - x0 >= 3 * height)

def merge_ocr_lines(text_lines: list[TextLine], ocr_lines: list[TextLine]) -> list[TextLine]:
    """The page's real text plus the OCR lines that lie where no real text is (the outlined rows)."""

    def overlap(a: TextLine, b: TextLine) -> float:
        w = min(a.bbox[2], b.bbox[2]) - max(a.bbox[0], b.bbox[0])
        h = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
        return max(w, 0.0) * max(h, 0.0)

    kept = []
    for o in ocr_lines:
        area = max((o.bbox[2] - o.bbox[0]) * (o.bbox[3] - o.bbox[1]), 1e-6)
        if all(overlap(o, t) < 0.3 * area for t in text_lines):
            kept.append(o)
    return [*text_lines, *kept]
