"""More inbox classes, each reproduced with a minimal document of invented text.

Text inked twice for a fake bold, Polish headings beside a second column, "Label: value" role
lines and an open end printed as "∞"; a Word CV whose entry headers share the bold of its
headings; an old profile export whose roles read "Title at Firm" without a known title word;
month ranges that print the year once; a tagline never taken from under a section heading; a
two-ideograph heading in the template's heading style.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.layout.line_kinds import BULLET
from cvrag_desktop.ingestion.layout.sections import find_sections
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from tests.support.minipdf import write_pdf

_FONTS = Path(__file__).resolve().parents[4] / "resources" / "factory" / "fonts"


def _unicode_fonts() -> tuple[str, str]:
    """DejaVu regular and bold (Polish letters and "∞" are not in the standard PDF fonts)."""
    for name, file in (("ShapesSans", "DejaVuSansCondensed.ttf"), ("ShapesSans-Bold", "DejaVuSansCondensed-Bold.ttf")):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(_FONTS / file)))
    return "ShapesSans", "ShapesSans-Bold"


def _unicode_canvas(path, body_size: float):
    """An A4 canvas in DejaVu and a ``put(x, y, text, size, bold)`` that places text from the top."""
    regular, bold_font = _unicode_fonts()
    c = canvas.Canvas(str(path), pagesize=A4, invariant=True)
    h = A4[1]

    def put(x, y, text, size=body_size, bold=False):
        c.setFont(bold_font if bold else regular, size)
        c.drawString(x, h - y - size, text)

    return c, put


def _two_column_polish(path):
    """A left column (profile, education) beside a right column (experience), the name inked twice."""
    c, put = _unicode_canvas(path, 8.5)

    for dx in (0.0, 0.8):  # the same glyphs drawn a hair apart: a fake bold
        put(60 + dx, 60 + dx, "Marzena", 22, True)
        put(330 + dx, 60 + dx, "Wilkowiecka", 22, True)
    left = ["PROFIL ZAWODOWY", "Pielęgniarka z dziesięcioletnim stażem na oddziale", "chirurgii ogólnej i w poradni",
            "przyszpitalnej, szuka pracy w zespole.", "", "EDUKACJA", "Uczelnia Medyczna w Zalesiu 10.2008 - 06.2013",
            "Wydział Nauk o Zdrowiu", "kierunek: Pielęgniarstwo", "", "JĘZYKI", "polski - ojczysty", "angielski - B2"]
    right = ["DOŚWIADCZENIE", "03.2019 - ∞ SZPITAL MIEJSKI W ZALESIU", "Stanowisko: Pielęgniarka oddziałowa",
             "Kierowanie zespołem dwunastu pielęgniarek.", "07.2013 - 02.2019 PRZYCHODNIA POD LIPAMI",
             "Stanowisko: Pielęgniarka", "Prowadzenie dokumentacji pacjentów.", "", "UMIEJĘTNOŚCI", "Opieka pooperacyjna",
             "Dokumentacja medyczna", "Pobieranie krwi"]
    for n, text in enumerate(left):
        if text:
            put(60, 120 + n * 13, text, 14 if text.isupper() and len(text) < 20 else 8.5, text.isupper())
    for n, text in enumerate(right):
        if text:
            put(330, 120 + n * 13, text, 14 if text.isupper() and len(text) < 20 else 8.5, text.isupper())
    c.showPage()
    c.save()
    return path


def test_fake_bold_polish_columns_labelled_roles_and_open_end(tmp_path):
    doc = extract_document(_two_column_polish(tmp_path / "pl.pdf"))
    assert sum("Marzena" in ln.text for ln in doc.lines) == 1  # inked twice, read once
    assert not any("Marzena Marzena" in ln.text for ln in doc.lines)
    cv, blocks = normalize_document(doc)
    assert cv.name == "Marzena Wilkowiecka"  # the two halves sit on one row across the column gap
    assert {b.section for b in blocks} >= {"summary", "education", "experience", "languages", "skills"}
    roles = [(e.title, e.company, e.start, e.is_current) for e in cv.experiences]
    assert roles == [("Pielęgniarka oddziałowa", "SZPITAL MIEJSKI W ZALESIU", "2019-03", True),
                     ("Pielęgniarka", "PRZYCHODNIA POD LIPAMI", "2013-07", False)]
    assert cv.headline is None  # the profile's first sentence sits under its heading: not a tagline


def test_word_entry_headers_in_the_bold_of_the_headings(tmp_path):
    page = [(50, 40, "Rosalind Achterberg", 14, True), (50, 60, "Hollowmere, MI | rachterberg@example.org", 10),
            (50, 90, "Summary", 10, True), (50, 104, "Office professional who keeps clinics running.", 10),
            (50, 130, "Experience", 10, True),
            (50, 144, "Quillfield Veterinary, Practice Manager", 10, True), (50, 158, "Aug. 2020 – Current", 10, True),
            (50, 172, "Handle insurance billing and supplier contracts", 10),
            (50, 190, "Tamberlin Surveyors, Office Manager", 10, True), (50, 204, "Sep. 2016 – Aug. 2020", 10, True),
            (50, 218, "Coordinated travel for nine partners", 10),
            (50, 244, "Skills", 10, True), (50, 258, "Billing", 10), (50, 272, "Scheduling", 10)]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "word.pdf", [page])))
    assert [(e.title, e.company) for e in cv.experiences] == [("Practice Manager", "Quillfield Veterinary"),
                                                               ("Office Manager", "Tamberlin Surveyors")]
    assert cv.current_title == "Practice Manager"


def test_old_export_at_convention_reads_titles_without_title_words(tmp_path):
    page = [(36, 32, "Wenna Trevithick", 20, True), (36, 61, "Growth lead at Sailcloth Jobs", 13),
            (36, 120, "Experience", 16),
            (36, 150, "Growth Manager at Sailcloth Jobs", 12, True), (36, 166, "March 2021 - Present", 12),
            (47, 184, "Ran acquisition experiments", 12),
            (36, 210, "Content expert, product marketing at Sailcloth Jobs", 12, True),
            (36, 226, "October 2019 - March 2021 (1 year 6 months)", 12), (47, 244, "Wrote the weekly series", 12),
            (36, 270, "Community Editor at Kestle Media", 12, True),
            (36, 286, "January 2018 - October 2019 (1 year 10 months)", 12), (47, 304, "Edited guest posts", 12),
            (36, 330, "Storyteller", 12, True), (36, 346, "June 2017 - December 2017 (7 months)", 12),
            (47, 364, "Told stories for a florist", 12)]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "old.pdf", [page])))
    assert [(e.title, e.company) for e in cv.experiences] == [
        ("Growth Manager", "Sailcloth Jobs"), ("Content expert, product marketing", "Sailcloth Jobs"),
        ("Community Editor", "Kestle Media"), ("Storyteller", None)]


def test_month_ranges_open_ends_and_numbered_dates():
    (r,) = find_date_ranges("Bootcamp\tFebruary-August 2020")
    assert (r.start, r.end) == ("2020-02", "2020-08")
    (r,) = find_date_ranges("März–Juni 2018")
    assert (r.start, r.end) == ("2018-03", "2018-06")
    (r,) = find_date_ranges("07.2019 - ∞ FIRM")
    assert (r.start, r.is_current) == ("2019-07", True)
    assert [(x.start, x.end) for x in find_date_ranges("Sales Manager - March 2020")] == [(None, "2020-03")]
    assert BULLET.sub("", "03.2018 - 06.2018 FIRM") == "03.2018 - 06.2018 FIRM"  # a date, not item 3
    assert BULLET.sub("", "3. Led the audit") == "Led the audit"


def test_two_ideograph_heading_in_the_heading_style_ends_the_section(tmp_path):
    pdfmetrics.registerFont(UnicodeCIDFont("HeiseiKakuGo-W5"))
    c = canvas.Canvas(str(tmp_path / "ja.pdf"), pagesize=A4, invariant=True)
    rows = [(60, 40, "Hoshino Ren", 24), (60, 90, "経歴", 13), (70, 110, "北方大学 研究員 2021 年 4 月～現在", 11),
            (70, 126, "理学研究科", 11), (60, 150, "スキル", 13), (70, 170, "Python", 11), (60, 194, "論文", 13),
            (70, 214, "Heat flow in small engines", 11), (70, 230, "Phys. Lett. 9, 1 (2024)", 11),
            (60, 254, "受賞歴", 13), (70, 274, "奨励賞 2023", 11)]
    for x, y, text, size in rows:
        c.setFont("HeiseiKakuGo-W5", size)
        c.drawString(x, A4[1] - y - size, text)
    c.showPage()
    c.save()
    doc = extract_document(tmp_path / "ja.pdf")
    blocks = find_sections(doc)
    heading_texts = {doc.lines[b.heading].text for b in blocks if b.heading is not None}
    assert "論文" in heading_texts
    exp = next(b for b in blocks if b.section == "experience")
    assert not any("Phys. Lett" in doc.lines[i].text for i in exp.lines)


def test_a_lower_case_name_needs_the_e_mail_to_agree(tmp_path):
    def page(mail: str) -> list:
        return [(36, 32, "tobiah quennell", 20, True), (36, 61, "Head of Partnerships at Brinecourt", 13),
                (36, 83, mail, 13), (36, 120, "Summary", 16), (36, 150, "Builds partner programmes.", 12)]

    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "a.pdf", [page("tobiah@example.org")])))
    assert cv.name == "tobiah quennell"
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "b.pdf", [page("partners@example.org")])))
    assert cv.name is None  # lower-case words at the top with nothing to confirm them: no name


def test_export_role_labels_last_page_card_and_lone_titles(tmp_path):
    top = [(36, 32, "Eilidh Marchbank", 20, True), (36, 61, "Ward Manager at Cairnside Infirmary", 13),
           (36, 83, "emarchbank@example.org", 13)]
    first = [*top, (36, 120, "Summary", 16), (36, 150, "Nurse leader of acute wards.", 12),
             (36, 180, "Experience", 16),
             (36, 210, "Ward Manager at Cairnside Infirmary", 12, True), (36, 226, "2019 - Present", 12),
             (47, 244, "Runs a ward of thirty beds.", 10.5), (47, 262, "Highlights:", 10.5),
             (47, 280, "Cut agency spend by a third.", 10.5),
             (36, 306, "Staff Nurse", 12, True), (36, 322, "2015 - 2019 (4 years)", 12),
             (47, 340, "Administered medication.", 10.5), (47, 358, "Highlights:", 10.5),
             (47, 376, "Led the falls audit.", 10.5),
             (36, 402, "Charge Nurse", 12, True), (36, 418, "2013 - 2015 (2 years)", 12),
             (47, 436, "Coordinated night shifts.", 10.5),
             (36, 462, "Ward Clerk", 12, True), (36, 478, "2011 - 2013 (2 years)", 12),
             (47, 496, "Kept the ward's records.", 10.5)]
    last = [(36, 40, "Education", 16), (36, 70, "Lochan University", 12, True),
            (36, 86, "Bachelor of Nursing, 2011 - 2015", 12), *[(x, y + 120, t, *r) for x, y, t, *r in top],
            (36, 230, "Contact Eilidh on the network", 12)]
    cv, blocks = normalize_document(extract_document(write_pdf(tmp_path / "card.pdf", [first, last])))
    assert [b.title for b in blocks if b.heading is not None] == ["Summary", "Experience", "Education"]
    assert [(e.title, e.company) for e in cv.experiences] == [
        ("Ward Manager", "Cairnside Infirmary"), ("Staff Nurse", None), ("Charge Nurse", None), ("Ward Clerk", None)]
    assert cv.experiences[0].bullets[-1] == "Cut agency spend by a third."
    assert cv.degrees == ["Bachelor of Nursing"]  # the card's headline is not a second degree


def test_degree_words_of_more_languages():
    from cvrag_desktop.text.vocab.lexicon import load_lexicon

    degree = load_lexicon().degree_re
    for text in ("Mestre em Engenharia Civil", "Degree in Nursing", "Licencjat, kierunek: Pielęgniarstwo",
                 "Technik administracji", "Propedeuse Rechten"):
        assert degree.search(text), text
    for text in ("Mestre de obras", "Head of Partnerships", "Ward Clerk"):
        assert not degree.search(text), text


def test_employers_outside_software_places_and_statuses(tmp_path):
    page = [(50, 40, "Corliss Ambrey", 18, True), (50, 70, "Experience", 14, True),
            (50, 96, "Retired, Royal Naval Reserve\t2019 - Present", 10),
            (50, 112, "Volunteer Guide, Harbourside Maritime Museum, New York City\t2015 - 2019", 10),
            (50, 128, "Shift Lead, Blue Anchor Restaurant, Portsmouth\t2010 - 2015", 10),
            (50, 160, "Education", 14, True), (50, 186, "Bachelor of Arts in History, Solent University, 2009", 10)]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "word.pdf", [page])))
    roles = [(e.title, e.company) for e in cv.experiences]
    assert roles[0] == (None, "Royal Naval Reserve")  # "Retired" is a status, not the title of a role
    assert ("Volunteer Guide", "Harbourside Maritime Museum") in roles  # New York City is where, not who
    assert ("Shift Lead", "Blue Anchor Restaurant") in roles
    assert cv.current_title is None


def _employer_dash_title(path, rows):
    """One-line role headers "Employer — Title <tab> dates" under a heading, in DejaVu (Polish letters)."""
    c, put = _unicode_canvas(path, 9)

    put(60, 50, "Iwona Przykład", 20, True)
    put(60, 76, "iwona.przyklad@example.org")
    put(60, 110, "Experience", 13, True)
    y = 135
    for head, dates, note in rows:
        put(60, y, head)
        put(440, y, dates)
        put(66, y + 13, note)
        y += 40
    c.showPage()
    c.save()
    return path


def test_polish_and_dutch_titles_and_employers_are_told_apart_by_vocabulary(tmp_path):
    """Job-title words of Polish and Dutch ("Specjalistka ds. …", "Huisarts") and employer words without a
    legal form ("Grupa …", a Dutch compound "…ziekenhuis") decide which side of the dash is which."""
    rows = [("Grupa Wzorcowa — Specjalistka ds. marketingu", "sinds 2024", "Kampanie i budżet."),
            ("Streekziekenhuis Voorbeeld — Huisarts", "2019 – 2024", "Spreekuur en visites."),
            ("Kancelaria Wzorcowa — Aplikant radcowski", "od 2015 do 2019", "Umowy i opinie.")]
    cv, _ = normalize_document(extract_document(_employer_dash_title(tmp_path / "pl.pdf", rows)))
    assert [(e.title, e.company, e.is_current) for e in cv.experiences] == [
        ("Specjalistka ds. marketingu", "Grupa Wzorcowa", True),
        ("Huisarts", "Streekziekenhuis Voorbeeld", False),
        ("Aplikant radcowski", "Kancelaria Wzorcowa", False)]


def test_export_lengths_with_singular_units_and_old_export_skill_headings():
    """"1 año 1 mes", "1 anno 5 mesi", "1 rok 2 miesiące", "1 år 3 månader" are lengths of time (a firm's total
    above its roles); the 2016–17 export's "Skills & Expertise" heading in other languages names skills."""
    from cvrag_desktop.ingestion.layout.line_kinds import group_duration
    from cvrag_desktop.ingestion.layout.sections import lexicon_section

    for text in ("Firma Ejemplo — 1 año 1 mes", "Ditta Esempio · 1 anno 5 mesi", "Firma Wzorcowa — 1 rok 2 miesiące",
                 "Exempel AB · 1 år 3 månader"):
        assert group_duration(text), text
    for heading in ("Skills & Expertise", "Competenze ed esperienze", "Aptitudes y conocimientos",
                    "Kenntnisse und Fähigkeiten"):
        assert lexicon_section(heading) == "skills", heading


