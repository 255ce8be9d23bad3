"""PDF text spans to lines: which spans a reader would see, and how one line's spans join.

PyMuPDF gives each line as spans with a font, size, colour and box. Before lines are ordered,
text no reader sees is dropped (invisible render mode, white on white, text painted over by an
opaque fill drawn after it: keyword stuffing) and so is text inked twice a point apart (fake
bold, drop shadows); then each line's spans are joined with the gaps they leave and typed by
their dominant size and weight.
"""

from __future__ import annotations

import re
from collections import Counter

from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.ingestion.read.extracted import raise_if_memory
from cvrag_desktop.ingestion.read.textclean import ICON_FONT, clean_text


def line_from_spans(spans: list[dict], page_no: int) -> TextLine | None:
    """One text line from a PyMuPDF line's spans (icon-font glyphs left out), or None when nothing readable is left."""
    kept = [s for s in spans if s["text"].strip() and not ICON_FONT.search(s.get("font", ""))]
    if not kept:
        return None
    text = ""
    prev = None
    for s in kept:
        t = s["text"]
        if prev is not None:
            gap = s["bbox"][0] - prev["bbox"][2]
            if gap > 0.25 * s["size"] and not text.endswith(" ") and not t.startswith(" "):
                t = (" " if gap < 2.0 * s["size"] else "\t") + t
        text += t
        prev = s
    text = clean_text(text)
    if not text.strip():
        return None
    weights = Counter()
    bold_chars = 0
    for s in kept:
        n = len(s["text"].strip())
        weights[round(s["size"], 1)] += n
        if s["flags"] & 16 or re.search(r"bold|black|heavy|semibold|demi", s.get("font", ""), re.I):
            bold_chars += n
    total = sum(weights.values()) or 1
    size = weights.most_common(1)[0][0]
    x0 = min(s["bbox"][0] for s in kept)
    y0 = min(s["bbox"][1] for s in kept)
    x1 = max(s["bbox"][2] for s in kept)
    y1 = max(s["bbox"][3] for s in kept)
    return TextLine(text, page_no, (x0, y0, x1, y1), float(size), bold_chars >= 0.6 * total, kept[0].get("font", ""))


def drop_invisible_spans(page, data: dict) -> int:
    """Remove text no reader sees, and return how many characters went (keyword stuffing).

    Text drawn invisible (render mode 3: PyMuPDF gives its spans alpha 0) is dropped unless the
    page is a scan, where the invisible layer is the OCR text over the page image; near-white
    text is dropped unless a dark fill or an image lies under it (white on a coloured band is
    read).
    """
    import pymupdf

    spans = [(line, sp) for block in data.get("blocks", []) for line in block.get("lines", [])
             for sp in line.get("spans", [])]
    invisible = [sp for _, sp in spans if sp.get("alpha", 255) == 0 and sp.get("text", "").strip()]
    white = [sp for _, sp in spans if _near_white(sp.get("color", 0)) and sp.get("alpha", 255) != 0
             and sp.get("text", "").strip()]
    if not invisible and not white:
        return 0
    area = max(page.rect.width * page.rect.height, 1.0)
    images = [pymupdf.Rect(i["bbox"]) for i in page.get_image_info()]
    scan = any(r.width * r.height >= 0.6 * area for r in images)
    drop = [] if scan else list(invisible)
    if white:
        backs = images + [pymupdf.Rect(d["rect"]) for d in page.get_drawings()
                          if d.get("fill") is not None and sum(d["fill"][:3]) / 3 < 0.8]
        drop += [sp for sp in white if not any(pymupdf.Rect(sp["bbox"]).intersects(r) for r in backs)]
    gone = {id(sp) for sp in drop}
    for block in data.get("blocks", []):
        for line in block.get("lines", []):
            line["spans"] = [sp for sp in line.get("spans", []) if id(sp) not in gone]
    return sum(len(sp.get("text", "").strip()) for sp in drop)


COVER_SHARE = 0.9  # a glyph run is hidden when a later opaque fill covers this share of its box
COVERED_SPAN = 0.6  # a span is dropped when this share of its width is hidden glyph runs


