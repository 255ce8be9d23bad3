"""The zoo's family registry: engines, pinned themes, and the fixed held-out bench."""

from __future__ import annotations

import pytest

from cvrag_desktop.evaluation.zoo.families import (
    FACTORY,
    HELD_OUT,
    HTML,
    JSONRESUME,
    JSONRESUME_THEMES,
    RENDERCV,
    WORD,
    all_families,
    family,
    select,
)


def test_every_family_has_a_unique_name_an_engine_and_a_template():
    fams = all_families()
    assert len({f.name for f in fams}) == len(fams)
    assert {f.engine for f in fams} == {JSONRESUME, WORD, HTML, RENDERCV, FACTORY}
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
