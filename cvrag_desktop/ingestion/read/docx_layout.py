"""A Word file's lines laid out on a virtual page, so that they are read in the order of its print.

A .docx has no geometry: where a line lands is decided by Word (or LibreOffice) when it is
printed. A CV's structure lives in that geometry, though: a layout table puts the period in a
narrow left cell beside the entry, a two-column table holds a sidebar beside the main column,
a section table names each section in its left cell. Here each paragraph, table cell and text box
is given the position its print would give it: the page's margins, the table grid's column widths,
a cell's padding, one row's cells side by side from the row's top, a paragraph's height by how many
lines it wraps to (its width estimated from its size and font). A table is then read from its
structure with the PDF reader's own rules (:meth:`Sheet.order_table`): a row of two long cells as
columns, any other table row by row, its cells joined by a tab and the labels of a left strip lifted
as headings. Typography comes from :class:`Typography` (runs, character styles, the paragraph
style's chain, the document's defaults).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cvrag_desktop.ingestion.layout.reading_order import TextLine, lift_gutter_headings
from cvrag_desktop.ingestion.layout.rows import merge_rows

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
CHAR_WIDTH = 0.47  # a character's mean advance in em when the font is not known
LEADING = 1.17  # a printed line's height in its size, at single spacing
CELL_PAD = 5.4  # Word's default left and right cell margin (0.19 cm)
A4 = (595.3, 841.9)
# mean advance of a character of running text, in em, by font family (what a line's width is estimated from)
FONT_WIDTHS = (("dejavu sans", 0.55), ("verdana", 0.56), ("tahoma", 0.5), ("arial", 0.5), ("helvetica", 0.5),
               ("liberation sans", 0.5), ("arimo", 0.5), ("open sans", 0.5), ("roboto", 0.48), ("calibri", 0.45),
               ("carlito", 0.45), ("times", 0.44), ("liberation serif", 0.44), ("tinos", 0.44), ("cambria", 0.47),
               ("caladea", 0.47), ("georgia", 0.5), ("garamond", 0.43))


def char_width(font: str | None) -> float:
    """The mean advance of a character in ``font`` (a family name, any case), in em."""
    name = (font or "").lower()
    return next((w for key, w in FONT_WIDTHS if key in name), CHAR_WIDTH)


@dataclass
class PageBox:
    """The printed page: its size and the margins of the text body, in points."""

    width: float = A4[0]
    height: float = A4[1]
    left: float = 72.0
    right: float = 72.0
    top: float = 72.0
    bottom: float = 72.0


def page_box(document) -> PageBox:
    """The first section's page size and margins (A4 with 2.5 cm margins when the file says nothing)."""
    box = PageBox()
    try:
        sec = document.sections[0]
    except IndexError:
        return box
    for attr in ("width", "height"):
        value = getattr(sec, f"page_{attr}", None)
        if value:
            setattr(box, attr, value.pt)
    for attr in ("left", "right", "top", "bottom"):
        value = getattr(sec, f"{attr}_margin", None)
        if value is not None:
            setattr(box, attr, max(0.0, value.pt))
    if box.width - box.left - box.right < 100:
        box.left = box.right = 36.0
    return box


def _style_attr(style, attr: str):
    """A font attribute (size, bold, all caps, name) from a style or the styles it is based on."""
    seen = 0
    while style is not None and seen < 10:
        value = getattr(style.font, attr, None)
        if value is not None:
            return value
        style, seen = style.base_style, seen + 1
    return None


def default_size(document) -> float:
    """The document's default type size (``w:docDefaults``), 10 pt when it names none."""
    try:
        sz = document.styles.element.xpath("w:docDefaults/w:rPrDefault/w:rPr/w:sz/@w:val")
        return int(sz[0]) / 2 if sz else 10.0
    except (ValueError, AttributeError):
        return 10.0


def default_font(document) -> str:
    """The document's default font family (``w:docDefaults``; a theme font is Word's Calibri)."""
    try:
        fonts = document.styles.element.xpath("w:docDefaults/w:rPrDefault/w:rPr/w:rFonts")
    except AttributeError:
        return ""
    if not fonts:
        return ""
    return fonts[0].get(f"{_W}ascii") or fonts[0].get(f"{_W}hAnsi") or ("calibri" if fonts[0].get(f"{_W}asciiTheme") else "")


