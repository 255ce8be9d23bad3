"""Word (.docx) files: the body, its tables, text boxes, content controls and the page header part as lines.

Word has no page geometry in the file: every paragraph and table cell is placed where its print
would put it (``docx_layout``) and each table is read from its structure with the PDF reader's
rules (a layout table's row becomes one line of tab-joined cells, a sidebar cell its own column, a
section table's left cell a heading), so that a DOCX and its PDF print give the same lines. The
ordered lines then get synthetic positions (page 0, increasing y) that the Word preview maps onto
its own pages; heading styles become a larger size with bold, which is what the section detector
looks for. A line's typography is weighed over its characters as PDF spans are (:func:`pieces`).
"""

from __future__ import annotations

import zipfile
from collections import Counter
from pathlib import Path

from cvrag_desktop.config import IngestLimits
from cvrag_desktop.errors import PdfEncrypted, PdfUnreadable, TooLarge, UnsupportedFormat
from cvrag_desktop.ingestion.read.docx_layout import (
    CELL_PAD,
    CHAR_WIDTH,
    LEADING,
    Piece,
    Sheet,
    Typography,
    grid_widths,
    page_box,
    stamp_synthetic,
)
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
_SKIP_INSIDE = {f"{_W}txbxContent", _MC_FALLBACK, f"{_W}del"}  # a run there is not the paragraph's own text


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
    lines: list[list[tuple[str, float, bool, float]]] = [[]]
    for run in _runs(paragraph):
        if run.font.hidden:
            continue
        text = run.text
        if not text:
            continue
        size, bold, caps, em = typo.run(run, para)
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
                lines[-1].append((part, size, bold, em))
    out = []
    for segs in lines:
        text = clean_text("".join(seg[0] for seg in segs)).strip(" \t")
        if not text:
            continue
        weights: Counter = Counter()
        bold_chars = total = 0
        ems = 0.0
        for s, size, bold, em in segs:
            n = len(s.strip())
            weights[round(size, 1)] += n
            total += n
            bold_chars += n if bold else 0
            ems += n * em
        size = weights.most_common(1)[0][0] if weights else typo.base
        out.append(Piece(text, float(size), bold_chars >= 0.6 * max(1, total), ems / total if total else CHAR_WIDTH))
    return out, heading


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
    from docx.oxml.ns import qn

    box = page_box(document)
    typo = Typography(document)
    count = {"lines": 0, "chars": 0, "cells": 0}

    def on_line(text: str) -> None:
        count["lines"] += 1
        if count["lines"] > MAX_LINES:  # far more than a CV: the rest is not read (a warning says so)
            raise _Enough
        count["chars"] += len(text)
        if count["chars"] > limits.max_chars:
            raise TooLarge(f"{path.name} holds more than {limits.max_chars:,} characters of text.")

    sheet = Sheet(box, on_line=on_line)

    def paragraph(block, x0: float, width: float, y: float) -> float:
        for tbox in _text_boxes(block):
            y = read(tbox, x0, width, y)
        indent = block.paragraph_format.left_indent
        shift = min(max(0.0, indent.pt), width / 2) if indent is not None else 0.0
        lines, heading = pieces(block, typo)
        before, after, line = typo.spacing(block)
        y += before
        if not lines:  # an empty paragraph prints as a blank line
            return y + (typo.paragraph(block)[2] or typo.base) * LEADING + after
        for piece in lines:
            y = sheet.place(piece, x0 + shift, width - shift, y, heading, line)
        return y + after

    def table(block, x0: float, width: float, y: float) -> float:
        """Each row's cells side by side from the row's top, each cell's content in its own column."""
        widths = grid_widths(block, width)
        starts = [x0 + sum(widths[:k]) for k in range(len(widths) + 1)]
        first = len(sheet.lines)
        rows: list[list[tuple[int, int]]] = []
        for tr in block._tbl.tr_lst:
            grid, bottom = tr.grid_before, y
            rows.append([])
            for tc in tr.iterchildren(qn("w:tc")):
                count["cells"] += 1
                if count["cells"] > limits.max_table_cells:
                    raise TooLarge(f"{path.name} has more than {limits.max_table_cells:,} table cells "
                                   "(max_table_cells).")
                span = max(1, tc.grid_span)
                if tc.vMerge != "continue":  # a merged cell's content is in its top cell
                    a = starts[min(grid, len(widths) - 1)]
                    b = starts[min(grid + span, len(widths))] if grid < len(widths) else a + widths[-1]
                    inner = max(b - a, widths[-1] / 2) - 2 * CELL_PAD
                    begin = len(sheet.lines)
                    bottom = max(bottom, read(_Box(tc, block), a + CELL_PAD, inner, y))
                    rows[-1].append((begin, len(sheet.lines)))
                grid += span
            y = bottom
        sheet.order_table(first, rows)
        return y

    def read(container, x0: float, width: float, y: float) -> float:
        """Paragraphs (with their text boxes) and tables of a body, header, footer, cell or text box, in order."""
        for block in _iter_blocks(container):
            y = table(block, x0, width, y) if hasattr(block, "rows") else paragraph(block, x0, width, y)
        return y

    warnings = []
    x0, width, y = box.left, box.width - box.left - box.right, 0.0
    try:
        for part in _page_parts(document, "header"):
            y = read(part, x0, width, y)
        y = read(document, x0, width, y)
        for part in _page_parts(document, "footer"):
            y = read(part, x0, width, y)
    except _Enough:
        warnings.append(truncated_note())
    lines = sheet.lines
    if not lines:
        raise PdfUnreadable(f"{path.name} contains no text.")
    height = stamp_synthetic(lines)
    try:
        created = document.core_properties.created or document.core_properties.modified
    except Exception:  # a malformed core.xml is no reason to refuse the CV
        created = None
    return ExtractedDoc(lines=lines, page_count=1, method="docx", page_sizes=[(500.0, max(height, 800.0))],
                        created=created, warnings=warnings)


class _Enough(Exception):
    """Raised inside the walk of a Word file once :data:`MAX_LINES` lines are read."""
