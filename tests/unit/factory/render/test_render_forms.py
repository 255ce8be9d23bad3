"""National forms: the Japanese 履歴書 and the German tabular Lebenslauf print exactly their truth."""

from __future__ import annotations

import pymupdf
import pytest

from cvrag_desktop.factory.pipeline import (
    DEFAULT_AS_OF,
    _printed_text,
    build_draft,
    font_for_text,
    plan_batch,
)
from cvrag_desktop.factory.render import FONTS, FORMS, MIXED_LAYOUTS, render_pdf
from cvrag_desktop.factory.render.base.common import printed_cv
from cvrag_desktop.factory.render.base.extras import build_extras
from cvrag_desktop.factory.render.forms.rirekisho import events


def _drafts(locale: str, layout: str, n: int = 6):
    specs = plan_batch(n, 21, locales=(locale,), layouts=(layout,), fonts=FONTS, as_of=DEFAULT_AS_OF,
                       hard_cases=True)
    done: dict = {}
    for spec in specs:
        done[spec.index] = build_draft(spec, done)
        yield done[spec.index]


def _lines(draft, layout: str) -> tuple[list[str], str]:
    font = font_for_text(draft.spec.font, FONTS, _printed_text(draft))
    doc = pymupdf.open(stream=render_pdf(draft, layout=layout, font=font), filetype="pdf")
    return [ln.strip() for page in doc for ln in page.get_text().splitlines()], font


def test_forms_are_asked_for_by_name_only():
    assert set(FORMS).isdisjoint(MIXED_LAYOUTS)


@pytest.mark.parametrize("draft", list(_drafts("ja_JP", "rirekisho")), ids=lambda d: d.spec.cv_id)
def test_a_rirekisho_prints_every_truth_value_in_its_rows(draft):
    lines, font = _lines(draft, "rirekisho")
    assert font.startswith("cjk-")
    text = "\n".join(lines)
    cv = draft.cv
    assert cv.name in lines and draft.hints.reading in lines
    assert {"履 歴 書", "学歴・職歴", "以上"} <= set(lines)
    for exp in cv.experiences:
        assert exp.title in text and exp.company in text
        assert exp.start[:4] in lines
        if len(exp.start) == 7:
            assert str(int(exp.start[5:7])) in lines
    for ed in cv.education:
        assert f"{ed.institution} {ed.degree} 卒業" in lines
    for skill in draft.hints.skill_display or {}:
        assert draft.hints.skill_label(skill) in text.replace("\n", "")


def test_rirekisho_rows_run_oldest_first_and_close_with_ijo():
    draft = next(_drafts("ja_JP", "rirekisho", 1))
    rows = events(printed_cv(draft, "cjk-mincho"), build_extras(draft, "rirekisho"))
    years = [int(y) for y, _, _ in rows if y]
    assert years == sorted(years)
    assert rows[0][2] == "学歴" and rows[-1][2] == "以上"
    assert any(text.endswith("入社") for _, _, text in rows)


@pytest.mark.parametrize("draft", list(_drafts("de_DE", "lebenslauf")), ids=lambda d: d.spec.cv_id)
def test_a_lebenslauf_prints_personal_data_rows_and_every_truth_value(draft):
    lines, _ = _lines(draft, "lebenslauf")
    text = " ".join(lines)
    cv = draft.cv
    assert {"Lebenslauf", "Persönliche Daten", "Beruflicher Werdegang", "Ausbildung"} <= set(lines)
    assert lines[lines.index("Name") + 1] == cv.name
    assert lines[lines.index("E-Mail") + 1] == cv.emails[0]
    assert "Geburtsdatum" in lines and "Staatsangehörigkeit" in lines
    for exp in cv.experiences:
        assert exp.title in text and exp.company in text
    for ed in cv.education:
        assert ed.degree in text and ed.institution in text


def test_generate_accepts_the_new_locales_and_forms(tmp_path):
    from cvrag_desktop.factory.pipeline import generate_batch

    report = generate_batch(2, 4, tmp_path / "ja", locale="ja_JP,zh_CN", layout="rirekisho,lebenslauf,classic")
    assert len(report.generated) == 2 and not report.failed
    report = generate_batch(1, 4, tmp_path / "de", locale="de_DE", layout="lebenslauf")
    assert report.generated and (tmp_path / "de" / f"{report.generated[0]}.pdf").stat().st_size > 1000
