"""What a blind preview covers on a rendered PDF page beyond the person's own strings.

Three things leak on the page itself, not in the extracted record: the private-life lines a
Europass-style CV prints (date of birth, nationality, gender, street address: see
:mod:`blind_lines`), photos and other embedded images, and a name broken over two lines (the
second part of a surname, "Di", on the next line is too short to search for alone). This
module finds their rectangles on a PyMuPDF page (``pymupdf`` is imported by the caller's page
object only); the preview paints them solid. Qt-free, so the benchmark measures the very same
boxes the GUI paints.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from cvrag_desktop.catalog.privacy.blind_lines import is_label_only, personal_kind

Rect = tuple[float, float, float, float]
MIN_IMAGE_SIDE = 12.0  # points: smaller images are bullets and icons, not photos
_SPLIT = re.compile(r"[\s,]+")


def page_lines(page) -> list[tuple[Rect, str]]:
    """Each printed text line of the page: (bbox, text), in the text layer's order."""
    out: list[tuple[Rect, str]] = []
    for block in page.get_text("dict").get("blocks", []):
        for line in block.get("lines", []):
            text = "".join(s.get("text", "") for s in line.get("spans", []))
            if text.strip():
                out.append((tuple(float(v) for v in line["bbox"]), text))
    return out


def _beside_or_below(lines: list[tuple[Rect, str]], box: Rect) -> list[Rect]:
    """The value of a label printed alone: the line to its right on the same row, else the line just below."""
    x0, y0, x1, y1 = box
    h = max(y1 - y0, 1.0)
    right = [b for b, _ in lines if b[0] >= x1 - 1 and abs((b[1] + b[3]) / 2 - (y0 + y1) / 2) < h / 2]
    if right:
        return [min(right, key=lambda b: b[0])]
    below = [b for b, _ in lines if 0 <= b[1] - y1 < 1.5 * h and b[0] < x1 and b[2] > x0]
    return [min(below, key=lambda b: b[1])] if below else []


def personal_line_boxes(page, lines: list[tuple[Rect, str]] | None = None) -> list[Rect]:
    """Boxes of the lines stating a private detail (and the value of a label printed alone)."""
    lines = page_lines(page) if lines is None else lines
    out: list[Rect] = []
    for box, text in lines:
        if personal_kind(text):
            out.append(box)
            if is_label_only(text):
                out += _beside_or_below(lines, box)
    return out


def image_boxes(page) -> list[Rect]:
    """Boxes of the images drawn on the page (a photo, a scanned signature, a logo), bigger than an icon."""
    out: list[Rect] = []
    try:
        infos = page.get_image_info()
    except Exception:  # a damaged page: nothing to box, the text masks still apply
        return out
    for info in infos:
        x0, y0, x1, y1 = (float(v) for v in info.get("bbox") or (0, 0, 0, 0))
        if x1 - x0 >= MIN_IMAGE_SIDE and y1 - y0 >= MIN_IMAGE_SIDE:
            out.append((x0, y0, x1, y1))
    return out


def name_part_boxes(page, name: str | None) -> list[Rect]:
    """Every printed part of ``name`` where the name breaks across lines: a line holding one long part
    (3+ letters) as a word has its short parts ("Di", "Li") covered on itself and the lines just above
    and below it."""
    parts = [p.strip(".").casefold() for p in _SPLIT.split(name or "") if p.strip(".")]
    long_parts = {p for p in parts if len(p) >= 3}
    short_parts = {p for p in parts if len(p) < 3}
    if not long_parts or not short_parts:
        return []
    words = page.get_text("words")
    by_line: dict[tuple[int, int], list] = {}
    for w in words:
        by_line.setdefault((w[5], w[6]), []).append(w)
    keys = sorted(by_line, key=lambda k: (by_line[k][0][1], by_line[k][0][0]))
    tokens = {k: [(w, w[4].casefold().strip(".,;:()|")) for w in by_line[k]] for k in keys}
    out: list[Rect] = []
    for k in keys:
        if not any(t in long_parts for _, t in tokens[k]):
            continue
        y0, y1 = min(w[1] for w in by_line[k]), max(w[3] for w in by_line[k])
        h = max(y1 - y0, 1.0)
        for k2 in keys:
            ys = [w[1] for w in by_line[k2]]
            if abs(min(ys) - y0) <= 2.2 * h:
                out += [tuple(w[:4]) for w, t in tokens[k2] if t in short_parts]
    return out


def page_boxes(page, names: Iterable[str] = ()) -> list[Rect]:
    """Everything a blind preview covers on this page besides the identifying strings."""
    lines = page_lines(page)
    out = personal_line_boxes(page, lines) + image_boxes(page)
    for name in names:
        out += name_part_boxes(page, name)
    return out
