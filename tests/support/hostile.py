"""Hostile PDF and DOCX files, built for the purpose (small on disk, expensive to parse).

Each builder writes one file and returns its path. Sizes are parameters so tests can
use small bombs with small limits (seconds) and ``benchmarks/hostile.py`` full-size ones
with the default limits. No real CV text is used: the filler is invented.

PDF: XObject text floods, nested XObjects, font bombs, images whose dictionary lies
about their size, tiny-font stuffing. DOCX: part bombs in styles.xml and in media,
huge merged-cell tables. Plus :func:`good_cv_pdf` / :func:`good_cv_docx`, the honest
file imported after the hostile ones to show the batch goes on.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from pathlib import Path

FILLER = b"(Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod) Tj"
CV_LINES = [(20, "Jane Roe"), (11, "Senior Backend Engineer"), (10, "jane.roe@example.com"), (14, "Experience"),
            (10, "Senior Backend Engineer, Acme Corp, Madrid"), (10, "Jan 2019 - Present"),
            (10, "Built Kafka pipelines in Python and Go"), (14, "Education"),
            (10, "MSc in Computer Science, Universidad Politecnica de Madrid"), (10, "2012 - 2014"),
            (14, "Skills"), (10, "Python, Kubernetes, PostgreSQL, Kafka")]


# ---- a tiny raw PDF writer (full control over objects, filters and lies) -------------------
def _stream(entries: str, data: bytes, *, deflate: bool = True) -> bytes:
    if deflate:
        data = zlib.compress(data, 9)
        entries += " /Filter /FlateDecode"
    return f"<< {entries} /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream"


def _write_pdf(path: Path, objects: list[bytes]) -> Path:
    """Objects are numbered from 1; object 1 must be the catalog."""
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{i} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for off in offsets:
        out.write(f"{off:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    path.write_bytes(out.getvalue())
    return path


def _cv_text_ops(size_scale: float = 1.0) -> bytes:
    ops, y = [], 770
    for size, text in CV_LINES:
        ops.append(f"BT /F1 {size * size_scale:g} Tf 72 {y} Td ({text}) Tj ET")
        y -= size + 8
    return "\n".join(ops).encode()


def _page_pdf(path: Path, content: bytes, xobjects: dict[str, int] | None, extra: list[bytes],
              font: bytes = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>") -> Path:
    """Catalog(1), Pages(2), Page(3), content(4), font F1(5), then ``extra`` objects from 6 on."""
    xo = ""
    if xobjects:
        xo = " /XObject << " + " ".join(f"/{k} {v} 0 R" for k, v in xobjects.items()) + " >>"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        f"/Resources << /Font << /F1 5 0 R >>{xo} >> >>".encode(),
        _stream("", content),
        font,
        *extra,
    ]
    return _write_pdf(path, objects)


def xobject_flood_pdf(path: Path, *, lines_per_form: int = 4000, invocations: int = 2000) -> Path:
    """A form XObject of ``lines_per_form`` text lines drawn ``invocations`` times by the page."""
    form = b"\n".join(b"BT /F1 6 Tf 10 %d Td " % (10 + i % 800) + FILLER + b" ET" for i in range(lines_per_form))
    content = _cv_text_ops() + b"\n" + b"q /Fm0 Do Q\n" * invocations
    form_obj = _stream("/Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >>",
                       form)
    return _page_pdf(path, content, {"Fm0": 6}, [form_obj])


def nested_xobjects_pdf(path: Path, *, depth: int = 40, fan_out: int = 4) -> Path:
    """Form X_k draws X_(k-1) ``fan_out`` times, ``depth`` levels deep: fan_out**depth text draws."""
    extra = []
    for k in range(depth):  # object 6 + k is X_k
        if k == 0:
            body, res = b"BT /F1 6 Tf 10 10 Td " + FILLER + b" ET", "/Font << /F1 5 0 R >>"
        else:
            body, res = b"q /X Do Q\n" * fan_out, f"/XObject << /X {6 + k - 1} 0 R >>"
        extra.append(_stream(f"/Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << {res} >>", body))
    content = _cv_text_ops() + b"\nq /Top Do Q\n"
    return _page_pdf(path, content, {"Top": 6 + depth - 1}, extra)


def _zeros_deflated(megabytes: int) -> bytes:
    comp = zlib.compressobj(9)
    chunk = bytes(1 << 20)
    parts = [comp.compress(chunk) for _ in range(megabytes)]
    parts.append(comp.flush())
    return b"".join(parts)


def font_bomb_pdf(path: Path, *, inflated_mb: int = 1500) -> Path:
    """An embedded TrueType font program that inflates to ``inflated_mb`` MB (of zeros)."""
    data = _zeros_deflated(inflated_mb)
    font = (b"<< /Type /Font /Subtype /TrueType /BaseFont /Bomb /FirstChar 32 /LastChar 126 "
            b"/Widths [" + b" ".join([b"500"] * 95) + b"] /FontDescriptor 6 0 R /Encoding /WinAnsiEncoding >>")
    descriptor = (b"<< /Type /FontDescriptor /FontName /Bomb /Flags 32 /FontBBox [0 0 1000 1000] "
                  b"/ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 7 0 R >>")
    program = f"<< /Length {len(data)} /Length1 {inflated_mb << 20} /Filter /FlateDecode >>\nstream\n".encode() \
        + data + b"\nendstream"
    return _page_pdf(path, _cv_text_ops(), None, [descriptor, program], font=font)


def lying_image_pdf(path: Path, *, real_side: int = 12000) -> Path:
    """A JPEG whose dictionary says 1×1 but whose data decodes to ``real_side``² pixels."""
    from PIL import Image

    buf = io.BytesIO()
    Image.new("L", (real_side, real_side), 200).save(buf, "JPEG", quality=5)
    image = (b"<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray "
             b"/BitsPerComponent 8 /Filter /DCTDecode /Length %d >>\nstream\n" % buf.tell()) \
        + buf.getvalue() + b"\nendstream"
    content = _cv_text_ops() + b"\nq 200 0 0 200 300 300 cm /Im0 Do Q\n"
    return _page_pdf(path, content, {"Im0": 6}, [image])


def tiny_font_pdf(path: Path, *, stuffing_lines: int = 2000, size: float = 0.1, cv_scale: float = 1.0) -> Path:
    """A CV with ``stuffing_lines`` of ``size``-pt filler (invisible keyword spam); ``cv_scale`` shrinks the CV."""
    stuff = b"\n".join(b"BT /F1 %g Tf 20 %d Td " % (size, 20 + i % 700) + FILLER + b" ET"
                       for i in range(stuffing_lines))
    return _page_pdf(path, _cv_text_ops(cv_scale) + b"\n" + stuff, None, [])


def good_cv_pdf(path: Path, name: str = "Jane Roe", email: str = "jane.roe@example.com") -> Path:
    """An honest one-page CV (PyMuPDF), imported after the hostile files."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    y = 72
    for size, line in CV_LINES:
        line = name if line == "Jane Roe" else email if line == "jane.roe@example.com" else line
        page.insert_text((72, y), line, fontsize=size)
        y += size + 8
    doc.save(path)
    return path


