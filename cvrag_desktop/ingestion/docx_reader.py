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
from cvrag_desktop.ingestion.extract import ExtractedDoc, _raise_if_memory
from cvrag_desktop.ingestion.layout import TextLine
from cvrag_desktop.ingestion.textclean import clean_text


def _iter_blocks(document):
    """Paragraphs and tables in body order."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    for child in document.element.body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            yield Paragraph(child, document)
        elif tag == "tbl":
            yield Table(child, document)


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


def _table_rows(table, name: str, limits: IngestLimits, seen: list[int]):
    """Each row's distinct cell texts, merged cells read once per row (linear, unlike ``row.cells``).

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
        for tc in tr.iterchildren(qn("w:tc")):
            seen[0] += 1
            if seen[0] > limits.max_table_cells:
                raise TooLarge(f"{name} has more than {limits.max_table_cells:,} table cells (max_table_cells).")
            span = tc.grid_span
            if tc.vMerge == "continue":
                text = top.get(grid, "")
            else:
                cell = _Cell(tc, table)
                text = " ".join(p.text.strip() for p in cell.paragraphs if p.text.strip())
                top[grid] = text
            if text and text not in cells:
                cells.append(text)
            grid += span
        yield cells


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
        _raise_if_memory(exc)  # the worker's memory cap, not a damaged file
        raise PdfUnreadable(f"{path.name} cannot be read as a Word document ({exc}).") from exc
    lines: list[TextLine] = []
    y = 0.0
    chars = 0

    def add(text: str, size: float, bold: bool) -> None:
        nonlocal y, chars
        for raw in text.splitlines():
            t = clean_text(raw)
            if not t.strip():
                continue
            chars += len(t)
            if chars > limits.max_chars:
                raise TooLarge(f"{path.name} holds more than {limits.max_chars:,} characters of text.")
            lines.append(TextLine(t, 0, (0.0, y, 500.0, y + size), size, bold, "docx"))
            y += size * 1.3

    seen_cells = [0]
    for block in _iter_blocks(document):
        if hasattr(block, "rows"):
            for cells in _table_rows(block, path.name, limits, seen_cells):
                if cells:
                    add("\t".join(cells), 10.0, False)
            continue
        style = (block.style.name or "").lower() if block.style is not None else ""
        runs = [r for r in block.runs if r.text.strip()]
        bold = bool(runs) and all(r.bold for r in runs)
        if style.startswith("heading") or style == "title":
            size = 16.0 if style == "title" else 13.0
            bold = True
        else:
            sizes = [r.font.size.pt for r in runs if r.font.size is not None]
            size = max(sizes) if sizes else 10.0
        add(block.text, size, bold)
    if not lines:
        raise PdfUnreadable(f"{path.name} contains no text.")
    try:
        created = document.core_properties.created or document.core_properties.modified
    except Exception:  # a malformed core.xml is no reason to refuse the CV
        created = None
    return ExtractedDoc(lines=lines, page_count=1, method="docx", page_sizes=[(500.0, max(y, 800.0))],
                        created=created)
