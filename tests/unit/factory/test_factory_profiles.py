"""The data files: enough varied profiles, complete locale packs."""

from __future__ import annotations

from cvrag_desktop.factory.profiles import LANGS, SECTION_KEYS, TIERS, factory_data


def test_at_least_fifteen_profiles_tech_and_not():
    data = factory_data()
    assert len(data.profiles) >= 15
    families = {p.family for p in data.profiles}
    assert "tech" in families and len(families - {"tech"}) >= 3
    for p in data.profiles:
        assert all(p.titles[t] for t in TIERS)
        assert len(p.skills) >= 6 and p.degrees and p.industries


def test_every_language_pack_is_complete():
    data = factory_data()
    assert set(LANGS) <= set(data.languages)
    for lang in LANGS:
        pack = data.languages[lang]
        assert all(pack.headings[s] for s in SECTION_KEYS)
        assert len(pack.months) == 12 and pack.present
        assert data.summaries.get(lang) and data.bullets.get(lang)
    for info in data.locales.values():
        assert info.language in data.languages


def test_synonyms_point_at_known_skills():
    data = factory_data()
    known = {s.name for p in data.profiles for s in p.skills}
    assert set(data.synonyms) <= known
