"""Comparison keys: one definition for the parser, the index filters and the person grouping."""

from __future__ import annotations

from cvrag_desktop.text.keys import heading_key, label_key, normalize_key, symbol_key, text_key


def test_normalize_key_folds_accents_case_and_space():
    assert normalize_key("  José   GARCÍA ") == "jose garcia"
    assert normalize_key("Straße") == "strasse"  # casefold, not lower
    assert normalize_key("plain ascii") == "plain ascii"


def test_text_key_drops_dots_and_punctuation():
    assert text_key("Acme S.A.") == "acme sa"
    assert text_key("Ph.D. (Computer-Science)") == "phd computer science"
    assert text_key("Müller & Söhne GmbH") == "muller sohne gmbh"


def test_symbol_key_keeps_plus_and_hash_and_splits_at_dots():
    """The evaluation's label key: "C++" is not "C", "Node.js" is two words (text_key would join them)."""
    assert symbol_key("C++ / C#") == "c++ c#"
    assert symbol_key("Node.js") == "node js"
    assert text_key("Node.js") == "nodejs"
    assert symbol_key("  Müller,  GmbH ") == "muller gmbh"


def test_label_key_drops_plural_marks_and_punctuation():
    assert label_key("Language(s)") == "language"
    assert label_key("Mother tongue(s):") == "mother tongue"
    assert label_key("Employer’s name") == "employer s name"


def test_heading_key_drops_numbering_and_the_word_and():
    assert heading_key("2. Education & Training") == "education training"
    assert heading_key("Aus- und Weiterbildung:") == "aus weiterbildung"
    assert heading_key("— Formación y experiencia") == "formacion experiencia"
