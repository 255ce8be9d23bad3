"""Polish and Dutch locales, and profiles of the professions a recruiter's inbox holds."""

from __future__ import annotations

import re

from cvrag_desktop.factory.pipeline import MIXED_LOCALES, plan_batch
from cvrag_desktop.factory.profiles import LANGS, TIERS, factory_data
from tests.unit.factory.conftest import AS_OF

PROFESSIONS = {
    "nurse",
    "physician",
    "accountant",
    "teacher",
    "lawyer",
    "chef",
    "sales_representative",
    "hr_specialist",
    "supply_chain",
    "civil_engineer",
}
LEGAL_FORM = re.compile(
    r"\b(S\.?A\.?|S\.L\.?|GmbH|AG|Ltd|LLC|Inc|B\.V\.|NV|Sp\. z o\.o\.|s\.c\.|S\.p\.A\.|SARL|SAS)\b"
)


def test_polish_and_dutch_locales_are_complete():
    data = factory_data()
    assert {"pl", "nl"} <= set(LANGS)
    assert {"pl_PL", "nl_NL"} <= set(data.locales) and {"pl_PL", "nl_NL"} <= set(MIXED_LOCALES)
    assert "obecnie" in data.languages["pl"].present and "heden" in data.languages["nl"].present
    assert data.languages["pl"].months[0] == "styczeń" and data.languages["nl"].months[2] == "maart"
    for lang in ("pl", "nl"):
        assert all(
            "{field}" in p or p == "MBA" for ps in data.languages[lang].degree_patterns.values() for p in ps
        )


def test_inbox_professions_exist_in_every_language():
    data = factory_data()
    ids = {p.id for p in data.profiles}
    assert ids >= PROFESSIONS
    for pid in PROFESSIONS:
        profile = data.profile(pid)
        for lang in LANGS:
            if lang != "en":
                assert any(profile.titles_l10n.get(lang, {}).get(t) for t in TIERS), (pid, lang)
            assert profile.bullets.get(lang), (pid, lang)
            assert all(d.field.get(lang) for d in profile.degrees), (pid, lang)
            assert profile.domain.get(lang) or lang == "en", (pid, lang)


def test_employers_outside_companies_have_no_legal_form():
    data = factory_data()
    kinds = {p.employer_kind for p in data.profiles} - {"company"}
    assert {"hospital", "school", "law_firm", "restaurant", "public", "university"} <= kinds
    for lang, pack in data.languages.items():
        for kind in kinds:
            patterns = pack.employers[kind]
            assert patterns, (lang, kind)
            assert not any(LEGAL_FORM.search(p) for p in patterns), (lang, kind)


def test_polish_cvs_get_a_font_with_polish_letters():
    specs = plan_batch(
        30,
        4,
        locales=("pl_PL", "nl_NL"),
        layouts=("classic",),
        fonts=("vera", "dejavu-serif"),
        as_of=AS_OF,
        hard_cases=True,
    )
    assert all(s.font == "dejavu-serif" for s in specs if s.locale == "pl_PL")
    assert any(s.font == "vera" for s in specs if s.locale == "nl_NL")


def test_polish_draft_is_polish(draft_factory):
    draft = draft_factory(2, locale="pl_PL", layout="classic", profile_id="nurse")
    assert draft.hints.lang == "pl"
    assert draft.cv.languages[0] == "Polish"
    assert any(
        e.company and e.company.split()[0] in ("Szpital", "Centrum", "Klinika") for e in draft.cv.experiences
    )
