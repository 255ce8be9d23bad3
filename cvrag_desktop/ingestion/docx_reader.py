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
from cvrag_desktop.ingestion.extract import ExtractedDoc
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


def extract_docx(path: Path, limits: IngestLimits) -> ExtractedDoc:
    """Read a .docx into ordered lines."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
            if "EncryptedPackage" in names:
                raise PdfEncrypted(f"{path.name} is password-protected; remove the password and import it again.")
            if "word/document.xml" not in names:
                raise UnsupportedFormat(f"{path.name} is a ZIP file but not a Word document.")
            if zf.getinfo("word/document.xml").file_size > limits.max_file_mb * 4_000_000:
                raise TooLarge(f"{path.name} expands to more than the size limit.")
        import docx

        document = docx.Document(str(path))
    except (PdfEncrypted, UnsupportedFormat, TooLarge):
        raise
    except zipfile.BadZipFile as exc:
        raise PdfUnreadable(f"{path.name} is damaged or not a valid Word document.") from exc
    except Exception as exc:
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

    for block in _iter_blocks(document):
        if hasattr(block, "rows"):
            for row in block.rows:
                cells = []
                for cell in row.cells:
                    text = " ".join(p.text.strip() for p in cell.paragraphs if p.text.strip())
                    if text and text not in cells:
                        cells.append(text)
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
