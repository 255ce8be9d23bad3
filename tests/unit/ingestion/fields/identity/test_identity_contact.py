"""Name and headline rules: particles, skill lines, contact-row labels, German and job-title words."""

from __future__ import annotations

from cvrag_desktop.ingestion.fields.identity.contact import Hit
from cvrag_desktop.ingestion.fields.identity.headline import find_headline
from cvrag_desktop.ingestion.fields.identity.names import find_name, name_shaped
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from tests.support.minipdf import lines_doc

_doc = lines_doc


def test_lowercase_particles_and_capitalised_surnames():
    assert name_shaped("Valentina das Neves")
    assert name_shaped("Luiz Henrique da Cunha da Luz")
    assert name_shaped("Debarghya Das")
    assert not name_shaped("da Silva")


def test_skill_lines_are_not_names():
    assert not name_shaped("API Testing")
    assert not name_shaped("Advanced Excel")
    assert not name_shaped("Usability Testing.")


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


def test_job_title_forms_by_gender_compound_and_specialty():
    """Feminine and compound forms of a known head, and medical specialists, are titles; names are not."""
    title = load_lexicon().title_re
    for t in ("Partnerin", "Bilanzbuchhalterin", "Marketingspecialist", "Diretora de Marketing",
              "Coordinatrice Logistica", "Cardioloog", "Senior Cardiologist", "Kardiologin", "Uitvoerder",
              "Biotecnólogo Computacional", "Psicóloga"):
        assert title.search(t), t
    for t in ("Prolog", "Technologie", "Psychologie", "Albuquerque", "Stichting Wijland", "Kupiec"):
        assert not title.search(t), t


def test_post_nominals_and_decoration_are_not_part_of_the_name():
    doc = _doc([("Mara Ostrova, Ph.D.", 22), ("Data Engineering Lead", 14), ("Email\tmara@example.org", 9)])
    assert find_name(doc).value == "Mara Ostrova"
    doc = _doc([("Teo Lindqvist M.Sc.", 22), ("Analyst", 12)])
    assert find_name(doc).value == "Teo Lindqvist"


def test_a_name_printed_without_a_space_in_large_type():
    body = "Built payment services and internal tooling for a small product team. " * 2
    doc = _doc([(". PauloMoreira .", 36), ("Ruby Developer", 13), ("Skills", 12), ("BrandSoft\tRust", 9), (body, 9),
                (body, 9), (body, 9)])
    assert find_name(doc).value == "Paulo Moreira"


def test_labelled_names_in_other_languages_and_one_word_names():
    doc = _doc([("Sobre", 16), ("Nome Completo Paulo Augusto Moreira", 9), ("Morada Rua Nova 3\tLocalidade Braga", 9)])
    assert find_name(doc).value == "Paulo Augusto Moreira"
    doc = _doc([("Curriculum Vitae", 14), ("Name / Surname\tThales", 10), ("Address\tHome Address", 10)])
    assert find_name(doc).value == "Thales"


def test_form_labels_and_places_are_not_names():
    assert not name_shaped("Home Address")
    assert not name_shaped("Personal Email")
    assert not name_shaped("Sexo Masculino")
    assert not name_shaped("South Africa")
    doc = _doc([("contact", 14), ("1 Long Street", 10), ("South Africa", 10), ("Home Address", 10)])
    assert find_name(doc) is None


def test_a_single_word_name_only_in_large_type_at_the_top():
    assert find_name(_doc([("Germaine", 20), ("Platform Engineer", 10), ("Lille", 9)])).value == "Germaine"
    assert find_name(_doc([("Summary", 10), ("Germaine", 10)])) is None


def test_cjk_names_with_middle_dots():
    assert name_shaped("卡尔・海因里希・马克思")


def test_a_first_name_on_the_line_above_a_two_word_surname():
    doc = _doc([("Nicola", 24), ("Di Stefano", 24), ("Engineer", 12)])
    assert find_name(doc).value == "Nicola Di Stefano"


def test_form_labels_section_words_and_name_spellings_are_not_headlines():
    assert find_headline(_doc([("Lea Brandt", 22), ("Address\tHome Address", 10)]), Hit("Lea Brandt", 0)) is None
    assert find_headline(_doc([("Lea Brandt", 22), ("Sobre", 14)]), Hit("Lea Brandt", 0)) is None
    assert find_headline(_doc([("王小明", 22), ("Wang Xiaoming", 22)]), Hit("王小明", 0)) is None
    assert find_headline(_doc([("Lea Brandt", 22), ("生年月日", 10)]), Hit("Lea Brandt", 0)) is None
    assert find_headline(_doc([("Lea Brandt", 22), ("Platform Engineer", 12)]), Hit("Lea Brandt", 0)).value == \
        "Platform Engineer"


def test_an_address_broken_mid_word_by_a_narrow_column_is_read_whole():
    """A profile export's sidebar breaks "name@example.co" / "m": the lone letters finish the address; an
    address that is whole keeps the line below out of it."""
    from cvrag_desktop.ingestion.fields.identity.contact import find_emails

    doc = lines_doc([("Contact", 13), ("ilse.marrow@example.co", 10), ("m", 10), ("+44 20 7946 0000", 10)])
    assert [h.value for h in find_emails(doc)] == ["ilse.marrow@example.com"]
    doc = lines_doc([("ilse.marrow@example.com", 10), ("uk", 10)])
    assert [h.value for h in find_emails(doc)] == ["ilse.marrow@example.com"]
    doc = lines_doc([("ilse.marrow@students.", 10), ("uni.edu", 10)])  # wrapped at a dot, two labels follow
    assert [h.value for h in find_emails(doc)] == ["ilse.marrow@students.uni.edu"]


def test_a_logo_right_of_where_the_name_ends_is_no_headline():
    """Text that starts right of the name's end (a school logo in the header corner) is not under the name."""
    from dataclasses import replace

    doc = _doc([("Nora Castell", 20), ("ENGINEERING SCHOOL", 8), ("Skills", 12)])
    doc.lines[1] = replace(doc.lines[1], bbox=(480, doc.lines[1].y0, 560, doc.lines[1].y1))
    assert find_headline(doc, find_name(doc)) is None
    doc = _doc([("Nora Castell", 20), ("Site Engineer", 11), ("Skills", 12)])
    assert find_headline(doc, find_name(doc)).value == "Site Engineer"


def test_a_name_opening_a_line_of_place_and_date():
    """A Word CV whose first line is "Name, place, date" in body type: the name before the comma."""
    doc = _doc([("Nora Castell, North Campus, 28 Dec 2017", 10), ("Work History", 12),
                ("2017 – Present\tSite Engineer, Example Works", 10)])
    assert find_name(doc).value == "Nora Castell"
    doc = _doc([("Work History", 12), ("Site Engineer, Example Works, 2017 – Present", 10)])
    assert find_name(doc) is None


def test_an_ocr_row_that_lost_its_spaces_gives_back_the_address():
    """OCR glued a contact row together ("CAnora.castell@email.comexample.com"): the address is cut out of it;
    text-layer addresses are never changed."""
    from dataclasses import replace

    from cvrag_desktop.ingestion.fields.identity.contact import find_emails

    doc = lines_doc([("Nora Castell", 20), ("CAnora.castell@email.comexample.com", 10)])
    assert [h.value for h in find_emails(doc)] == ["CAnora.castell@email.comexample.com"]
    doc.lines[1] = replace(doc.lines[1], font="ocr")
    assert [h.value for h in find_emails(doc)] == ["nora.castell@email.com"]
