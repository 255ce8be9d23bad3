"""The inbox layout families render deterministically and print their truth and their shape."""

from __future__ import annotations

import itertools
import re

import pymupdf
import pytest

from cvrag_desktop.factory.pipeline import build_draft, plan_batch
from cvrag_desktop.factory.render import FORMS, LAYOUTS, MIXED_LAYOUTS, render_pdf
from cvrag_desktop.factory.render.base.export_wording import duration_text, export_period, months_between
from cvrag_desktop.factory.render.flow.academic import HEADINGS as ACADEMIC_HEADINGS
from tests.unit.factory.conftest import AS_OF

INBOX = ("linkedin", "linkedin_old", "wordtable", "oneline", "builder", "academic", "designer")


def _text(pdf: bytes) -> str:
    return "\n".join(page.get_text() for page in pymupdf.open(stream=pdf, filetype="pdf"))


def _flat(text: str) -> str:
    return " ".join(text.split())


def _pages(pdf: bytes) -> list[str]:
    return [page.get_text() for page in pymupdf.open(stream=pdf, filetype="pdf")]


def _baselines(pdf: bytes) -> list[str]:
    """The text of each baseline of every page (spans on one line joined left to right)."""
    rows: dict[tuple[int, int], list[tuple[float, str]]] = {}
    for n, page in enumerate(pymupdf.open(stream=pdf, filetype="pdf")):
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    rows.setdefault((n, round(span["origin"][1])), []).append((span["bbox"][0], span["text"]))
    return [" ".join(" ".join(t for _, t in sorted(parts)).split()) for _, parts in sorted(rows.items())]


def test_inbox_layouts_are_registered_and_mixed_picks_them():
    assert set(INBOX) <= set(LAYOUTS)
    specs = plan_batch(
        len(LAYOUTS) * 2,
        5,
        locales=("en_US",),
        layouts=LAYOUTS,
        fonts=("vera",),
        as_of=AS_OF,
        hard_cases=False,
    )
    assert set(INBOX) <= {s.layout for s in specs}
    assert set(MIXED_LAYOUTS) == set(LAYOUTS) - set(FORMS)  # national forms are asked for by name
    older = [x for x in MIXED_LAYOUTS if x not in INBOX]
    assert len(older) / len(MIXED_LAYOUTS) > 0.7  # the older layouts keep most of a mixed batch


@pytest.mark.parametrize("layout", INBOX)
@pytest.mark.parametrize("locale", ["en_GB", "pl_PL", "nl_NL", "es_ES"])
def test_renders_deterministically_with_its_truth_in_the_text(draft_factory, layout, locale):
    draft = draft_factory(4, locale=locale, layout=layout)
    again = draft_factory(4, locale=locale, layout=layout)
    font = "dejavu-condensed"
    pdf = render_pdf(draft, layout=layout, font=font)
    assert pdf.startswith(b"%PDF") and pdf == render_pdf(again, layout=layout, font=font)
    text = _flat(_text(pdf))
    cv = draft.cv
    assert cv.name.casefold() in text.casefold()
    assert cv.emails[0] in text
    for exp in cv.experiences:
        assert exp.title in text and exp.company in text
    for ed in cv.education:
        assert ed.degree in text and ed.institution in text
    for skill in cv.skills:
        assert draft.hints.skill_label(skill) in text


def test_linkedin_export_shape(draft_factory):
    draft = next(
        d
        for i in range(60)
        if (d := draft_factory(i, locale="en_US", layout="linkedin")).hints.heading_lang == "en"
        and any(e.is_current and len(e.start or "") == 7 for e in d.cv.experiences)
    )
    pdf = render_pdf(draft, layout="linkedin", font="vera")
    pages = _pages(pdf)
    for n, page in enumerate(pages, start=1):
        assert f"Page {n} of {len(pages)}" in page
    text = "\n".join(pages)
    for heading in ("Contact", "Top Skills", "Experience", "Education"):
        assert heading in text.splitlines()
    assert re.search(r"^[A-Z][a-z]+ \d{4} - Present \((\d+ years? ?)?(\d+ months?)?\)$", text, re.M)
    first = pymupdf.open(stream=pdf, filetype="pdf")[0]
    spans = [s for b in first.get_text("dict")["blocks"] for ln in b.get("lines", []) for s in ln["spans"]]
    name = next(s for s in spans if s["text"].strip() == draft.cv.name)
    contact = next(s for s in spans if s["text"].strip() == "Contact")
    assert contact["bbox"][0] < name["bbox"][0] - 100  # sidebar left of the main column
    assert name["size"] > max(s["size"] for s in spans if s is not name) - 0.1


def test_linkedin_groups_positions_under_one_employer(draft_factory):
    def promoted(d) -> bool:
        exps = d.cv.experiences
        return any(a.company == b.company for a, b in itertools.pairwise(exps))

    draft = next(d for i in range(120) if promoted(d := draft_factory(i, locale="en_GB", layout="linkedin")))
    lines = [ln.strip() for ln in _text(render_pdf(draft, layout="linkedin", font="vera")).splitlines()]
    exps = draft.cv.experiences
    company = next(a.company for a, b in itertools.pairwise(exps) if a.company == b.company)
    runs = sum(
        1 for i, e in enumerate(exps) if e.company == company and (i == 0 or exps[i - 1].company != company)
    )
    assert lines.count(company) == runs  # the employer heads each run of its positions once


