"""The real-world layout families print their distinguishing structure, and the truth stays honest."""

from __future__ import annotations

import re

import pymupdf
import pytest

from cvrag_desktop.factory.pipeline import plan_batch
from cvrag_desktop.factory.render import LAYOUTS, render_pdf
from cvrag_desktop.factory.render.base.extras import build_extras
from cvrag_desktop.factory.render.base.wording import CATEGORY_LABELS, EUROPASS
from tests.unit.factory.conftest import AS_OF

FAMILIES = ("moderncv", "datecol", "europass", "timeline", "labelled")


def _lines(pdf: bytes) -> list[tuple[float, float, str]]:
    """(x0, y0, text) of every text line of page 1, top to bottom."""
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    out = []
    for block in doc[0].get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            text = "".join(s["text"] for s in line["spans"]).strip()
            if text:
                out.append((line["bbox"][0], line["bbox"][1], text))
    return sorted(out, key=lambda t: (round(t[1]), t[0]))


def _text(pdf: bytes) -> str:
    return "\n".join(page.get_text() for page in pymupdf.open(stream=pdf, filetype="pdf"))


def _find(draft_factory, layout: str, want, *, locale: str = "en_US", tries: int = 80):
    for i in range(tries):
        draft = draft_factory(i, locale=locale, layout=layout)
        if want(draft):
            return draft
    pytest.fail(f"no draft of {layout} matched in {tries} tries")


def test_families_are_registered_and_mixed_picks_them():
    assert set(FAMILIES) <= set(LAYOUTS)
    specs = plan_batch(
        20, 3, locales=("en_US",), layouts=LAYOUTS, fonts=("vera",), as_of=AS_OF, hard_cases=False
    )
    assert set(FAMILIES) <= {s.layout for s in specs}


def test_datecol_period_wraps_onto_two_lines_in_a_narrow_column(draft_factory):
    draft = _find(draft_factory, "datecol", lambda d: build_extras(d, "datecol").split_periods[0][1] != "")
    start, end = build_extras(draft, "datecol").split_periods[0]
    assert start.endswith(("–", "-", "—", "to")) and end
    lines = _lines(render_pdf(draft, layout="datecol", font="vera"))
    first = next(i for i, ln in enumerate(lines) if ln[2] == start)
    x0, y0, _ = lines[first]
    below = [ln for ln in lines if abs(ln[0] - x0) < 2 and ln[1] > y0]
    assert below and below[0][2] == end
    title = draft.cv.experiences[-1 if draft.hints.newest_first else 0].title
    beside = next(ln for ln in lines if ln[2] == title and ln[1] > y0 - 3)
    assert beside[0] > x0 + 50 and abs(beside[1] - y0) < 3  # title in the wide column, same row


def test_post_nominal_is_printed_but_not_in_the_truth_name(draft_factory):
    draft = _find(draft_factory, "moderncv", lambda d: build_extras(d, "moderncv").post_nominal)
    ex = build_extras(draft, "moderncv")
    assert ex.display_name != draft.cv.name and ex.display_name.startswith(draft.cv.name)
    assert ex.display_name.endswith(ex.post_nominal)
    assert ex.post_nominal in ("PhD", "MBA", "MSc", "CPA", "PMP", "ACCA", "RN")
    assert ex.display_name in _text(render_pdf(draft, layout="moderncv", font="vera"))
    assert draft.ground_truth()["name"] == draft.cv.name
    assert ex.post_nominal not in draft.cv.name.split()


def test_post_nominal_is_earned(draft_factory):
    for i in range(40):
        draft = draft_factory(i, locale="en_GB", layout="labelled")
        ex = build_extras(draft, "labelled")
        degrees = " ".join(e.degree or "" for e in draft.cv.education)
        if ex.post_nominal == "PhD":
            assert "PhD" in degrees
        elif ex.post_nominal in ("MBA", "MSc"):
            assert ex.post_nominal in degrees


def test_europass_labels_and_cefr_grid(draft_factory):
    draft = _find(
        draft_factory,
        "europass",
        lambda d: d.hints.heading_lang == "en" and len(d.cv.languages) > 1,
        locale="en_GB",
    )
    text = _text(render_pdf(draft, layout="europass", font="vera"))
    lab = EUROPASS["en"]
    for key in ("dates", "position", "employer", "qualification", "mother", "other"):
        assert lab[key] in text.replace("\n", " ") or lab[key] in text, key
    for key in ("understanding", "speaking", "writing"):
        assert lab[key] in text
    assert re.search(r"\b[ABC][12]\b", text)
    native = build_extras(draft, "europass").spoken[0]
    assert native.key == "native" and native.name in text


def test_timeline_events_and_side_column_share_the_band(draft_factory):
    draft = _find(draft_factory, "timeline", lambda d: all(len(e.start or "") == 7 for e in d.cv.experiences))
    pdf = render_pdf(draft, layout="timeline", font="vera")
    assert re.search(r"\d\d/\d{4} – (\d\d/\d{4}|\w+)\s+.+ @ ", _text(pdf))
    lines = _lines(pdf)
    mid = pymupdf.open(stream=pdf, filetype="pdf")[0].rect.width * 0.6
    right = [ln for ln in lines if ln[0] > mid]
    left = [ln for ln in lines if ln[0] < mid and ln[1] > 100]  # below the name band
    assert right and left
    assert abs(min(y for _, y, _ in right) - min(y for _, y, _ in left)) < 15  # same vertical band
    assert any(abs(r[1] - lf[1]) < 2 for r in right for lf in left)  # lines side by side


def test_labelled_skills_are_grouped_under_labels_that_are_not_skills(draft_factory):
    draft = _find(draft_factory, "labelled", lambda d: len(build_extras(d, "labelled").skill_groups) > 1)
    ex = build_extras(draft, "labelled")
    labels = set(CATEGORY_LABELS["en"].values()) | {v for t in CATEGORY_LABELS.values() for v in t.values()}
    assert not labels & set(draft.cv.skills)
    text = _text(render_pdf(draft, layout="labelled", font="vera")).replace("\n", " ")
    label, skills = ex.skill_groups[0]
    assert f"{label}: {skills[0]}" in text
    assert sorted(s for _, group in ex.skill_groups for s in group) == sorted(
        draft.hints.skill_label(s) for s in draft.cv.skills
    )
    assert ", ".join(f"{sp.name} ({sp.level})" for sp in ex.spoken[:2]) in text


def test_moderncv_header_is_one_line_followed_by_an_unbulleted_blurb(draft_factory):
    draft = draft_factory(2, locale="en_US", layout="moderncv")
    ex = build_extras(draft, "moderncv")
    lines = [t for _, _, t in _lines(render_pdf(draft, layout="moderncv", font="vera"))]
    role = draft.cv.experiences[-1 if draft.hints.newest_first else 0]
    head = next(i for i, t in enumerate(lines) if role.company in t and role.title in t)
    assert lines[head + 1] == ex.blurbs[0] or lines[head + 2] == ex.blurbs[0]
    assert not ex.blurbs[0].endswith(".") and not ex.blurbs[0].startswith("•")


@pytest.mark.parametrize("layout", FAMILIES)
def test_ended_latest_role_prints_no_present_word(draft_factory, layout):
    draft = _find(draft_factory, layout, lambda d: not any(e.is_current for e in d.cv.experiences))
    assert draft.cv.current_company is None
    assert draft.cv.current_title in (draft.cv.headline, draft.cv.experiences[-1].title)
    text = _text(render_pdf(draft, layout=layout, font="vera"))
    assert draft.hints.present not in text.split()