# ---- DOCX ---------------------------------------------------------------------------------
def good_cv_docx(path: Path, name: str = "Jane Roe") -> Path:
    """An honest Word CV (python-docx)."""
    import docx

    d = docx.Document()
    d.add_heading(name, level=0)
    for _size, text in CV_LINES[1:]:
        if text in ("Experience", "Education", "Skills"):
            d.add_heading(text, level=1)
        else:
            d.add_paragraph(text)
    d.save(path)
    return path


def _rewrite_docx(src: Path, dest: Path, replace: dict[str, bytes], big: dict[str, int] | None = None) -> Path:
    """Copy a .docx, replacing some parts and adding parts of ``big[name]`` MB of zeros (streamed)."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for info in zin.infolist():
            if info.filename in (big or {}):
                continue
            zout.writestr(info.filename, replace.get(info.filename, zin.read(info.filename)))
        for name, mb in (big or {}).items():
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            with zout.open(info, "w", force_zip64=True) as fh:
                if name.endswith(".xml"):
                    fh.write(b'<?xml version="1.0"?><w:styles xmlns:w="http://schemas.openxmlformats.org/'
                             b'wordprocessingml/2006/main"><!--')
                chunk = b" " * (1 << 20)
                for _ in range(mb):
                    fh.write(chunk)
                if name.endswith(".xml"):
                    fh.write(b"--></w:styles>")
    return dest


def docx_part_bomb(path: Path, part: str = "word/styles.xml", *, inflated_mb: int = 3000) -> Path:
    """A Word CV whose ``part`` (styles.xml, or a media file) inflates to ``inflated_mb`` MB."""
    base = good_cv_docx(path.with_suffix(".base.docx"))
    try:
        return _rewrite_docx(base, path, {}, {part: inflated_mb})
    finally:
        base.unlink(missing_ok=True)


def docx_merged_table(path: Path, *, rows: int = 4000, cols: int = 8) -> Path:
    """A Word CV with a ``rows``×``cols`` table whose cells are vertically merged from the first row."""
    base = good_cv_docx(path.with_suffix(".base.docx"))
    try:
        with zipfile.ZipFile(base) as z:
            document = z.read("word/document.xml")
        first = "".join(f'<w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr><w:p><w:r><w:t>Cell {c}</w:t></w:r>'
                        f"</w:p></w:tc>" for c in range(cols))
        cont = "<w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc>" * cols
        grid = "<w:tblGrid>" + '<w:gridCol w:w="1000"/>' * cols + "</w:tblGrid>"
        table = f"<w:tbl><w:tblPr/>{grid}<w:tr>{first}</w:tr>" + f"<w:tr>{cont}</w:tr>" * (rows - 1) + "</w:tbl>"
        document = document.replace(b"<w:sectPr", table.encode() + b"<w:p/><w:sectPr", 1)
        return _rewrite_docx(base, path, {"word/document.xml": document})
    finally:
        base.unlink(missing_ok=True)


def hostile_set(folder: Path, *, full_size: bool = True) -> list[Path]:
    """Every hostile class in ``folder`` (full-size for the benchmark, small for tests), then a good CV."""
    folder.mkdir(parents=True, exist_ok=True)
    s = 1 if full_size else 0
    files = [
        xobject_flood_pdf(folder / "xobject_flood.pdf", invocations=2000 if s else 400),
        nested_xobjects_pdf(folder / "nested_xobjects.pdf"),
        font_bomb_pdf(folder / "font_bomb.pdf", inflated_mb=1500 if s else 40),
        lying_image_pdf(folder / "lying_jpeg.pdf", real_side=12000 if s else 4000),
        tiny_font_pdf(folder / "tiny_font_stuffing.pdf", stuffing_lines=20000 if s else 8000),
        tiny_font_pdf(folder / "tiny_font_cv.pdf", stuffing_lines=300, size=0.2, cv_scale=0.01),
        docx_part_bomb(folder / "styles_bomb.docx", "word/styles.xml", inflated_mb=1000 if s else 40),
        docx_part_bomb(folder / "media_bomb.docx", "word/media/image1.png", inflated_mb=1000 if s else 40),
        docx_merged_table(folder / "merged_table.docx", rows=4000 if s else 1500),
    ]
    files.append(good_cv_pdf(folder / "zz_good_cv.pdf"))
    return files


def sandbox_probe(action: str, amount: float = 0.0) -> dict:
    """A stand-in parser for sandbox tests (runs in the worker): behave, sleep, allocate or crash."""
    import os
    import signal
    import time

    if action == "sleep":
        time.sleep(amount)
    elif action == "ocr":  # a slow phase announced to the supervisor (as extract does before OCR)
        from cvrag_desktop.ingestion.read.sandbox import announce

        announce("ocr")
        time.sleep(amount)
    elif action == "allocate":  # touch ``amount`` MB, page by page, like a parser inflating a bomb
        blocks = []
        for _ in range(int(amount)):
            blocks.append(bytearray(1 << 20))
    elif action == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif action == "exit":
        os._exit(3)
    return {"ok": True, "action": action, "pid": os.getpid()}


def warm_that_dies() -> None:
    """A worker warm-up that kills the worker before it is ready (a machine out of memory or processes)."""
    import os

    os._exit(9)