def test_a_range_stacked_in_a_narrow_date_cell_and_french_academic_titles(tmp_path):
    """"April 2025" / "–" / "present" stacked in a table's date cell beside the role is one current range;
    "Maîtresse de Conférences, Université …" under "Poste actuel" is a title at an employer."""
    head = [(40, 20, "Ilse Marrow", 20, True), (40, 44, "ilse.marrow@example.org")]
    items = [*head, (40, 70, "Experience", 14, True),
                    (40, 95, "April 2025"), (130, 95, "Platform Engineer, Example Logistics Ltd"),
                    (40, 108, "–"), (130, 108, "• Ran the build farm."),
                    (40, 121, "present"), (130, 121, "• Cut release time by half."),
                    (40, 150, "Poste actuel", 14, True),
                    (40, 175, "Depuis 2021 Maîtresse de Conférences, Université Exemple")]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [items])))
    roles = [(e.title, e.company, e.start, e.is_current) for e in cv.experiences]
    assert ("Platform Engineer", "Example Logistics Ltd", "2025-04", True) in roles
    assert ("Maîtresse de Conférences", "Université Exemple", "2021", True) in roles


def test_surnames_that_are_also_trades_stay_names(tmp_path):
    """Cook, Koch, Kok, Foreman are common surnames: adding job words to the vocabulary must not turn a
    person's name into a title."""
    for n, name in enumerate(("Irene Cook", "Anna Koch", "Jan Kok", "Dale Foreman")):
        items = [(40, 20, name, 20, True), (40, 44, "Sous Chef", 11),
                 (40, 60, f"{name.split()[0].lower()}@example.org"), (40, 90, "Experience", 14, True),
                 (40, 115, "2019 - 2024"), (150, 115, "Sous Chef"), (300, 115, "Example Bistro")]
        cv, _ = normalize_document(extract_document(write_pdf(tmp_path / f"cv{n}.pdf", [items])))
        assert cv.name == name


