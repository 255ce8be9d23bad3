"""Word (.docx) files: paragraphs and table cells as lines, with heading styles as typography.

Word has no page geometry in the file, so lines get synthetic positions (page 0,
increasing y) and heading styles become a larger size with bold, which is what the
section detector looks for.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from cvrag_desktop.config import IngestLimits
from cvrag_desktop.errors import PdfEncrypted, PdfUnreadable, TooLarge, UnsupportedFormat
from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.ingestion.read.extracted import MAX_LINES, ExtractedDoc, raise_if_memory, truncated_note
from cvrag_desktop.ingestion.read.reasons import with_cause
from cvrag_desktop.ingestion.read.textclean import clean_text


def _iter_blocks(container):
    """Paragraphs and tables in order: of the body, a header/footer part, or a text box."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    if isinstance(container, _Box):
        element, parent = container.element, container.parent
    elif hasattr(container, "element") and hasattr(container.element, "body"):
        element, parent = container.element.body, container
    else:  # a header or footer part
        element, parent = container._element, container
    for child in element.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            yield Paragraph(child, parent)
        elif tag == "tbl":
            yield Table(child, parent)
        elif tag == "sdt":  # a content control (Word's "Name", "Address" fields) holds paragraphs too
            content = next((c for c in child.iterchildren() if c.tag.endswith("}sdtContent")), None)
            if content is not None:
                yield from _iter_blocks(_Box(content, parent))


class _Box:
    """A text box's content (``w:txbxContent``) or a content control, read like a small body."""

    def __init__(self, element, parent) -> None:
        self.element = element
        self.parent = parent


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"


def _text_boxes(paragraph) -> list[_Box]:
    """Text boxes anchored in a paragraph (contact blocks, sidebars), each once.

    Word writes a DrawingML text box and a VML copy of it (``mc:Fallback``): only the first is read.
    """
    out = []
    for box in paragraph._p.iter(f"{_W}txbxContent"):
        anc = box.getparent()
        fallback = False
        while anc is not None and anc is not paragraph._p:
            if anc.tag == _MC_FALLBACK:
                fallback = True
                break
            anc = anc.getparent()
        if not fallback:
            out.append(_Box(box, paragraph._parent))
    return out


def _page_parts(document, kind: str) -> list:
    """The first section's header (or footer) parts that print on page one: names and contacts live there."""
    try:
        section = document.sections[0]
    except IndexError:
        return []
    parts = []
    first = getattr(section, f"first_page_{kind}")
    default = getattr(section, kind)
    for part in ((first, default) if section.different_first_page_header_footer else (default,)):
        try:
            if not part.is_linked_to_previous:
                parts.append(part)
        except Exception:  # a damaged header part is no reason to lose the CV's body
            continue
    return parts


def _style_attr(style, attr: str):
    """A font attribute (size, bold) from a paragraph style or the styles it is based on."""
    seen = 0
    while style is not None and seen < 10:
        value = getattr(style.font, attr, None)
        if value is not None:
            return value
        style, seen = style.base_style, seen + 1
    return None


def _typography(paragraph, styles: dict | None = None) -> tuple[float, bool, bool]:
    """(size in points, bold, heading style) of a paragraph, runs first, then its style's chain.

    ``styles`` keeps each paragraph style's (name, bold, size) by its id for the whole file:
    python-docx finds a paragraph's style by walking every style of the file, each time (a
    50,000-paragraph file spent 52 s there).
    """
    key = paragraph._p.style  # the style's id; None for the default paragraph style
    known = styles.get(key) if styles is not None else None
    if known is None:
        style = paragraph.style
        known = ((style.name or "").lower() if style is not None else "", bool(_style_attr(style, "bold")),
                 _style_attr(style, "size"))
        if styles is not None:
            styles[key] = known
    name, style_bold, style_size = known
    runs = [r for r in paragraph.runs if r.text.strip()]
    bold = bool(runs) and all(r.bold if r.bold is not None else style_bold for r in runs)
    sizes = [r.font.size.pt for r in runs if r.font.size is not None]
    size = max(sizes) if sizes else (style_size.pt if style_size is not None else 10.0)
    heading = name.startswith("heading") or name == "title"
    if heading and not sizes and style_size is None:
        size, bold = (16.0 if name == "title" else 13.0), True
    elif heading:
        bold = True
    return size, bold, heading


def check_parts(infos: list[zipfile.ZipInfo], name: str, limits: IngestLimits) -> None:
    """Refuse a .docx whose parts (any of them: styles, media, fonts…) expand past the limits.

    python-docx reads every part of the package into memory, so every declared size
    counts; zipfile never yields more than a part's declared size (it fails the CRC).
    """
    if len(infos) > limits.max_docx_parts:
        raise TooLarge(f"{name} holds {len(infos):,} parts; the limit is {limits.max_docx_parts:,} (max_docx_parts).")
    xml_cap = 2 * limits.max_page_content_mb * 1_000_000
    total = 0
    for info in infos:
        total += info.file_size
        if total > limits.max_inflated_mb * 1_000_000:
            raise TooLarge(f"{name} expands to more than {limits.max_inflated_mb} MB (max_inflated_mb; "
                           f"{info.filename} is {info.file_size / 1e6:.0f} MB) — a decompression bomb?")
        if info.filename.lower().endswith((".xml", ".rels")) and info.file_size > xml_cap:
            raise TooLarge(f"{name}: its part {info.filename} expands to {info.file_size / 1e6:.0f} MB; the limit "
                           f"for one XML part is {xml_cap // 1_000_000} MB (2 × max_page_content_mb).")


