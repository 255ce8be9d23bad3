"""Embedded TrueType fonts for rendered CVs (accents, dashes and bullets covered).

Bitstream Vera ships inside the reportlab wheel; DejaVu Serif and DejaVu Sans Condensed
are committed under ``resources/factory/fonts`` with their licence. Fonts are registered
with reportlab once per process.

Chinese and Japanese CVs use reportlab's built-in CID fonts (``STSong-Light``, ``HeiseiMin-W3``,
``HeiseiKakuGo-W5``: no font file, the PDF names the font and its CMap). Without an embedded
ToUnicode map a reader maps their glyphs back through the CID ordering, which loses a few
characters (``•``, ``〜``, most accented Latin letters; the Japanese fonts also ``|``, ``~``, the
dashes ``–``/``—`` and simplified Chinese letters): :func:`covers` prints each character once in the
font and reads it back with PyMuPDF (as the product reads PDFs), so the factory never prints a text
in a CID font that would not give it back.
"""

from __future__ import annotations

import io
import zlib
from functools import cache
from pathlib import Path

import reportlab
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from cvrag_desktop.text.vocab.resources import resources_dir

_VERA = Path(reportlab.__file__).resolve().parent / "fonts"
_FILES: dict[str, tuple[Path, tuple[str, str, str, str]]] = {
    "vera": (_VERA, ("Vera.ttf", "VeraBd.ttf", "VeraIt.ttf", "VeraBI.ttf")),
    "dejavu-serif": (
        Path(),
        ("DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerif-Italic.ttf", "DejaVuSerif-BoldItalic.ttf"),
    ),
    "dejavu-condensed": (
        Path(),
        (
            "DejaVuSansCondensed.ttf",
            "DejaVuSansCondensed-Bold.ttf",
            "DejaVuSansCondensed-Oblique.ttf",
            "DejaVuSansCondensed-BoldOblique.ttf",
        ),
    ),
}
FONTS: tuple[str, ...] = tuple(_FILES)
# CJK families: reportlab's CID fonts. Not in FONTS (a "mixed" batch draws from FONTS, which stays as
# it was); :func:`cjk_font_for` picks one for a text with Chinese or Japanese letters.
CID_FONTS: dict[str, str] = {"cjk-song": "STSong-Light", "cjk-mincho": "HeiseiMin-W3",
                             "cjk-gothic": "HeiseiKakuGo-W5"}
_CID_KNOWN: dict[tuple[str, str], bool] = {}  # (font, character) -> read back exactly


@cache
def register_font(name: str) -> tuple[str, str, str, str]:
    """Register a family and return its (regular, bold, italic, bold-italic) reportlab names."""
    if name in CID_FONTS:
        face = CID_FONTS[name]
        pdfmetrics.registerFont(UnicodeCIDFont(face))
        addMapping(face, 0, 0, face)
        addMapping(face, 1, 0, face)
        addMapping(face, 0, 1, face)
        addMapping(face, 1, 1, face)
        return face, face, face, face
    if name not in _FILES:
        raise KeyError(f"unknown font {name!r}; choose one of {', '.join(FONTS)} or 'mixed'")
    folder, files = _FILES[name]
    if folder == Path():
        folder = resources_dir() / "factory" / "fonts"
    names = tuple(f"cvf-{name}-{v}" for v in ("r", "b", "i", "bi"))
    for face, file in zip(names, files, strict=True):
        pdfmetrics.registerFont(TTFont(face, str(folder / file)))
    regular, bold, italic, bold_italic = names
    addMapping(regular, 0, 0, regular)
    addMapping(regular, 1, 0, bold)
    addMapping(regular, 0, 1, italic)
    addMapping(regular, 1, 1, bold_italic)
    return regular, bold, italic, bold_italic  # type: ignore[return-value]


def covers(name: str, text: str) -> bool:
    """Does the family have a glyph for every character of ``text`` (whitespace aside)?

    A font without a letter drops it from the PDF's text layer ("Doświadczenie" read back as
    "Do wiadczenie"), which no real CV's export does."""
    if name in CID_FONTS:
        return _cid_reads_back(name, {c for c in text if not c.isspace()})
    face = pdfmetrics.getFont(register_font(name)[0]).face
    glyphs = face.charToGlyph
    return all(ord(c) in glyphs for c in set(text) if not c.isspace())


def _cid_reads_back(name: str, chars: set[str]) -> bool:
    """Does a reader (PyMuPDF, as the product reads PDFs) give back every one of ``chars`` printed in
    the CID font ``name``? Each character is tried once per process, on a page of its own lines."""
    todo = sorted(c for c in chars if (name, c) not in _CID_KNOWN)
    if todo:
        face = register_font(name)[0]
        buf = io.BytesIO()
        pdf = canvas.Canvas(buf, invariant=1)
        for n, c in enumerate(todo):
            if n and n % 60 == 0:
                pdf.showPage()
            pdf.setFont(face, 9)
            pdf.drawString(20, 800 - 12 * (n % 60), f"A{c}B")
        pdf.save()
        import pymupdf  # deferred: only a CJK text needs it

        with pymupdf.open(stream=buf.getvalue(), filetype="pdf") as doc:
            lines = [ln for page in doc for ln in page.get_text().splitlines()]
        for n, c in enumerate(todo):
            _CID_KNOWN[(name, c)] = n < len(lines) and lines[n] == f"A{c}B" and len(lines) == len(todo)
        if len(lines) != len(todo):  # a character broke the line count: try each alone
            for c in todo:
                _CID_KNOWN[(name, c)] = _cid_reads_back_one(name, c)
    return all(_CID_KNOWN[(name, c)] for c in chars)


def _cid_reads_back_one(name: str, c: str) -> bool:
    buf = io.BytesIO()
    pdf = canvas.Canvas(buf, invariant=1)
    pdf.setFont(register_font(name)[0], 9)
    pdf.drawString(20, 800, f"A{c}B")
    pdf.save()
    import pymupdf

    with pymupdf.open(stream=buf.getvalue(), filetype="pdf") as doc:
        return doc[0].get_text().splitlines() == [f"A{c}B"]


def has_cjk(text: str) -> bool:
    """Does ``text`` hold a Chinese or Japanese letter (kana, ideograph, full-width form)?"""
    return any(0x3040 <= ord(c) <= 0x30FF or 0x4E00 <= ord(c) <= 0x9FFF or 0xFF01 <= ord(c) <= 0xFF5E
               for c in text)


def cjk_font_for(text: str) -> str | None:
    """The CID family for a text with Chinese or Japanese letters (None without one): a Japanese face
    for a text with kana (Mincho or Gothic, by the text's checksum), else Song; the first that gives
    every character back, or else the one that loses the fewest (a Latin dash in a certificate's name,
    never a CJK letter when a face has them all)."""
    if not has_cjk(text):
        return None
    kana = any(0x3040 <= ord(c) <= 0x30FF and c not in "・ー" for c in text)
    order = ("cjk-mincho", "cjk-gothic") if zlib.crc32(text.encode()) % 2 == 0 else ("cjk-gothic", "cjk-mincho")
    names = (*order, "cjk-song") if kana else ("cjk-song", *order)
    chars = {c for c in text if not c.isspace()}
    lost = {n: [c for c in chars if not covers(n, c)] for n in names}
    return min(names, key=lambda n: (len([c for c in lost[n] if has_cjk(c)]), len(lost[n])))