def test_an_employer_named_after_people_with_two_particles(tmp_path):
    """"van den Berg & Zonen" opens with two lower-case particles: an employer, not a continuation line."""
    items = [(40, 20, "Ilse Marrow", 20, True), (40, 44, "ilse.marrow@example.org"), (40, 70, "Experience", 14, True),
             (40, 95, "Controller", 11, True), (40, 109, "van den Berg & Zonen, Utrecht"), (40, 123, "2019 - 2024"),
             (46, 137, "• Closed the books each month.")]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [items])))
    assert [(e.title, e.company) for e in cv.experiences] == [("Controller", "van den Berg & Zonen")]


def test_an_employer_line_ending_in_a_legal_form_is_no_sentence(tmp_path):
    """"Fundacja Wzorcowa Sp. z o.o. Sp.k." has six words and ends with a period: a legal form, not prose."""
    items = [(40, 20, "Ilse Marrow", 20, True), (40, 44, "ilse.marrow@example.org"), (40, 70, "Experience", 14, True),
             (40, 95, "mar 2023 - 2025"), (150, 95, "Frontend Engineer"), (40, 109, "Fundacja Wzorcowa Sp. z o.o. Sp.k."),
             (120, 125, "• Shipped the booking pages.")]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [items])))
    assert [(e.title, e.company) for e in cv.experiences] == [("Frontend Engineer", "Fundacja Wzorcowa Sp. z o.o. Sp.k.")]


