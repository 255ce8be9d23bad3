"""A Word file's lines laid out on virtual pages, so that they are read in the order of its print.

A .docx has no geometry: where a line lands is decided by Word (or LibreOffice) when it is
printed. A CV's structure lives in that geometry, though: a layout table puts the period in a
narrow left cell beside the entry, a two-column table holds a sidebar beside the main column,
a section table names each section in its left cell. The PDF reader finds those from the
positions (``layout.reading_order``). Here each paragraph, table cell and text box is given the
position its print would give it: the page's margins, the table grid's column widths, a cell's
padding, one row's cells side by side from the row's top, a paragraph's height by how many lines
it wraps to (the text's width estimated from its size), pages of the section's height. Then the
PDF reader's own reading order reads each virtual page, so a table row becomes one line with its
cells joined by a tab, as the PDF's row merging gives it, and a sidebar is read as its own column.

A line's typography is weighed over its characters the way the PDF reader weighs spans: the size
most characters have and bold when 60 % of them are bold. A run's size and bold come from the run,
else its character style, else the paragraph style's chain, else the document's defaults; hidden
runs are not read and "all caps" runs are read in capitals, as they print.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from cvrag_desktop.ingestion.layout.reading_order import TextLine, order_page
from cvrag_desktop.ingestion.read.textclean import clean_text

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_SKIP_INSIDE = {f"{_W}txbxContent", "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback",
                f"{_W}del"}
CHAR_WIDTH = 0.47  # a character's mean advance in em: Calibri/Carlito, Arial and Times print close to it
LEADING = 1.17  # a printed line's height in its size, at single spacing
CELL_PAD = 5.4  # Word's default left and right cell margin (0.19 cm)
A4 = (595.3, 841.9)
_PARA = "docx_para"  # a printed line's paragraph, while reading order runs
_JOINED = "docx_joined"


@dataclass
class PageBox:
    """The printed page: its size and the margins of the text body, in points."""

    width: float = A4[0]
    height: float = A4[1]
    left: float = 72.0
    right: float = 72.0
    top: float = 72.0
    bottom: float = 72.0

    @property
    def body(self) -> float:
        """The text body's height: how far the flow runs before the next page."""
        return max(100.0, self.height - self.top - self.bottom)


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
    """A font attribute (size, bold, all caps) from a style or the styles it is based on."""
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
    """Size, bold and capitals of runs, with each style looked up once per file.

    python-docx finds a paragraph's style by walking every style of the file, each time (a
    50,000-paragraph file spent 52 s there): here styles are found by id in one dictionary.
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
                     bool(_style_attr(style, "all_caps")))
            self._cache[key] = known
        return known

    def paragraph(self, paragraph) -> tuple[str, bool | None, float | None, bool]:
        """(style name in lower case, bold, size, all caps) of a paragraph's style chain."""
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

    def run(self, run, para: tuple) -> tuple[float, bool, bool]:
        """(size, bold, all caps) of a run: the run, its character style, the paragraph's, the defaults."""
        _, c_bold, c_size, c_caps = self._style("r", run._r.style) if run._r.style else ("", None, None, False)
        _, p_bold, p_size, p_caps = para
        font = run.font
        size = font.size.pt if font.size is not None else c_size or p_size or self.base
        bold = font.bold if font.bold is not None else (c_bold if c_bold is not None else bool(p_bold))
        caps = font.all_caps if font.all_caps is not None else (c_caps or p_caps)
        return size, bool(bold), bool(caps)


@dataclass
class Piece:
    """One printed line's worth of a paragraph (a paragraph split at its line breaks)."""

    text: str
    size: float
    bold: bool


def _runs(paragraph):
    """The paragraph's own runs in order, those inside hyperlinks, fields and content controls too;
    not those of a text box anchored in it (read as its own block) nor deleted text."""
    from docx.text.run import Run

    p = paragraph._p
    for r in p.iter(f"{_W}r"):
        anc, skip = r.getparent(), False
        while anc is not None and anc is not p:
            if anc.tag in _SKIP_INSIDE:
                skip = True
                break
            anc = anc.getparent()
        if not skip:
            yield Run(r, paragraph)


