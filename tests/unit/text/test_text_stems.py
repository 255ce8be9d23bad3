"""Two crude stems that differ on purpose: a suffix dropped, or a prefix kept."""

from __future__ import annotations

from cvrag_desktop.text.stems import prefix_stem, suffix_stem


def test_suffix_stem_lets_inflections_meet():
    assert suffix_stem("building") == suffix_stem("builds") == "build"
    assert suffix_stem("pipelines") == "pipelin"
    assert suffix_stem("java") == "java"  # too short to lose an ending


def test_prefix_stem_keeps_all_but_two_letters_and_at_least_four():
    assert prefix_stem("nurses") == "nurs"
    assert prefix_stem("nursing") == "nursi"
    assert prefix_stem("java") == "java"