def test_side_headings_wrapped_onto_a_word_that_is_a_heading_alone(tmp_path):
    """A later page of labels beside their content: "Key" / "Skills" is one heading even though "Skills" alone
    is one too; the strip stays beside its content instead of becoming a column read after it."""
    first = [(182, 40, "Ilse Marrow", 20, True), (182, 66, "Site Engineer", 12), (182, 84, "ilse.marrow@example.org"),
             (170, 110, "Experience", 11.5, True, "right")]
    y = 110
    for n in range(14):
        first.append((182, y, f"Planned site works for project {n} with the client team"))
        y += 14
    second = [(182, 62, "2016 - 2019"), (182, 75, "Site Engineer", 10, True), (182, 88, "Example Works Ltd"),
              (184, 102, "• Led the survey crew of eleven people on two river bridges and all drainage works."),
              (184, 116, "• Wrote the method statements and risk assessments for the regional tender bids."),
              (170, 150, "Education and", 11.5, True, "right"), (170, 164, "Training", 11.5, True, "right"),
              (182, 150, "2012 - 2016"), (182, 164, "BSc Civil Engineering", 10, True),
              (182, 178, "Example University of Technology and Applied Sciences in Musterstadt"),
              (170, 210, "Key", 11.5, True, "right"), (170, 224, "Skills", 11.5, True, "right"),
              (182, 210, "AutoCAD, Revit, Primavera P6, Site supervision, Surveying, Quantity take-off"),
              (170, 250, "Languages", 11.5, True, "right"),
              (182, 250, "German (native), English (C1)"),
              (170, 290, "Technical", 11.5, True, "right"), (170, 304, "Skills", 11.5, True, "right"),
              (182, 290, "Total station, GNSS rover, Civil 3D, Excel modelling of earthworks and cut-fill volumes")]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [first, second])))
    assert {"AutoCAD", "Revit"} <= set(cv.skills)
    assert [e.degree for e in cv.education] == ["BSc Civil Engineering"]
    assert "German" in cv.languages


