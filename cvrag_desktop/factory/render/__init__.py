"""Render a CV draft to PDF bytes with reportlab in one of several layouts.

``classic`` single column, ``sidebar`` two columns, ``gutter`` header band with a date
gutter, ``table`` compact grids, ``localized`` Europass-like with headings in the CV's
language. Fonts are embedded TrueType (see :mod:`.fonts`). Output is byte-for-byte
reproducible (reportlab's invariant mode), so the same seed gives the same PDF.
"""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import cm
from reportlab.platypus import BaseDocTemplate, SimpleDocTemplate

from cvrag_desktop.factory.model import CVDraft
from cvrag_desktop.factory.render import framed, simple
from cvrag_desktop.factory.render.common import printed_cv
from cvrag_desktop.factory.render.fonts import FONTS, register_font

LAYOUTS: tuple[str, ...] = ("classic", "sidebar", "gutter", "table", "localized")

__all__ = ["FONTS", "LAYOUTS", "render_pdf"]


def render_pdf(draft: CVDraft, *, layout: str, font: str, photo: bytes | None = None) -> bytes:
    """The CV as PDF bytes (raises ``KeyError`` for an unknown layout or font)."""
    if layout not in LAYOUTS:
        raise KeyError(f"unknown layout {layout!r}; choose one of {', '.join(LAYOUTS)} or 'mixed'")
    regular = register_font(font)[0]
    pc = printed_cv(draft, font, photo)
    buf = io.BytesIO()
    meta = {
        "title": "Curriculum Vitae",
        "author": "",
        "creator": "",
        "invariant": 1,
        "initialFontName": regular,
    }
    if layout in ("sidebar", "gutter"):
        story, templates = getattr(framed, layout)(pc)
        doc = BaseDocTemplate(buf, pagesize=A4, pageTemplates=templates, **meta)
        doc.build(story)
    else:
        story, footer = getattr(simple, layout)(pc)
        doc = SimpleDocTemplate(
            buf,
            pagesize=A4,
            leftMargin=2 * cm,
            rightMargin=2 * cm,
            topMargin=1.8 * cm,
            bottomMargin=1.8 * cm,
            **meta,
        )
        if footer is None:
            doc.build(story)
        else:
            doc.build(story, onLaterPages=footer)
    return buf.getvalue()
