"""Embedded TrueType fonts for rendered CVs (accents, dashes and bullets covered).

Bitstream Vera ships inside the reportlab wheel; DejaVu Serif and DejaVu Sans Condensed
are committed under ``resources/factory/fonts`` with their licence. Fonts are registered
with reportlab once per process.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import reportlab
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

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


@cache
def register_font(name: str) -> tuple[str, str, str, str]:
    """Register a family and return its (regular, bold, italic, bold-italic) reportlab names."""
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
    face = pdfmetrics.getFont(register_font(name)[0]).face
    glyphs = face.charToGlyph
    return all(ord(c) in glyphs for c in set(text) if not c.isspace())