def test_a_surname_that_is_a_vocabulary_word_stays_in_the_name(tmp_path):
    """"Sales", "Grupa", "Company" are surnames too: a given name first and one such word is still a person;
    a title in large type with no given name ("Senior Sales Manager") is not."""
    for n, name in enumerate(("Diogo Andrade Sales", "Adam Grupa", "Alexia Sales Campos")):
        items = [(40, 20, name, 20, True), (40, 44, "Product Owner", 11), (40, 60, "person@example.org"),
                 (40, 90, "Experience", 14, True), (40, 115, "2019 - 2024"), (150, 115, "Product Owner"),
                 (300, 115, "Example Bistro")]
        cv, _ = normalize_document(extract_document(write_pdf(tmp_path / f"cv{n}.pdf", [items])))
        assert cv.name == name
    items = [(40, 20, "Senior Sales Manager", 20, True), (40, 60, "person@example.org"),
             (40, 90, "Experience", 14, True), (40, 115, "2019 - 2024"), (150, 115, "Sales Manager")]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "anon.pdf", [items])))
    assert cv.name is None


def test_an_open_dash_below_a_later_role_dates_a_single_year_and_student_roles_at_organisations(tmp_path):
    """"2019 - Survey assistant" listed under a 2022 role is that year's job, not ongoing; "Student Government"
    is the organisation and "Treasurer" the role held there."""
    items = [(40, 20, "Ilse Marrow", 20, True), (40, 44, "ilse.marrow@example.org"), (40, 70, "Experience", 14, True),
             (40, 95, "2021 - 2022"), (120, 95, "Receptionist, Example Outlet Centre"),
             (40, 125, "2019 - Survey assistant"), (40, 139, "Example Polling Ltd"),
             (40, 165, "2014 - 2015"), (120, 165, "Student Government"), (330, 165, "Paris, France"),
             (120, 179, "Treasurer"),
             (120, 193, "In charge of the budget.")]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [items])))
    survey = next(e for e in cv.experiences if e.title == "Survey assistant")
    assert (survey.start, survey.end, survey.is_current) == ("2019", "2019", False)
    assert cv.current_title is None
    assert ("Treasurer", "Student Government") in [(e.title, e.company) for e in cv.experiences]
