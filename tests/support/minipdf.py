"""Tiny reportlab PDFs placed line by line, to reproduce a layout class without any real CV's text."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

Item = tuple  # (x, y, text[, size[, bold[, "right"]]]): "right" ends the text at x


def write_pdf(path: Path, pages: list[list[Item]], *, creation: str | None = None) -> Path:
    """Write ``pages`` of (x, y-from-top, text[, size[, bold[, "right"]]]) items to ``path`` and return it.

    ``creation`` ("2019-03-01") sets the PDF's creation date in its metadata.
    """
    c = canvas.Canvas(str(path), pagesize=A4, invariant=True)
    height = A4[1]
    for items in pages:
        for item in items:
            x, y, text = item[0], item[1], item[2]
            size = item[3] if len(item) > 3 else 10.0
            bold = item[4] if len(item) > 4 else False
            c.setFont("Helvetica-Bold" if bold else "Helvetica", size)
            if len(item) > 5 and item[5] == "right":
                c.drawRightString(x, height - y - size, text)
            else:
                c.drawString(x, height - y - size, text)
        c.showPage()
    c.save()
    if creation:
        import pymupdf

        stamp = "D:" + creation.replace("-", "") + "120000+00'00'"
        with pymupdf.open(path) as doc:
            doc.set_metadata({**doc.metadata, "creationDate": stamp, "modDate": stamp})
            doc.saveIncr()
    return path


def lines_doc(rows: list[tuple[str, float]]):
    """An ``ExtractedDoc`` of stacked lines (text, size) without a PDF: for rules that read lines only."""
    from cvrag_desktop.ingestion.layout.reading_order import TextLine
    from cvrag_desktop.ingestion.read.extracted import ExtractedDoc

    lines, y = [], 40.0
    for text, size in rows:
        lines.append(TextLine(text=text, page=0, bbox=(50, y, 50 + 5 * len(text), y + size * 1.2), size=size,
                              bold=size > 12))
        y += size * 1.4
    return ExtractedDoc(lines=lines, page_count=1, method="pymupdf", page_sizes=[(595, 842)])
