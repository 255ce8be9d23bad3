"""Failure classes of a recruiter's inbox, reproduced with minimal documents of our own text.

Profile exports (a name and headline repeated at the top of every page; positions grouped under a
firm in larger type; "Title at Firm" with dates that print their own length; schools above "Degree,
Field · (years)"), names followed by credentials, LaTeX accents drawn as separate glyphs, headings
that only partly name their section, and Word files whose name sits in the page header or a text box.
"""

from __future__ import annotations

import docx
from docx.oxml import parse_xml

from cvrag_desktop.ingestion.fields.identity.names import clean_name
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from cvrag_desktop.ingestion.read.textclean import clean_text
from tests.support.minipdf import write_pdf


def _export_pages() -> list:
    top = [(36, 32, "Ottoline Brack", 20, True), (36, 61, "Ward Sister at Harrowgate Infirmary", 13),
           (36, 83, "obrack@example.org", 13)]
    first = [*top, (36, 120, "Experience", 16), (36, 150, "Harrowgate Infirmary", 12), (36, 166, "6 years 4 months", 10.5), (36, 182, "Ward Sister", 11.5), (36, 198, "March 2021 - Present (3 years 9 months)", 10.5), (36, 214, "Leeds, United Kingdom", 10.5), (36, 230, "Leads a team of twelve nurses on an acute medical ward.", 10.5), (36, 248, "Staff Nurse", 11.5), (36, 264, "June 2018 - March 2021 (2 years 10 months)", 10.5), (36, 280, "Leeds, United Kingdom", 10.5), (36, 296, "Administered medication and maintained patient records.", 10.5), (36, 320, "St Wilfrid Hospice", 12), (36, 336, "Healthcare Assistant", 11.5), (36, 352, "May 2016 - May 2018 (2 years 1 month)", 10.5), (36, 368, "Supported patients with daily care.", 10.5), (36, 400, "Education", 16), (36, 430, "Northbrook University", 12), (36, 446, "Bachelor of Science - BSc, Adult Nursing · (2013 - 2016)", 10.5), (549, 780, "Page 1 of 2", 10)]
    second = [*top, (36, 120, "Volunteering at the county blood service.", 10.5), (549, 780, "Page 2 of 2", 10)]
    return [first, second]


def test_profile_export_reads_name_roles_grouped_by_firm_and_schools(tmp_path):
    # the "Page 1 of 2" footer's box ends beyond the page's right edge: the gutter finder once raised
    # IndexError on it
    doc = extract_document(write_pdf(tmp_path / "export.pdf", _export_pages()))
    assert sum(ln.text == "Ottoline Brack" for ln in doc.lines) == 1  # the running header is read once
    cv, _ = normalize_document(doc)
    assert cv.name == "Ottoline Brack"
    roles = [(e.title, e.company, e.is_current) for e in cv.experiences]
    assert roles == [("Ward Sister", "Harrowgate Infirmary", True), ("Staff Nurse", "Harrowgate Infirmary", False),
                     ("Healthcare Assistant", "St Wilfrid Hospice", False)]
    assert cv.experiences[0].location == "Leeds, United Kingdom"
    assert not any("years" in b for e in cv.experiences for b in e.bullets)
    assert cv.degrees == ["Bachelor of Science - BSc, Adult Nursing"]
    assert cv.institutions == ["Northbrook University"]


def test_old_export_title_at_firm_with_a_present_role_without_length(tmp_path):
    page = [(36, 32, "Peregrine Ashdown", 20, True), (36, 61, "Staff Accountant at Fenwick and Lowe", 13),
            (36, 120, "Experience", 16),
            (36, 150, "Staff Accountant at Fenwick and Lowe", 12, True), (36, 166, "2019 - Present", 12),
            (47, 184, "Prepared monthly reconciliations", 12),
            (36, 210, "Audit Junior at Marlow Civic Council", 12, True), (36, 226, "2016 - 2019 (3 years)", 12),
            (47, 244, "Tested expense claims", 12)]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "old.pdf", [page])))
    assert [(e.title, e.company) for e in cv.experiences] == [("Staff Accountant", "Fenwick and Lowe"),
                                                               ("Audit Junior", "Marlow Civic Council")]
    assert cv.current_title == "Staff Accountant"


def test_credentials_after_a_name_are_dropped_but_places_and_surnames_stay():
    assert clean_name("TAMSIN OKORO, RN, BSN, CCRN") == "TAMSIN OKORO"
    assert clean_name("Idris Vane - CPA") == "Idris Vane"
    assert clean_name("Mabel Quist, NE-BC") == "Mabel Quist"
    assert clean_name("Silicon Valley, CA, USA") == "Silicon Valley, CA, USA"  # a place, not a name
    assert clean_name("Okafor, Chidi") == "Okafor, Chidi"


