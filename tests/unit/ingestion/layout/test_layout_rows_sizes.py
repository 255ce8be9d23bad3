"""Pieces of one row in very different type are cells of their own (a town beside a name in display type)."""

from __future__ import annotations

from cvrag_desktop.ingestion.layout.reading_order import TextLine, merge_rows


def test_a_small_town_beside_a_name_in_display_type_is_its_own_cell():
    town = TextLine(text="Bamberg", page=0, bbox=(120, 94, 149, 104), size=10.0, bold=False)
    name = TextLine(text="Marika Neureuther", page=0, bbox=(168, 74, 400, 108), size=33.9, bold=False)
    assert [ln.text for ln in merge_rows([town, name])] == ["Bamberg\tMarika Neureuther"]
    word = TextLine(text="Senior", page=0, bbox=(100, 100, 140, 111), size=11.0, bold=False)
    next_word = TextLine(text="Engineer", page=0, bbox=(143, 100, 190, 111), size=11.0, bold=False)
    assert [ln.text for ln in merge_rows([word, next_word])] == ["Senior Engineer"]
