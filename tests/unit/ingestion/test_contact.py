"""Name and headline rules: particles, skill lines, contact-row labels, German and job-title words."""

from __future__ import annotations

from cvrag_desktop.ingestion.contact import _name_shaped, find_headline, find_name
from cvrag_desktop.ingestion.extract import ExtractedDoc
from cvrag_desktop.ingestion.layout import TextLine
from cvrag_desktop.ingestion.lexicon import load_lexicon


def _doc(rows: list[tuple[str, float]]) -> ExtractedDoc:
    lines, y = [], 40.0
    for text, size in rows:
        lines.append(TextLine(text=text, page=0, bbox=(50, y, 50 + 5 * len(text), y + size * 1.2), size=size,
                              bold=size > 12))
        y += size * 1.4
    return ExtractedDoc(lines=lines, page_count=1, method="pymupdf", page_sizes=[(595, 842)])


def test_lowercase_particles_and_capitalised_surnames():
    assert _name_shaped("Valentina das Neves")
    assert _name_shaped("Luiz Henrique da Cunha da Luz")
    assert _name_shaped("Debarghya Das")
    assert not _name_shaped("da Silva")


def test_skill_lines_are_not_names():
    assert not _name_shaped("API Testing")
    assert not _name_shaped("Advanced Excel")
    assert not _name_shaped("Usability Testing.")


def test_name_in_a_table_header_beats_skill_cells():
    doc = _doc([("Valentina das Neves", 20), ("Email\tvalentina@example.com", 9), ("Skills", 12),
                ("API Testing\tUsability Testing", 9)])
    assert find_name(doc).value == "Valentina das Neves"


def test_contact_row_label_is_not_a_headline():
    doc = _doc([("Stephanie Joyce", 20), ("Email\tstephanie@example.com", 9), ("Phone\t484.589.5000", 9)])
    assert find_headline(doc, find_name(doc)) is None
    doc = _doc([("Stephanie Joyce", 20), ("Senior Buyer", 11), ("Email\tstephanie@example.com", 9)])
    assert find_headline(doc, find_name(doc)).value == "Senior Buyer"


def test_job_title_words_in_several_languages():
    title = load_lexicon().title_re
    for t in ("SDET", "Senior Buyer", "Disponent", "Außendienstmitarbeiterin", "Konstrukteurin",
              "Professeur de mathématiques"):
        assert title.search(t), t