def test_latex_spacing_accents_join_their_letter():
    assert clean_text("Ma\u02c6\u0131tresse de Conf\u00b4erences") == "Maîtresse de Conférences"
    assert clean_text("Universit\u00a8at") == "Universität"
    assert clean_text("Magist`ere, revues `a comit\u00b4e") == "Magistère, revues à comité"
    assert clean_text("run `make` here") == "run `make` here"


def test_headings_partly_in_the_lexicon_teach_the_style(tmp_path):
    page = [(40, 30, "Verena Holt", 24), (40, 70, "Domaines de Recherche", 14, True),
            (40, 90, "Économie de l'environnement", 10.5),
            (40, 115, "Postes Précédents", 14, True),
            (40, 135, "2019 - 2022\tChargée de recherche, Institut Lambert", 10.5),
            (40, 160, "Formations et diplômes", 14, True),
            (40, 180, "2014 - 2019\tDoctorat en Sciences Économiques, Université de Valmont", 10.5),
            (40, 205, "Expériences d'Enseignement", 14, True),
            (40, 225, "2016 - 2019\tChargée de TD, Université de Valmont", 10.5),
            (40, 250, "Compétences Spécifiques", 14, True), (40, 270, "Stata, R, Python", 10.5)]
    _, blocks = normalize_document(extract_document(write_pdf(tmp_path / "fr.pdf", [page])))
    sections = {b.title: b.section for b in blocks if b.heading is not None}
    assert sections["Formations et diplômes"] == "education"
    assert sections["Compétences Spécifiques"] == "skills"
    assert sections["Domaines de Recherche"] == "other"  # a heading in that style, of no known section


def _text_box(paragraph, text: str) -> None:
    xml = ('<w:r xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
           'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
           'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
           'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
           '<w:drawing><wp:anchor><a:graphic><a:graphicData><wps:wsp><wps:txbx><w:txbxContent>'
           f'<w:p><w:r><w:t>{text}</w:t></w:r></w:p>'
           '</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>')
    paragraph._p.append(parse_xml(xml))


def test_docx_name_in_page_header_and_contacts_in_a_text_box(tmp_path):
    d = docx.Document()
    head = d.sections[0].header.paragraphs[0]
    run = head.add_run("Cressida Vayle")
    run.bold = True
    run.font.size = docx.shared.Pt(20)
    d.sections[0].header.add_paragraph("Primary School Teacher")
    anchor = d.add_paragraph("")
    _text_box(anchor, "cressida.vayle@example.net")
    d.add_heading("Experience", level=1)
    d.add_paragraph("Class Teacher, Brackenfield Primary School\t09/2019 - present")
    d.add_heading("Education", level=1)
    d.add_paragraph("PGCE Primary Education, Northbrook University\t2018 - 2019")
    path = tmp_path / "teacher.docx"
    d.save(path)
    doc = extract_document(path)
    cv, _ = normalize_document(doc)
    assert cv.name == "Cressida Vayle"
    assert cv.emails == ["cressida.vayle@example.net"]
    assert [ln.text for ln in doc.lines].count("cressida.vayle@example.net") == 1
    assert cv.current_title == "Class Teacher"



def test_sidebar_only_page_is_a_candidate_and_a_spaced_address_is_read(tmp_path):
    # the name and history are in a picture; the text layer holds only the sidebar
    page = [(30, 40, "KONTAKT", 20), (30, 70, "00 44 (0)7 11 22 33 44", 12), (30, 86, "quillon @example.org", 12),
            (30, 120, "SPRACHEN", 20), (30, 150, "Englisch\tB1", 12), (30, 166, "Deutsch\tC1", 12),
            (30, 200, "FÄHIGKEITEN", 20), (30, 230, "Teamarbeit", 11), (30, 246, "Python", 11),
            (30, 262, "SketchUp", 11), (30, 290, "Senior Engineer @ Brightwater.Tek", 11)]
    path = write_pdf(tmp_path / "sidebar.pdf", [page])
    from cvrag_desktop.ingestion.parse_job import parse_file

    out = parse_file(str(path), "c1", {}, False, None)
    assert out["ok"], out
    cv = normalize_document(extract_document(path))[0]
    assert cv.emails == ["quillon@example.org"] and cv.name is None  # "Engineer @ Firm.Tek" is no address


def test_a_page_with_no_cv_content_is_still_refused(tmp_path):
    page = [(40, 40 + 16 * k, f"Invoice line {k}: 3 units at 12.50 each", 10) for k in range(6)]
    from cvrag_desktop.ingestion.parse_job import parse_file

    out = parse_file(str(write_pdf(tmp_path / "invoice.pdf", [page])), "c2", {}, False, None)
    assert not out["ok"] and out["status"] == "no_content", out
