"""The four folded forms: each keeps the difference its callers rely on."""

from __future__ import annotations

from cvrag_desktop.text.fold import fold, fold_dashes, fold_keep_spacing, fold_same_length
from cvrag_desktop.text.keys import normalize_key


def test_fold_is_normalize_key_that_takes_none():
    assert fold("  JOSÉ \n Müller ") == "jose muller" == normalize_key("  JOSÉ \n Müller ")
    assert fold(None) == "" and fold("") == ""
    assert fold("Zürich") in fold("ZURICH, Switzerland")


def test_fold_dashes_turns_every_dash_into_a_hyphen():
    assert fold_dashes("2019–2021 — Café") == "2019-2021 - cafe"
    assert fold("2019–2021") == "2019–2021"  # plain fold keeps the en dash


def test_fold_keep_spacing_leaves_whitespace_alone():
    assert fold_keep_spacing("  Ñandú\tC++ ") == "  nandu\tc++ "
    assert fold_keep_spacing(None) == ""


def test_fold_same_length_keeps_positions():
    for text in ("Aujourd’hui", "Müller GmbH", "ÉCOLE", "plain", "İstanbul"):
        assert len(fold_same_length(text)) == len(text)
    assert fold_same_length("Aujourd’hui Éte") == "aujourd'hui ete"
