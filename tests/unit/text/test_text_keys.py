"""Comparison keys: one definition for the parser, the index filters and the person grouping."""

from __future__ import annotations

from cvrag_desktop.index import filters
from cvrag_desktop.ingestion.read import textclean
from cvrag_desktop.text.keys import normalize_key, text_key


def test_normalize_key_folds_accents_case_and_space():
    assert normalize_key("  José   GARCÍA ") == "jose garcia"
    assert normalize_key("Straße") == "strasse"  # casefold, not lower
    assert normalize_key("plain ascii") == "plain ascii"


def test_text_key_drops_dots_and_punctuation():
    assert text_key("Acme S.A.") == "acme sa"
    assert text_key("Ph.D. (Computer-Science)") == "phd computer science"
    assert text_key("Müller & Söhne GmbH") == "muller sohne gmbh"


def test_old_homes_re_export_the_same_functions():
    """The ingestion and index modules hand out these functions, not copies of them."""
    assert textclean.normalize_key is normalize_key
    assert filters.text_key is text_key
