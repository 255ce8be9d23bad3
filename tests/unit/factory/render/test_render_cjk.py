"""Chinese and Japanese CVs: the CID fonts' text layer reads back exactly, and the locales' content
is printed in a font that gives it back (no letter dropped or changed by the reader)."""

from __future__ import annotations

import io

import pymupdf
import pytest
from reportlab.pdfgen import canvas

from cvrag_desktop.factory.pipeline import _printed_text, build_draft, font_for_text
from cvrag_desktop.factory.profiles import factory_data
from cvrag_desktop.factory.render import FONTS, render_pdf
from cvrag_desktop.factory.render.base.common import printed_cv
from cvrag_desktop.factory.render.base.fonts import CID_FONTS, cjk_font_for, covers, register_font
from tests.unit.factory.conftest import make_spec


def _read_lines(lines: list[str], font: str) -> list[str]:
    face = register_font(font)[0]
    buf = io.BytesIO()
    c = canvas.Canvas(buf, invariant=1)
    y = 800
    for line in lines:
        if y < 40:
            c.showPage()
            y = 800
        c.setFont(face, 9)
        c.drawString(20, y, line)
        y -= 12
    c.save()
    doc = pymupdf.open(stream=buf.getvalue(), filetype="pdf")
    return [ln for page in doc for ln in page.get_text().splitlines()]


def _pack_strings(lang: str) -> list[str]:
    data = factory_data()
    pack = data.languages[lang]
    out = [x for v in pack.headings.values() for x in v]
    out += [*pack.present, pack.since, *pack.language_names.values(), *pack.labels.values()]
    out += [x for v in pack.levels.values() for x in v]
    out += [x.format(city="X", last_name="Y", first_name="Z") for v in pack.employers.values() for x in v]
    out += [x.format(field="F") for v in pack.degree_patterns.values() for x in v]
    for info in data.locales.values():
        if info.language == lang:
            out += [*info.universities, *(v.format(city="X", last_name="Y") for v in info.vocational)]
    for p in data.profiles:
        out += [t for tiers in p.titles_l10n.get(lang, {}).values() for t in tiers]
        out += [d.field[lang] for d in p.degrees if lang in d.field]
    return out


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_every_cjk_string_of_the_data_reads_back_in_the_font_chosen_for_it(lang):
    strings = [s for s in _pack_strings(lang) if s.strip()]
    font = cjk_font_for("".join(strings))
    assert font is not None
    assert _read_lines(strings, font) == strings


@pytest.mark.parametrize("font", sorted(CID_FONTS))
def test_a_cid_font_covers_only_what_a_reader_gives_back(font):
    sample = ["2019年4月 – 2022年3月", "2019.04～2022.03", "山田 太郎", "やまだ たろう", "看護師長", "护士长 至今", "Müller",
              "学歴・職歴", "E-mail: anna.k@example.com", "+81 90-1234-5678", "修士（看護学）"]
    covered = [s for s in sample if covers(font, s)]
    assert len(covered) >= 6
    assert _read_lines(covered, font) == covered


def test_latin_text_never_gets_a_cjk_font():
    assert cjk_font_for("Expérience – Köln") is None
    assert font_for_text("vera", FONTS, "Expérience – Köln") == "vera"
    assert font_for_text("vera", FONTS, "工作经历 2019年4月") == "cjk-song"
    assert font_for_text("vera", FONTS, "職務経歴 2019年4月～現在")[:4] == "cjk-"


@pytest.mark.parametrize(("locale", "profile"), [("zh_CN", "nurse"), ("ja_JP", "accountant"), ("ja_JP", "teacher")])
def test_a_cjk_cv_prints_its_name_roles_and_degrees_readably(locale, profile):
    spec = make_spec(3, locale=locale, layout="wordtable", profile_id=profile)
    draft = build_draft(spec, {})
    cv = draft.cv
    assert cv.name and " " not in cv.name.strip() if locale == "zh_CN" else " " in cv.name
    assert cv.emails and cv.emails[0].split("@")[0]  # romanised, never empty
    font = font_for_text(spec.font, FONTS, _printed_text(draft))
    assert font in CID_FONTS
    text = "".join(pymupdf.open(stream=render_pdf(draft, layout="wordtable", font=font), filetype="pdf")[0]
                   .get_text().split())
    pc = printed_cv(draft, font)
    for value in [pc.name, *(r.company for r in pc.roles[:2]), *(e.institution for e in pc.education)]:
        assert "".join(value.split()) in text
    if locale == "ja_JP":
        assert draft.hints.reading and all("\u3040" <= c <= "\u309f" or c == " " for c in draft.hints.reading)
