"""Every layout renders a readable PDF with the facts in its text."""

from __future__ import annotations

import pymupdf
import pytest

from cvrag_desktop.factory.avatar import make_avatar
from cvrag_desktop.factory.render import FONTS, LAYOUTS, PHOTOLESS_LAYOUTS, render_pdf


def _text(pdf: bytes) -> tuple[str, pymupdf.Document]:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    return "\n".join(page.get_text() for page in doc), doc


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("locale", ["es_ES", "de_DE", "en_US"])
def test_layout_renders_name_and_email(draft_factory, layout, locale):
    draft = draft_factory(3, locale=locale, layout=layout)
    pdf = render_pdf(draft, layout=layout, font="vera")
    assert pdf.startswith(b"%PDF")
    text, doc = _text(pdf)
    assert doc.page_count >= 1
    assert draft.cv.name.casefold() in text.casefold()  # designer CVs may print the name in capitals
    assert draft.cv.emails[0] in text
    for exp in draft.cv.experiences:
        assert exp.company.split()[0] in text


@pytest.mark.parametrize("font", FONTS)
def test_fonts_are_embedded_and_keep_accents(draft_factory, font):
    draft = draft_factory(1, locale="es_ES")
    cv = draft.cv.model_copy(update={"name": "Íñigo Núñez Güell", "summary": "Gestión – «calidad» • año"})
    pdf = render_pdf(draft.model_copy(update={"cv": cv}), layout="classic", font=font)
    text, doc = _text(pdf)
    assert "Íñigo Núñez Güell" in text and "Gestión – «calidad» • año" in text
    fonts = doc[0].get_fonts()
    assert fonts and all(f[1] == "ttf" for f in fonts)  # TrueType, embedded subsets
    assert all("+" in f[3] for f in fonts)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_long_cv_flows_onto_more_pages(draft_factory, layout):
    draft = draft_factory(5, locale="en_GB", layout=layout)
    roles = [
        r.model_copy(
            update={"bullets": [f"Delivered project number {k} for a large client." for k in range(6)]}
        )
        for r in draft.cv.experiences
    ] * 4
    cv = draft.cv.model_copy(update={"experiences": roles})
    hints = draft.hints.model_copy(update={"role_styles": draft.hints.role_styles * 4})
    pdf = render_pdf(draft.model_copy(update={"cv": cv, "hints": hints}), layout=layout, font="dejavu-serif")
    text, doc = _text(pdf)
    assert doc.page_count >= 2
    assert draft.cv.name in text


def test_image_is_placed(draft_factory):
    draft = draft_factory(2)
    photo = make_avatar(draft.cv.name, 1, kind="initials")
    for layout in LAYOUTS:
        pdf = render_pdf(draft, layout=layout, font="vera", photo=photo)
        _, doc = _text(pdf)
        assert bool(doc[0].get_images()) is (layout not in PHOTOLESS_LAYOUTS), layout


def test_unknown_layout(draft_factory):
    with pytest.raises(KeyError):
        render_pdf(draft_factory(0), layout="nope", font="vera")