def test_linkedin_old_prints_title_at_company(draft_factory):
    draft = next(
        d
        for i in range(60)
        if (d := draft_factory(i, locale="en_US", layout="linkedin_old")).hints.heading_lang == "en"
    )
    text = _flat(_text(render_pdf(draft, layout="linkedin_old", font="vera")))
    for exp in draft.cv.experiences:
        assert f"{exp.title} at {exp.company}" in text
    assert "Page1" in text


def test_export_durations_and_dates():
    assert duration_text(38, "en") == "3 years 2 months"
    assert duration_text(12, "en") == "1 year"
    assert duration_text(25, "pl") == "2 lata 1 miesiąc"
    assert duration_text(65, "pl") == "5 lat 5 miesięcy"
    assert duration_text(14, "nl") == "1 jaar 2 maanden"
    assert months_between("2019-01", "2019-03", AS_OF) == (3, True)
    assert months_between("2016", "2019", AS_OF) == (36, False)
    assert export_period("2016", "2019", False, "en", AS_OF) == "2016 - 2019 (3 years)"
    assert export_period("2025-09", None, True, "pl", AS_OF).startswith("wrzesień 2025 - obecnie (1 rok")
    assert export_period("2024-01", None, True, "nl", AS_OF).startswith("januari 2024 - heden (")


def test_oneline_roles_are_single_lines(draft_factory):
    for i in range(6):
        draft = draft_factory(i, locale="en_US", layout="oneline")
        lines = _baselines(render_pdf(draft, layout="oneline", font="vera"))
        for exp in draft.cv.experiences:
            year = (exp.start or "")[:4]
            assert any(exp.title in ln and exp.company in ln and year in ln for ln in lines), exp


def test_builder_skill_highlights_and_current(draft_factory):
    draft = next(
        d
        for i in range(60)
        if (d := draft_factory(i, locale="en_US", layout="builder")).hints.heading_lang == "en"
        and any(e.is_current for e in d.cv.experiences)
    )
    text = _text(render_pdf(draft, layout="builder", font="vera"))
    assert "Skill Highlights" in text
    current = next(e for e in draft.cv.experiences if e.is_current)
    assert re.search(rf"{re.escape(current.title)}\s+(\d\d/)?\d{{4}} to Current", text)


def test_wordtable_headings_are_bold_capitals_at_body_size(draft_factory):
    draft = draft_factory(2, locale="en_GB", layout="wordtable")
    page = pymupdf.open(stream=render_pdf(draft, layout="wordtable", font="vera"), filetype="pdf")[0]
    spans = [s for b in page.get_text("dict")["blocks"] for ln in b.get("lines", []) for s in ln["spans"]]
    heading = next(s for s in spans if s["text"].strip() == draft.hints.headings["experience"].upper())
    title = next(s for s in spans if s["text"].strip() == draft.cv.experiences[-1].title)
    assert heading["size"] == pytest.approx(title["size"]) and heading["flags"] & 16  # bold, same size


def test_academic_references_name_no_employer_and_profiles_fit():
    specs = plan_batch(
        8, 9, locales=("en_GB",), layouts=("academic",), fonts=("vera",), as_of=AS_OF, hard_cases=False
    )
    assert {s.profile_id for s in specs} <= {"researcher", "physician", "data_scientist", "ml_engineer"}
    draft = build_draft(specs[0], {})
    lines = _text(render_pdf(draft, layout="academic", font="vera")).split(
        ACADEMIC_HEADINGS["en"]["publications"]
    )[1]
    refs = re.findall(r"^(?:\[\d\]|\d\.) .+$", lines, re.M)
    assert len(refs) >= 3
    companies = {e.company for e in draft.cv.experiences}
    assert not any(c in r for r in refs for c in companies)


def test_designer_has_a_photo_and_contact_icons(draft_factory):
    draft = draft_factory(1, locale="en_US", layout="designer")
    pdf = render_pdf(draft, layout="designer", font="vera")
    assert pymupdf.open(stream=pdf, filetype="pdf")[0].get_images()  # an avatar without a photo given
    text = _text(pdf)
    assert "✉" in text and "☎" in text


def test_mixed_layouts_meet_every_locale():
    from cvrag_desktop.factory.pipeline import MIXED_LOCALES

    specs = plan_batch(
        540, 7, locales=MIXED_LOCALES, layouts=MIXED_LAYOUTS, fonts=("vera",), as_of=AS_OF, hard_cases=False
    )
    seen: dict[str, set[str]] = {}
    for s in specs:
        seen.setdefault(s.layout, set()).add(s.locale)
    assert all(len(locales) == len(MIXED_LOCALES) for locales in seen.values()), seen