def pieces(paragraph, typo: Typography) -> tuple[list[Piece], bool]:
    """The paragraph's lines (split at ``w:br``) with their typography, and whether its style is a heading."""
    para = typo.paragraph(paragraph)
    name = para[0]
    heading = name.startswith("heading") or name == "title"
    lines: list[list[tuple[str, float, bool]]] = [[]]
    for run in _runs(paragraph):
        if run.font.hidden:
            continue
        text = run.text
        if not text:
            continue
        size, bold, caps = typo.run(run, para)
        if heading and run.font.size is None and para[2] is None:
            size = 16.0 if name == "title" else 13.0  # a heading style that names no size prints larger
        if heading:
            bold = True
        if caps:
            text = text.upper()
        for k, part in enumerate(text.replace("\r", "\n").split("\n")):
            if k:
                lines.append([])
            if part:
                lines[-1].append((part, size, bold))
    out = []
    for segs in lines:
        text = clean_text("".join(s for s, _, _ in segs)).strip(" \t")
        if not text:
            continue
        weights: Counter = Counter()
        bold_chars = total = 0
        for s, size, bold in segs:
            n = len(s.strip())
            weights[round(size, 1)] += n
            total += n
            bold_chars += n if bold else 0
        size = weights.most_common(1)[0][0] if weights else typo.base
        out.append(Piece(text, float(size), bold_chars >= 0.6 * max(1, total)))
    return out, heading


@dataclass
class Sheet:
    """Lines placed on one long virtual sheet (``y`` runs on past page ends; :meth:`pages` cuts it)."""

    box: PageBox
    lines: list[TextLine] = field(default_factory=list)
    on_line: Callable[[str], None] | None = None  # counts lines and characters against the file's limits
    _para: int = 0

    def place(self, piece: Piece, x0: float, width: float, y: float, heading: bool, line: object = 1.0) -> float:
        """Put a paragraph's line at (x0, y) in a column ``width`` wide, wrapped as its print wraps it
        (each printed line its own, tagged to be joined again after reading order); returns the y below it."""
        if self.on_line is not None:
            self.on_line(piece.text)
        self._para += 1
        step = line.pt if hasattr(line, "pt") else piece.size * LEADING * float(line or 1.0)
        step = max(step, 0.8 * piece.size)  # an exact spacing set tiny still prints lines one under another
        for part in wrap(piece.text, max(width, 2 * piece.size), piece.size):
            ink = len(part) * CHAR_WIDTH * piece.size
            ln = TextLine(part, 0, (x0, y, x0 + min(ink, width), y + piece.size), piece.size, piece.bold, "docx",
                          flags={_PARA: self._para})
            if heading:
                ln.flags["docx_heading"] = True
            self.lines.append(ln)
            y += step
        return y

    def pages(self) -> list[list[TextLine]]:
        """The sheet cut into pages of the body's height (a line keeps its own page's coordinates)."""
        body = self.box.body
        out: list[list[TextLine]] = []
        for ln in self.lines:
            n = int(ln.y0 // body)
            while len(out) <= n:
                out.append([])
            y0 = self.box.top + ln.y0 - n * body
            ln.page = n
            ln.bbox = (ln.x0, y0, ln.x1, y0 + ln.size)
            out[n].append(ln)
        return out

    def read_order(self) -> list[TextLine]:
        """Every page read as the PDF reader reads one (columns, gutters, rows), pages in turn; the printed
        lines of one paragraph that stay together in that order are joined again (a DOCX knows its
        paragraphs, which the PDF reader has to guess)."""
        out: list[TextLine] = []
        for page in self.pages():
            for ln in order_page(page, self.box.width):
                para = ln.flags.pop(_PARA, None)
                last = out[-1] if out else None
                if para is not None and last is not None and last.flags.get(_JOINED) == para \
                        and ln.page == last.page and ln.column == last.column:
                    last.text = f"{last.text} {ln.text}"
                    last.bbox = (min(last.x0, ln.x0), last.y0, max(last.x1, ln.x1), ln.y1)
                    continue
                if para is not None:
                    ln.flags[_JOINED] = para
                out.append(ln)
        for ln in out:
            ln.flags.pop(_JOINED, None)
        return out


def wrap(text: str, width: float, size: float) -> list[str]:
    """``text`` cut at spaces into the lines a column ``width`` wide prints it on (widths estimated)."""
    room = max(4, int(width / (CHAR_WIDTH * size)))
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
