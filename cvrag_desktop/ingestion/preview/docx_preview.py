"""A Word file's preview: its parsed lines typeset once into a PDF, and positions mapped onto it.

A .docx has no page geometry, so the parser gives its lines synthetic positions (page 0,
increasing y; ``docx_reader``) and the preview pane had nothing to show. Here the same
lines are drawn by the app's own renderer (PyMuPDF: Helvetica, Droid Sans Fallback for
scripts Helvetica lacks; headings bold, tables as cells in a row, long paragraphs wrapped)
onto A4 pages, and every line's box on those pages is recorded. The provenance of each
fact and the box of each chunk, read in synthetic positions, are then translated to the
preview's page and box, so the preview shows the same highlights as a PDF's.

The preview is content-addressed like the library copy (``<data>/previews/<sha256>.pdf``,
:func:`cvrag_desktop.catalog.library.preview_path`) and forgotten with it. A library from
before previews gets its preview on first view (:func:`preview_for_view`), where old
synthetic boxes are translated the same way.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from cvrag_desktop.catalog.library import preview_path
from cvrag_desktop.catalog.store.home_paths import LIBRARY
from cvrag_desktop.config import IngestLimits
from cvrag_desktop.domain import Chunk, NormalizedCV
from cvrag_desktop.errors import FileMissing
from cvrag_desktop.ingestion.read.docx_reader import extract_docx

PAGE_W, PAGE_H = 595.0, 842.0  # A4 in points
MARGIN = 56.0
MIN_SIZE, MAX_SIZE = 7.0, 22.0
LEADING = 1.25
PARAGRAPH_GAP = 0.3  # × size, after each parsed line (a Word paragraph or table row)
CELL_GAP = "    "  # table cells of one row, printed side by side
SYNTHETIC_X1 = 500.0  # docx_reader's synthetic line width: a box spanning 0..500 on page 0 is pre-preview


@dataclass
class PreviewLayout:
    """The rendered preview and where each parsed line landed: ``boxes[i]`` is line i's (page, bbox).

    ``rows[i]`` is line i's synthetic vertical span (y0, y1) as the parser placed it, kept
    here because normalisation may merge or reorder the parser's line list afterwards.
    """

    pdf: bytes
    pages: int
    boxes: list[tuple[int, tuple[float, float, float, float]]] = field(default_factory=list)
    rows: list[tuple[float, float]] = field(default_factory=list)


def _fonts():
    import pymupdf

    return {"regular": pymupdf.Font("helv"), "bold": pymupdf.Font("hebo"), "wide": pymupdf.Font("cjk")}


def _font_for(text: str, bold: bool, fonts: dict):
    """Helvetica when it has every glyph of the line, else the wide fallback font (CJK, other scripts)."""
    base = fonts["bold" if bold else "regular"]
    if all(ch.isspace() or base.has_glyph(ord(ch)) for ch in text):
        return base
    return fonts["wide"]


class _Measure:
    """Text widths from cached per-character advances (``Font.text_length`` is slow per call)."""

    def __init__(self) -> None:
        self.advances: dict[tuple[str, str], float] = {}

    def width(self, text: str, font, size: float) -> float:
        """Width of ``text`` in points at ``size`` (the sum of the glyph advances, as the writer places them)."""
        total = 0.0
        name = font.name
        for ch in text:
            adv = self.advances.get((name, ch))
            if adv is None:
                adv = self.advances[(name, ch)] = font.glyph_advance(ord(ch))
            total += adv
        return total * size


def _wrap(text: str, font, size: float, width: float, measure: _Measure) -> list[str]:
    """Greedy word wrap to ``width`` points; a word wider than a line is cut by characters."""
    out: list[str] = []
    current = ""
    space = measure.width(" ", font, size)
    used = 0.0
    for word in text.split(" "):
        w = measure.width(word, font, size)
        if current and used + space + w <= width:
            current, used = f"{current} {word}", used + space + w
            continue
        if not current and w <= width:
            current, used = word, w
            continue
        if current:
            out.append(current)
        while w > width and len(word) > 1:
            cut, part = 0, 0.0
            while cut < len(word) - 1 and part + measure.width(word[cut], font, size) <= width:
                part += measure.width(word[cut], font, size)
                cut += 1
            cut = max(1, cut)
            out.append(word[:cut])
            word = word[cut:]
            w = max(0.0, w - part) if part else measure.width(word, font, size)  # never re-measure the rest:
            # a 400,000-character word cut into lines re-measured its tail once per line (quadratic)
        current, used = word, w
    if current or not out:
        out.append(current)
    return out


def render_preview(lines) -> PreviewLayout:
    """Typeset parsed lines (``TextLine`` list of a .docx) onto A4 pages; returns the PDF and each line's box."""
    import pymupdf

    fonts = _fonts()
    measure = _Measure()
    doc = pymupdf.open()
    writers: list = []
    page = None
    y = MARGIN
    width = PAGE_W - 2 * MARGIN
    boxes: list[tuple[int, tuple[float, float, float, float]]] = []

    def new_page():
        nonlocal page, y
        if writers:  # finish the page before the next one (a page object does not outlive the next insert)
            writers[-1][1].write_text(page)
        page = doc.new_page(width=PAGE_W, height=PAGE_H)
        writers.append((page, pymupdf.TextWriter(page.rect)))
        y = MARGIN

    new_page()
    for i, ln in enumerate(lines):
        size = max(MIN_SIZE, min(MAX_SIZE, float(ln.size or 10.0)))
        heading = bool(ln.flags.get("docx_heading")) or (ln.bold and size >= 12.0)
        text = ln.text.replace("\t", CELL_GAP)
        font = _font_for(text, ln.bold or heading, fonts)
        step = size * LEADING
        if heading and i:
            y += size * 0.6  # air above a heading, as Word's heading styles have
        rows = _wrap(text, font, size, width, measure)
        if y + step > PAGE_H - MARGIN and y > MARGIN:
            new_page()
        first_page = len(writers) - 1
        box = None
        for row in rows:
            if y + step > PAGE_H - MARGIN:
                new_page()
            baseline = y + size * font.ascender
            writers[-1][1].append((MARGIN, baseline), row, font=font, fontsize=size)
            rect = (MARGIN, y, MARGIN + measure.width(row, font, size), y + size * (font.ascender - font.descender))
            if len(writers) - 1 == first_page:  # a paragraph broken over a page: its box is its first page's part
                box = rect if box is None else (box[0], box[1], max(box[2], rect[2]), rect[3])
            y += step
        y += size * PARAGRAPH_GAP
        boxes.append((first_page, tuple(round(v, 1) for v in box)))
    writers[-1][1].write_text(page)
    with contextlib.suppress(Exception):  # subsetting only makes the file smaller
        doc.subset_fonts()
    pdf = doc.tobytes(garbage=3, deflate=True)
    pages = doc.page_count
    doc.close()
    return PreviewLayout(pdf=pdf, pages=pages, boxes=boxes, rows=[(ln.bbox[1], ln.bbox[3]) for ln in lines])