def default_spacing(document) -> tuple[float, float, float]:
    """The document's default paragraph spacing (``w:docDefaults``): before and after in points, line multiple."""
    try:
        sp = document.styles.element.xpath("w:docDefaults/w:pPrDefault/w:pPr/w:spacing")
    except AttributeError:
        sp = []
    before = after = 0.0
    line = 1.0
    if sp:
        get = sp[0].get
        before = int(get(f"{_W}before") or 0) / 20
        after = int(get(f"{_W}after") or 0) / 20
        if get(f"{_W}line") and (get(f"{_W}lineRule") or "auto") == "auto":
            line = int(get(f"{_W}line")) / 240
    return before, after, line


def _format_attr(style, attr: str):
    """A paragraph format attribute (spacing) from a style or the styles it is based on."""
    seen = 0
    while style is not None and seen < 10:
        value = getattr(style.paragraph_format, attr, None)
        if value is not None:
            return value
        style, seen = style.base_style, seen + 1
    return None


class Typography:
    """Size, bold, capitals and font of runs, and paragraph spacing, with each style looked up once per file.

    python-docx finds a paragraph's style by walking every style of the file, each time (a
    50,000-paragraph file spent 52 s there): here a style is found by its id, once per id.
    """

    def __init__(self, document) -> None:
        from docx.styles.style import StyleFactory

        self._styles = document.styles
        self._default_para = None
        try:
            for el in self._styles.element.iterchildren(f"{_W}style"):
                if el.get(f"{_W}type") == "paragraph" and el.get(f"{_W}default") in ("1", "true", "on"):
                    self._default_para = StyleFactory(el)
                    break
        except Exception:  # a damaged styles part: direct formatting only
            self._default_para = None
        self.base = default_size(document)
        self.font = default_font(document)
        try:
            self._spacing = default_spacing(document)
        except ValueError:
            self._spacing = (0.0, 0.0, 1.0)
        self._space_cache: dict[str | None, tuple] = {}
        self._cache: dict[tuple[str, str | None], tuple] = {}

    def _by_id(self, style_id: str):
        """The style of that id (None when the file defines none), without building every style of the file."""
        from docx.styles.style import StyleFactory

        try:
            element = self._styles.element.get_by_id(style_id)
        except Exception:  # a damaged styles part
            return None
        return StyleFactory(element) if element is not None else None

    def _style(self, kind: str, style_id: str | None):
        key = (kind, style_id)
        known = self._cache.get(key)
        if known is None:
            style = self._by_id(style_id) if style_id else (self._default_para if kind == "p" else None)
            name = (style.name or "").lower() if style is not None else ""
            size = _style_attr(style, "size")
            known = (name, _style_attr(style, "bold"), size.pt if size is not None else None,
                     bool(_style_attr(style, "all_caps")), _style_attr(style, "name"))
            self._cache[key] = known
        return known

    def paragraph(self, paragraph) -> tuple[str, bool | None, float | None, bool, str | None]:
        """(style name in lower case, bold, size, all caps, font) of a paragraph's style chain."""
        return self._style("p", paragraph._p.style)

    def spacing(self, paragraph) -> tuple[float, float, object]:
        """(space before, space after, line spacing: a multiple or a Length) of a paragraph: its own
        format, else its style's chain, else the document's defaults."""
        sid = paragraph._p.style
        known = self._space_cache.get(sid)
        if known is None:
            style = self._by_id(sid) if sid else self._default_para
            known = tuple(_format_attr(style, a) for a in ("space_before", "space_after", "line_spacing"))
            self._space_cache[sid] = known
        fmt = paragraph.paragraph_format
        out = []
        for k, attr in enumerate(("space_before", "space_after", "line_spacing")):
            value = getattr(fmt, attr)
            value = known[k] if value is None else value
            if value is None:
                value = self._spacing[k]
            elif k < 2:
                value = min(max(0.0, value.pt), 72.0)
            out.append(value)
        return out[0], out[1], out[2]

    def run(self, run, para: tuple) -> tuple[float, bool, bool, float]:
        """(size, bold, all caps, a character's width in em) of a run: the run, its character style, the
        paragraph's, the defaults."""
        _, c_bold, c_size, c_caps, c_font = self._style("r", run._r.style) if run._r.style else \
            ("", None, None, False, None)
        _, p_bold, p_size, p_caps, p_font = para
        font = run.font
        size = font.size.pt if font.size is not None else c_size or p_size or self.base
        bold = font.bold if font.bold is not None else (c_bold if c_bold is not None else bool(p_bold))
        caps = font.all_caps if font.all_caps is not None else (c_caps or p_caps)
        return size, bool(bold), bool(caps), char_width(font.name or c_font or p_font or self.font)


