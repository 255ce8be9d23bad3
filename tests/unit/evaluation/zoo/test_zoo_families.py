"""The zoo's family registry: engines, pinned themes, and the fixed held-out bench."""

from __future__ import annotations

import pytest

from cvrag_desktop.evaluation.zoo.families import (
    FACTORY,
    FAILED_THEMES,
    HELD_OUT,
    HTML,
    JSONRESUME,
    JSONRESUME_THEMES,
    LATEX,
    RENDERCV,
    THEME_INPUT_KEYS,
    THEME_NOT_PRINTED,
    WORD,
    all_families,
    family,
    select,
)


def test_every_family_has_a_unique_name_an_engine_and_a_template():
    fams = all_families()
    assert len({f.name for f in fams}) == len(fams)
    assert {f.engine for f in fams} == {JSONRESUME, WORD, HTML, RENDERCV, FACTORY, LATEX}
    assert all(f.template for f in fams)
    assert all(f.version for f in fams if f.engine == JSONRESUME)  # npm themes are pinned
    assert set(JSONRESUME_THEMES) == {f.template for f in fams if f.engine == JSONRESUME}


def test_ten_held_out_families_exist_and_span_every_engine():
    fams = {f.name: f for f in all_families()}
    assert len(HELD_OUT) == 10
    assert set(fams) >= HELD_OUT, "a held-out family is not in the registry"
    assert {fams[n].engine for n in HELD_OUT} == {JSONRESUME, WORD, HTML, RENDERCV, FACTORY}
    assert all(f.held_out == (f.name in HELD_OUT) for f in fams.values())
    assert len(fams) - len(HELD_OUT) >= 20  # enough families left to train and score on


def test_select_by_name_engine_or_all_and_tools_per_engine():
    assert [f.name for f in select("fx-classic,word-oneline")] == ["word-oneline", "fx-classic"]
    assert {f.engine for f in select(WORD)} == {WORD}
    assert len(select("all")) == len(select(None)) == len(all_families())
    assert family("jr-even").needs == ("node", "chromium")
    assert family("word-datecell").needs == ("soffice",)
    assert family("fx-classic").needs == ()
    with pytest.raises(KeyError):
        family("no-such-family")


def test_at_least_25_pinned_json_resume_themes_and_every_dropped_one_says_why():
    assert len(JSONRESUME_THEMES) >= 25
    assert all(p.startswith("jsonresume-theme-") and v[0].isdigit() for p, v in JSONRESUME_THEMES.items())
    dropped = {name.split("@")[0] for name in FAILED_THEMES}
    assert not dropped & set(JSONRESUME_THEMES), "a dropped theme is still in the registry"
    assert all(len(reason) > 10 for reason in FAILED_THEMES.values())
    assert set(THEME_INPUT_KEYS) <= set(JSONRESUME_THEMES) and set(THEME_NOT_PRINTED) <= set(JSONRESUME_THEMES)


def test_the_first_45_families_keep_their_names_and_order():
    """New families are appended: the existing ones (and their cached documents) stay as they were."""
    names = [f.name for f in all_families()]
    first = ["jr-elegant", "jr-even", "jr-flat", "jr-kendall", "jr-macchiato", "jr-stackoverflow", "jr-class",
             "jr-onepage", "jr-paper", "jr-spartan", "jr-caffeine"]
    assert names[:11] == first
    assert names.index("word-datecell") > names.index("jr-orbit")  # new themes join the JSON Resume block
    assert [n for n in names if not n.startswith("jr-")][:9] == [f"word-{s}" for s in (
        "datecell", "tabdates", "header", "boldheads", "capsheads", "oneline", "labeltable", "twocol", "sectiontable")]
    assert names[-len([n for n in names if n.startswith("tex-")]):][0].startswith("tex-")
    assert len(names) >= 45 + 14 + 7