def _table_rows(table, name: str, limits: IngestLimits, seen: list[int], styles: dict | None = None):
    """Each row's distinct cell texts, its largest type and whether it is all bold; merged cells read once
    per row (linear, unlike ``row.cells``).

    python-docx resolves every vertically merged cell by searching the rows above, which is
    quadratic: a large merged-cell table took minutes. Here the text of each grid column's
    top cell is remembered while the rows are walked.
    """
    from docx.oxml.ns import qn
    from docx.table import _Cell

    top: dict[int, str] = {}
    for tr in table._tbl.tr_lst:
        grid = tr.grid_before
        cells: list[str] = []
        sizes: list[float] = []
        bolds: list[bool] = []
        for tc in tr.iterchildren(qn("w:tc")):
            seen[0] += 1
            if seen[0] > limits.max_table_cells:
                raise TooLarge(f"{name} has more than {limits.max_table_cells:,} table cells (max_table_cells).")
            span = tc.grid_span
            if tc.vMerge == "continue":
                text = top.get(grid, "")
            else:
                cell = _Cell(tc, table)
                paras = [p for p in cell.paragraphs if p.text.strip()]
                text = " ".join(p.text.strip() for p in paras)
                for p in paras:
                    size, bold, _ = _typography(p, styles)
                    sizes.append(size)
                    bolds.append(bold)
                top[grid] = text
            if text and text not in cells:
                cells.append(text)
            grid += span
        yield cells, (max(sizes) if sizes else 10.0), bool(bolds) and all(bolds)


def extract_docx(path: Path, limits: IngestLimits) -> ExtractedDoc:
    """Read a .docx into ordered lines."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
            if "EncryptedPackage" in names:
                raise PdfEncrypted(f"{path.name} is password-protected; remove the password and import it again.")
            if "word/document.xml" not in names:
                raise UnsupportedFormat(f"{path.name} is a ZIP file but not a Word document.")
            check_parts(zf.infolist(), path.name, limits)
        import docx

        document = docx.Document(str(path))
    except (PdfEncrypted, UnsupportedFormat, TooLarge):
        raise
    except zipfile.BadZipFile as exc:
        raise PdfUnreadable(f"{path.name} is damaged or not a valid Word document.") from exc
    except Exception as exc:
        raise_if_memory(exc)  # the worker's memory cap, not a damaged file
        raise PdfUnreadable(with_cause(f"{path.name} cannot be read as a Word document.", exc)) from exc
    lines: list[TextLine] = []
    y = 0.0
    chars = 0

    def add(text: str, size: float, bold: bool, heading: bool = False) -> None:
        nonlocal y, chars
        for raw in text.splitlines():
            t = clean_text(raw)
            if not t.strip():
                continue
            if len(lines) >= MAX_LINES:  # far more than a CV: the rest is not read (a warning says so)
                raise _Enough
            chars += len(t)
            if chars > limits.max_chars:
                raise TooLarge(f"{path.name} holds more than {limits.max_chars:,} characters of text.")
            ln = TextLine(t, 0, (0.0, y, 500.0, y + size), size, bold, "docx")
            if heading:
                ln.flags["docx_heading"] = True
            lines.append(ln)
            y += size * 1.3

    seen_cells = [0]
    styles: dict = {}

    def read(container) -> None:
        """Paragraphs (with their text boxes) and tables of a body, header or footer, in order."""
        for block in _iter_blocks(container):
            if hasattr(block, "rows"):
                for cells, size, bold in _table_rows(block, path.name, limits, seen_cells, styles):
                    if cells:
                        add("\t".join(cells), size, bold)
                continue
            for box in _text_boxes(block):
                read(box)
            size, bold, heading = _typography(block, styles)
            add(block.text, size, bold, heading)

    warnings = []
    try:
        for part in _page_parts(document, "header"):
            read(part)
        read(document)
        for part in _page_parts(document, "footer"):
            read(part)
    except _Enough:
        warnings.append(truncated_note())
    if not lines:
        raise PdfUnreadable(f"{path.name} contains no text.")
    try:
        created = document.core_properties.created or document.core_properties.modified
    except Exception:  # a malformed core.xml is no reason to refuse the CV
        created = None
    return ExtractedDoc(lines=lines, page_count=1, method="docx", page_sizes=[(500.0, max(y, 800.0))],
                        created=created, warnings=warnings)


class _Enough(Exception):
    """Raised inside the walk of a Word file once :data:`MAX_LINES` lines are read."""