@dataclass
class Piece:
    """One printed line's worth of a paragraph (a paragraph split at its line breaks)."""

    text: str
    size: float
    bold: bool
    em: float = CHAR_WIDTH  # a character's mean width in em (from the fonts of its runs)


@dataclass
class Sheet:
    """Lines placed on one long virtual page, in the order they are read (``y`` runs on past page ends)."""

    box: PageBox
    lines: list[TextLine] = field(default_factory=list)
    on_line: Callable[[str], None] | None = None  # counts lines and characters against the file's limits

    def place(self, piece: Piece, x0: float, width: float, y: float, heading: bool, line: object = 1.0) -> float:
        """Put a paragraph's line at (x0, y) in a column ``width`` wide; returns the y below it, after as many
        printed lines as its print wraps it to. The line stays whole (a DOCX knows its paragraphs, which
        the PDF reader has to guess from wrapped lines) and ends a little before the column's edge, so that
        beside another cell it is always a cell of its own."""
        if self.on_line is not None:
            self.on_line(piece.text)
        step = line.pt if hasattr(line, "pt") else piece.size * LEADING * float(line or 1.0)
        step = max(step, 0.8 * piece.size)  # an exact spacing set tiny still prints lines one under another
        width = max(width, 2 * piece.size)
        ink = min(len(piece.text) * piece.em * piece.size, max(piece.size, width - piece.size))
        ln = TextLine(piece.text, 0, (x0, y, x0 + ink, y + piece.size), piece.size, piece.bold, "docx")
        if heading:
            ln.flags["docx_heading"] = True
        self.lines.append(ln)
        return y + step * len(wrap(piece.text, width, piece.size, piece.em))

    def order_table(self, start: int, rows: list[list[tuple[int, int]]]) -> None:
        """Read the table whose lines are ``lines[start:]`` (``rows``: each row's cells as line ranges).

        A row of two long cells (six lines or more each) is a layout of columns: a sidebar beside the
        main column, each cell read whole, left to right, as the PDF reader reads a sidebar. Any other
        table is read row by row, as the PDF reader reads a table: each visual row's cells joined by a
        tab, section labels of a left strip lifted as headings (``order_page``'s rules without its
        column guess, which estimated widths could tip either way).
        """
        lines = self.lines[start:]
        columns = any(sum(1 for a, b in row if b - a >= 6) >= 2 for row in rows)
        if columns:
            for row in rows:
                for k, (a, b) in enumerate((a, b) for a, b in row if b > a):
                    for ln in self.lines[a:b]:
                        ln.column = min(k + 1, 2)
            return
        self.lines[start:] = merge_rows(lift_gutter_headings(lines))


def wrap(text: str, width: float, size: float, em: float = CHAR_WIDTH) -> list[str]:
    """``text`` cut at spaces into the lines a column ``width`` wide prints it on (a character ``em`` wide)."""
    room = max(4, int(width / (em * size)))
    if len(text) <= room:
        return [text]
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > room:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        out.append(line)
    return out


def grid_widths(table, width: float) -> list[float]:
    """The table grid's column widths in points, scaled into ``width`` when wider; equal columns when unknown."""
    try:
        cols = [c.w.pt if c.w is not None else 0.0 for c in table._tbl.tblGrid.gridCol_lst]
    except AttributeError:
        cols = []
    if not cols or any(c <= 0 for c in cols):  # no grid widths: the first row's cell widths, one per grid column
        first = table._tbl.tr_lst[0].tc_lst if table._tbl.tr_lst else []
        cells = [(tc.width.pt if tc.width is not None else 0.0, max(1, tc.grid_span)) for tc in first]
        n = max(len(cols), sum(span for _, span in cells), 1)
        if cells and all(w > 0 for w, _ in cells) and sum(span for _, span in cells) == n:
            cols = [w / span for w, span in cells for _ in range(span)]
        else:
            return [width / n] * n
    total = sum(cols)
    scale = width / total if total > width * 1.05 else 1.0
    return [c * scale for c in cols]


def stamp_synthetic(lines: list[TextLine]) -> float:
    """Give ordered lines the reader's synthetic positions (page 0, x 0-500, y down by 1.3 × size):
    the preview maps those onto its own pages. Returns the height they take."""
    y = 0.0
    for ln in lines:
        ln.page = 0
        ln.bbox = (0.0, y, 500.0, y + ln.size)
        y += ln.size * 1.3
    return y
