"""A Word file of one invented person followed by tens of thousands of one-line paragraphs (issue 35, item 12).

Written as XML straight into a blank python-docx package: adding 50,000 paragraphs through
python-docx takes longer than the test that reads them.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

HEAD = ("Zorana Pellworth", "zorana.pellworth@example.org  +44 20 7946 0000", "Experience")


def huge_docx(path: Path, paragraphs: int = 50_000) -> Path:
    """Write the file (about 170 KB for 50,000 paragraphs) and return its path."""
    from docx import Document

    buf = io.BytesIO()
    Document().save(buf)
    body = "".join(f"<w:p><w:r><w:t>{escape(t)}</w:t></w:r></w:p>"
                   for t in (*HEAD, *(f"Item {i}" for i in range(paragraphs))))
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "word/document.xml":
                xml = data.decode("utf-8")
                start = xml.index("<w:body>") + len("<w:body>")
                data = (xml[:start] + body + xml[start:]).encode("utf-8")
            out.writestr(info, data)
    return path
