"""Render a CV draft to PDF bytes with reportlab in one of several layouts.

``classic`` single column, ``sidebar`` two columns, ``gutter`` header band with a date
gutter, ``table`` compact grids, ``localized`` Europass-like with headings in the CV's
language. Families of hard real CVs (see :mod:`.extras`): ``moderncv`` one-line role
headers with a company blurb, ``datecol`` a narrow date column whose periods wrap,
``europass`` the label/value Europass template with a CEFR grid, ``timeline`` dated events
beside a second column on the same band, ``labelled`` a sidebar of category-labelled skills.
Families of a recruiter's inbox: ``linkedin`` and ``linkedin_old`` profile exports,
``wordtable`` a Word CV laid out as a table, ``oneline`` one-line Word role headers,
``builder`` a résumé-builder template, ``academic`` an academic CV with publications and
grants, ``designer`` two columns with a photo and contact icons. National forms (by name only):
``rirekisho`` the Japanese 履歴書, ``lebenslauf`` the German tabular Lebenslauf. Fonts are embedded
TrueType (see :mod:`.fonts`). Output is byte-for-byte reproducible (reportlab's
invariant mode), so the same seed gives the same PDF.
"""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import cm
from reportlab.platypus import BaseDocTemplate, SimpleDocTemplate

from cvrag_desktop.factory.model import CVDraft
from cvrag_desktop.factory.render.base.common import printed_cv
from cvrag_desktop.factory.render.base.extras import build_extras
from cvrag_desktop.factory.render.base.fonts import FONTS, register_font
from cvrag_desktop.factory.render.columns import designer, framed, labelled, timeline
from cvrag_desktop.factory.render.exports import linkedin, linkedin_old, resume_builder
from cvrag_desktop.factory.render.flow import (
    academic,
    datecol,
    europass,
    moderncv,
    oneline,
    simple,
    wordtable,
)
from cvrag_desktop.factory.render.forms import lebenslauf, rirekisho

_FAMILIES = {
    "moderncv": moderncv.moderncv,
    "datecol": datecol.datecol,
    "europass": europass.europass,
    "timeline": timeline.timeline,
    "labelled": labelled.labelled,
    "linkedin": linkedin.linkedin,
    "linkedin_old": linkedin_old.linkedin_old,
    "wordtable": wordtable.wordtable,
    "oneline": oneline.oneline,
    "builder": resume_builder.builder,
    "academic": academic.academic,
    "designer": designer.designer,
    "rirekisho": rirekisho.rirekisho,
    "lebenslauf": lebenslauf.lebenslauf,
}
LAYOUTS: tuple[str, ...] = ("classic", "sidebar", "gutter", "table", "localized", *_FAMILIES)
_INBOX: tuple[str, ...] = (
    "linkedin",
    "linkedin_old",
    "wordtable",
    "oneline",
    "builder",
    "academic",
    "designer",
)
# National forms (the Japanese 履歴書, the German tabular Lebenslauf): asked for by name only, never
# part of "mixed", so a mixed batch is the same as before they were added.
FORMS: tuple[str, ...] = ("rirekisho", "lebenslauf")
# What "mixed" cycles through: every older layout twice, each inbox family once, so the
# older layouts keep about three quarters of a mixed batch.
MIXED_LAYOUTS: tuple[str, ...] = (
    *(x for x in LAYOUTS if x not in _INBOX and x not in FORMS),
    *_INBOX,
    *(x for x in LAYOUTS if x not in _INBOX and x not in FORMS),
)
# Profile exports never print the member's photo, whatever the generator was asked for.
PHOTOLESS_LAYOUTS: frozenset[str] = frozenset({"linkedin", "linkedin_old"})

__all__ = ["FONTS", "FORMS", "LAYOUTS", "MIXED_LAYOUTS", "PHOTOLESS_LAYOUTS", "render_pdf"]


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
    if layout in _FAMILIES:
        # A family returns (story, templates) or (story, templates, canvasmaker) when its
        # pages need furniture that knows the page count ("Page 1 of 3").
        story, templates, *canvas = _FAMILIES[layout](pc, build_extras(draft, layout))
        doc = BaseDocTemplate(buf, pagesize=A4, pageTemplates=templates, **meta)
        if canvas:
            doc.build(story, canvasmaker=canvas[0])
        else:
            doc.build(story)
    elif layout in ("sidebar", "gutter"):
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