def drop_covered_spans(page, data: dict) -> int:
    """Remove text painted over by an opaque fill drawn after it, and return how many characters went.

    The page's content is painted in order: a rectangle filled (any colour, opaque) *after* a
    piece of text, over its box, hides it (a white box over a line of skills: keyword stuffing;
    a black bar: a redaction left as text). A fill drawn *before* the text is its background and
    hides nothing. PyMuPDF numbers every drawing and every run of glyphs by its place in that
    order (``seqno`` of ``get_drawings`` and ``get_texttrace``); images are not fills (the image
    of a scan over its own text layer keeps that layer).
    """
    import pymupdf

    try:
        fills = _opaque_rectangles(page.get_drawings(extended=True))
        if not fills:
            return 0
        last_fill = max(n for n, _ in fills)
        hidden = []
        for run in page.get_texttrace():
            if run["seqno"] > last_fill:
                continue  # nothing is drawn after it
            box = pymupdf.Rect(run["bbox"])
            area = box.width * box.height
            if area > 0 and any(n > run["seqno"] and _area(box & r) >= COVER_SHARE * area for n, r in fills):
                hidden.append(box)
    except Exception as exc:  # a broken content stream: nothing more is dropped than the checks above drop
        raise_if_memory(exc)  # but the worker's memory cap is not a broken stream
        return 0
    if not hidden:
        return 0
    drop = []
    for block in data.get("blocks", []):
        for line in block.get("lines", []):
            kept = []
            for sp in line.get("spans", []):
                box = pymupdf.Rect(sp["bbox"])
                width = max(box.width, 1e-6)
                share = sum((box & h).width for h in hidden if (box & h).height > 0.3 * h.height) / width
                (drop if share >= COVERED_SPAN and sp.get("text", "").strip() else kept).append(sp)
            line["spans"] = kept
    return sum(len(sp.get("text", "").strip()) for sp in drop)


def _opaque_rectangles(drawings: list[dict]) -> list[tuple[int, object]]:
    """(seqno, the area it paints) of every opaque filled rectangle, from ``get_drawings(extended=True)``.

    Only what really hides counts: a path that is one rectangle (a frame's bounding box is not its
    shape), at full opacity once the transparency groups around it are counted (a LaTeX template
    paints a whole-page white box inside a 15 % group: a watermark), in a group blended normally,
    and cut to the clips around it.
    """
    import pymupdf

    out = []
    stack: list[tuple[int, str, object]] = []  # (level, "clip" | "group", scissor | (opacity, blend))
    for d in drawings:
        level = d.get("level", 0) or 0
        while stack and stack[-1][0] >= level:
            stack.pop()
        kind = d.get("type", "")
        if kind == "clip":
            stack.append((level, "clip", pymupdf.Rect(d.get("scissor") or d.get("rect"))))
            continue
        if kind == "group":
            stack.append((level, "group", (float(d.get("opacity") or 1.0), d.get("blendmode") or "Normal")))
            continue
        if "f" not in str(kind) or d.get("fill") is None or not _is_rectangle(d):
            continue
        opacity = float(d.get("fill_opacity") if d.get("fill_opacity") is not None else 1.0)
        rect = pymupdf.Rect(d["rect"])
        for _level, what, value in stack:
            if what == "group":
                opacity *= value[0]
                if value[1] != "Normal":
                    opacity = 0.0
            else:
                rect &= value
        if opacity >= 0.99 and not rect.is_empty and d.get("seqno") is not None:
            out.append((d["seqno"], rect))
    return out


def _is_rectangle(d: dict) -> bool:
    """One axis-aligned rectangle: a single ``re`` (or a ``qu`` whose corners are its box), or straight
    lines that only join the corners of their bounding box."""
    items = d.get("items") or []
    if len(items) == 1 and items[0][0] == "re":
        return True
    x0, y0, x1, y1 = d["rect"]
    corners = {(round(x, 1), round(y, 1)) for x in (x0, x1) for y in (y0, y1)}
    points = []
    for item in items:
        if item[0] == "qu":
            q = item[1]
            points += [q.ul, q.ur, q.ll, q.lr]
        elif item[0] == "l":
            points += [item[1], item[2]]
        else:
            return False
    return bool(points) and all((round(p.x, 1), round(p.y, 1)) in corners for p in points)


def _area(rect) -> float:
    return 0.0 if rect.is_empty else rect.width * rect.height


def _near_white(color: int) -> bool:
    """An sRGB integer whose every channel is at least 0xF0."""
    return all(((color >> shift) & 0xFF) >= 0xF0 for shift in (16, 8, 0))


def drop_shadow_spans(data: dict) -> None:
    """Remove text drawn twice a point or so apart (a fake bold or a drop shadow: "JOANNA JOANNA").

    A span whose text repeats an earlier span's, with its box shifted by less than a third of
    its size, is the same glyphs inked again, not a second word.
    """
    seen: dict[str, list[tuple[float, float, float]]] = {}
    for block in data.get("blocks", []):
        for line in block.get("lines", []):
            kept = []
            for span in line.get("spans", []):
                text = span.get("text", "").strip()
                x0, y0 = span["bbox"][0], span["bbox"][1]
                tol = max(0.3 * float(span.get("size", 10)), 0.5)
                if len(text) > 1 and any(abs(x0 - x) <= tol and abs(y0 - y) <= tol and (x, y) != (x0, y0)
                                         for x, y, _ in seen.get(text, ())):
                    continue
                seen.setdefault(text, []).append((x0, y0, tol))
                kept.append(span)
            line["spans"] = kept