def map_box(layout: PreviewLayout, page: int | None, bbox) -> tuple[int | None, tuple | None]:
    """The preview (page, bbox) of a box given in the parser's synthetic positions.

    The lines whose synthetic middle lies in the box's vertical span are the lines it covers;
    their preview boxes on the first preview page they reach are united.
    """
    if bbox is None or page not in (0, None):
        return page, bbox
    y0, y1 = float(bbox[1]) - 0.06, float(bbox[3]) + 0.06
    hit = [layout.boxes[i] for i, (a, b) in enumerate(layout.rows) if y0 <= (a + b) / 2 <= y1]
    if not hit:
        return page, None
    first = hit[0][0]
    same = [b for p, b in hit if p == first]
    return first, (min(b[0] for b in same), min(b[1] for b in same), max(b[2] for b in same), max(b[3] for b in same))


def remap(cv: NormalizedCV, chunks: list[Chunk], layout: PreviewLayout) -> tuple[NormalizedCV, list[Chunk]]:
    """``cv`` and ``chunks`` with every provenance and chunk position moved onto the preview PDF."""
    prov = []
    for p in cv.provenance:
        page, box = map_box(layout, p.page, p.bbox)
        prov.append(p.model_copy(update={"page": page, "bbox": box}))
    out = []
    for c in chunks:
        page, box = map_box(layout, c.page, c.bbox)
        out.append(c.model_copy(update={"page": page, "bbox": box}))
    return cv.model_copy(update={"provenance": prov}), out


def write_preview(path: Path, pdf: bytes) -> Path:
    """Write a preview atomically (temp file + rename): a reader never sees half a PDF."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(pdf)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return path


def is_synthetic(page: int | None, bbox) -> bool:
    """True for a box in the parser's pre-preview positions (page 0, spanning x 0..500)."""
    return bool(bbox) and page in (0, None) and float(bbox[0]) == 0.0 and float(bbox[2]) == SYNTHETIC_X1


@lru_cache(maxsize=8)
def _fresh_layout(stored: str, mtime_ns: int, size: int) -> PreviewLayout:
    """The layout of a library .docx rendered now (cached per file version: a legacy record's views reuse it)."""
    return render_preview(extract_docx(Path(stored), IngestLimits()).lines)


def _layout_of(stored: Path) -> PreviewLayout:
    st = stored.stat()
    return _fresh_layout(str(stored), st.st_mtime_ns, st.st_size)


def translate_boxes(stored: str | Path, boxes: list) -> list:
    """``(page, bbox)`` boxes of a Word record moved onto its preview: synthetic ones translated, others kept.

    Blind screening paints provenance boxes black; a record imported before previews has them
    in synthetic positions, which would cover the wrong lines of the preview.
    """
    stored = Path(stored)
    if not any(is_synthetic(p, b) for p, b in boxes):
        return list(boxes)
    layout = _layout_of(stored)
    out = []
    for page, bbox in boxes:
        if is_synthetic(page, bbox):
            page, bbox = map_box(layout, page, bbox)
        if bbox:
            out.append((page, tuple(bbox)))
    return out


def preview_for_view(stored: str | Path, page: int | None = 0, bbox=None) -> tuple[str, int, tuple | None]:
    """The preview PDF to show for a library .docx, made now when missing, and the box translated.

    A record imported before previews existed carries synthetic boxes: they are translated
    with the layout of a fresh render of the same file. Raises the typed errors of
    ``extract_docx`` when the file cannot be read.
    """
    stored = Path(stored)
    if stored.parent.name != LIBRARY:  # never write a preview beside a user's own file
        raise FileMissing(f"The library copy of {stored.name} is missing, so it cannot be previewed; import it again.")
    target = preview_path(stored)
    legacy = is_synthetic(page, bbox)
    if target.exists() and not legacy:
        return str(target), page or 0, tuple(bbox) if bbox else None
    layout = _layout_of(stored)
    if not target.exists():
        write_preview(target, layout.pdf)
    if legacy:
        page, bbox = map_box(layout, page, bbox)
    return str(target), page or 0, tuple(bbox) if bbox else None
