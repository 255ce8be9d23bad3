"""Role-header classes seen on real CVs, reproduced with minimal PDFs of our own text.

Each test builds the layout that broke extraction (a contact-only sidebar beside the
work history, "City – Country" place cells, employment-type notes, a title followed by a
description sentence, end dates wrapped out of a narrow date column).
"""

from __future__ import annotations

from pathlib import Path

from cvrag_desktop.ingestion.fields.entries import is_body_line
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from tests.support.minipdf import write_pdf


def _cv(tmp_path: Path, items) -> tuple:
    doc = extract_document(write_pdf(tmp_path / "cv.pdf", [items]))
    cv, _ = normalize_document(doc)
    return doc, cv


def _contact_sidebar_page() -> list:
    """A narrow sidebar holding only the name and contact cells, a wide lane, then the history."""
    side = [(14, 230, "Quentin", 24), (14, 252, "Vaillancourt", 24), (14, 280, "Software Engineer", 14),
            (40, 305, "3 March 1990"), (40, 325, "Lyon, France"), (40, 345, "+33 600 000 000"),
            (40, 365, "qv@example.org"), (40, 385, "/in/qvaill")]
    main = [(210, 20, "About me", 17, True)]
    y = 45
    for _ in range(22):
        main.append((210, y, "Engineer who enjoys building reliable systems and teaching others about them."))
        y += 12
    main.append((210, y + 6, "Experience", 17, True))
    y += 34
    roles = [("since May 2023", "Brindlecorp", "Porto – Portugal", "Software Engineer. Design of the Quokka framework:"),
             ("Mar 2021 - May 2023", "Halvard Systems (Internship)", "Braga – Portugal", "Data Engineer consultant.")]
    for dates, firm, place, first in roles:
        main += [(210, y, dates), (330, y, firm), (520, y, place, 8), (330, y + 12, first)]
        y += 24
        for _ in range(6):
            main.append((345, y, "• Kept the build green and the release notes short for the whole team"))
            y += 12
        y += 12
    return side + main


def test_contact_only_sidebar_is_read_as_its_own_column(tmp_path):
    doc, cv = _cv(tmp_path, _contact_sidebar_page())
    assert cv.name == "Quentin Vaillancourt"
    assert not any("Quentin" in ln.text and "\t" in ln.text for ln in doc.lines)  # never merged into a row
    assert [e.company for e in cv.experiences] == ["Brindlecorp", "Halvard Systems"]


def test_place_dash_country_cell_is_a_location_and_title_sentence_is_cut(tmp_path):
    _, cv = _cv(tmp_path, _contact_sidebar_page())
    first, second = cv.experiences
    assert first.location == "Porto, Portugal" and first.title == "Software Engineer" and first.is_current
    assert second.location == "Braga, Portugal" and second.title == "Data Engineer consultant"


def test_trailing_conjunction_is_a_word_not_a_letter():
    assert not is_body_line("Data Engineer consultant.", "Feb 2022 - May 2023\tAcme\tTorino – Italy")
    assert is_body_line("Lab", "worked with Acme and")


def test_end_date_wrapped_out_of_a_narrow_date_column(tmp_path):
    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Experience", 14, True)]
    y = 75
    for start, end, title, firm in (("03.2018 –", "– present", "Team Leader", "Brindlecorp"),
                                    ("12.2014 –", "– 02.2018", "Android Developer", "Halvard Systems")):
        items += [(40, y, start, 8), (110, y, title), (300, y, firm),
                  (40, y + 12, end), (110, y + 12, "Managing a small team building a video service for phones.")]
        y += 40
    _, cv = _cv(tmp_path, items)
    (lead, dev) = cv.experiences
    assert (lead.start, lead.end, lead.is_current) == ("2018-03", None, True)
    assert (dev.start, dev.end, dev.is_current) == ("2014-12", "2018-02", False)
    assert [lead.company, dev.company] == ["Brindlecorp", "Halvard Systems"]


def test_small_caps_i_and_hyphen_lookalikes_are_folded():
    from cvrag_desktop.ingestion.read.textclean import clean_text

    assert clean_text("DATA ENGiNEER · STATiSTiCiAN") == "DATA ENGINEER · STATISTICIAN"
    assert clean_text("MSC iN APPLIED STATISTICS") == "MSC IN APPLIED STATISTICS"
    assert clean_text("Senior iOS Developer") == "Senior iOS Developer"  # a real lowercase i stays
    assert clean_text("March 2021 \u2011 today") == "March 2021 - today"


def test_joined_heading_is_the_first_section_it_names():
    from cvrag_desktop.ingestion.layout.sections import lexicon_section

    assert lexicon_section("EXPERIENCE & RELEVANT PROJECTS", partial=True) == "experience"
    assert lexicon_section("Education and Certificates", partial=True) == "education"


def test_a_second_dated_term_of_the_same_role_keeps_its_title_and_employer(tmp_path):
    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Experience", 14, True),
             (40, 75, "Brindlecorp | Teaching Assistant", 11, True), (40, 88, "Mar 2012 – Jul 2012 | Denver, CO"),
             (55, 101, "• Algorithms and programming labs for first-year students"),
             (40, 114, "Aug 2012 – Dec 2012 | Denver, CO"),
             (55, 127, "• Computer organisation and assembly language labs")]
    _, cv = _cv(tmp_path, items)
    assert [(e.title, e.company, e.start) for e in cv.experiences] == [
        ("Teaching Assistant", "Brindlecorp", "2012-03"), ("Teaching Assistant", "Brindlecorp", "2012-08")]


def test_year_then_month_name_is_a_date():
    from cvrag_desktop.ingestion.fields.dates import find_date_ranges

    (r,) = find_date_ranges("2021, septembre - 2024, février")
    assert (r.start, r.end) == ("2021-09", "2024-02")
    (r,) = find_date_ranges("2019 - May 2020")
    assert (r.start, r.end) == ("2019", "2020-05")


def test_unbulleted_list_items_and_tool_lines_stay_in_their_role(tmp_path):
    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Experience", 14, True)]
    y = 75
    for title, firm, dates in (("Platform Engineer", "Brindlecorp", "2022, mars - 2024, février"),
                               ("Cloud Architect", "Halvard Systems", "2019, juin - 2022, février")):
        items += [(40, y, f"{title} — {firm}"), (330, y, dates), (40, y + 12, "Lyon, France"),
                  (40, y + 24, "Built the internal platform that provisions databases and pipelines."),
                  (50, y + 38, "Development of the provisioning operator"),  # bullets drawn as graphics
                  (50, y + 50, "Deployment with Argo CD"),
                  (40, y + 62, "Kubernetes, Terraform, Python, Docker, Ansible", 8)]
        y += 90
    _, cv = _cv(tmp_path, items)
    assert [(e.title, e.company, e.start, e.end) for e in cv.experiences] == [
        ("Platform Engineer", "Brindlecorp", "2022-03", "2024-02"),
        ("Cloud Architect", "Halvard Systems", "2019-06", "2022-02")]


def test_company_description_lines_are_not_employers(tmp_path):
    from cvrag_desktop.ingestion.fields.entries import company_blurb

    assert company_blurb("Logistics company with about 2,500 employees")
    assert company_blurb("Mid-sized insurance business")
    assert company_blurb("Start-up del sector turismo")
    assert not company_blurb("Global Business Group")  # a name, not a description
    assert not company_blurb("Brindlecorp")
    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Experience", 14, True)]
    y = 75
    for title, firm, blurb, dates in (("Lead Data Engineer", "Brindlecorp", "Retail company with about 900 employees",
                                       "06/2021 — Present"),
                                      ("Data Engineer", "Halvard", "Mid-sized travel business", "01/2018 — 05/2021")):
        items += [(40, y, f"{title}, {firm}"), (400, y, dates), (46, y + 13, blurb),
                  (50, y + 26, "• Moved the nightly batch jobs to a streaming pipeline.")]
        y += 50
    _, cv = _cv(tmp_path, items)
    assert [(e.title, e.company) for e in cv.experiences] == [("Lead Data Engineer", "Brindlecorp"),
                                                              ("Data Engineer", "Halvard")]


def test_degree_at_institution_and_a_degree_wrapped_after_its_preposition(tmp_path):
    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Education", 14, True),
             (40, 75, "2019 – 2023 BA Mathematics @ University of Leeds"),
             (40, 95, "2015 – 2019 Laurea triennale in"), (40, 108, "Informatica @ Università di Pisa")]
    _, cv = _cv(tmp_path, items)
    assert [(e.degree, e.institution) for e in cv.education] == [
        ("BA Mathematics", "University of Leeds"), ("Laurea triennale in Informatica", "Università di Pisa")]


def test_year_wrapped_after_its_month_and_a_legal_form_after_a_dash(tmp_path):
    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Experience", 14, True),
             (40, 75, "Systems Administrator", 11, True), (40, 89, "Brindle Lima - ME, Recife · Desde septiembre"),
             (40, 102, "2025"), (46, 116, "• Automated the patching of 300 servers.")]
    _, cv = _cv(tmp_path, items)
    (role,) = cv.experiences
    assert (role.title, role.company, role.start, role.is_current) == (
        "Systems Administrator", "Brindle Lima - ME", "2025-09", True)


def test_role_header_flattened_into_one_run_of_words(tmp_path):
    from cvrag_desktop.ingestion.fields.role_text import split_flat_header as _split_flat_header

    assert _split_flat_header("Software Engineer Brindlecorp Mountain View, CA") == (
        "Software Engineer", "Brindlecorp", "Mountain View, CA")
    assert _split_flat_header("Brindlecorp, Mountain View, CA") is None  # no title first: not this shape
    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Work Experience", 14, True),
             (40, 75, "Data Engineer Brindle Health Group Lyon, France Sep. 2021 - Present", 9),
             (40, 88, "Built the reporting warehouse used by every clinic of the group, from ingestion to the "
                      "dashboards.", 9),
             (40, 101, "Business Analyst Halvard Systems Madrid, Spain Jan. 2018 - Aug. 2021", 9),
             (40, 114, "Modelled the claims process with the finance team and cut the monthly close by two "
                       "days.", 9)]
    _, cv = _cv(tmp_path, items)
    assert [(e.title, e.company, e.location, e.is_current) for e in cv.experiences] == [
        ("Data Engineer", "Brindle Health Group", "Lyon, France", True),
        ("Business Analyst", "Halvard Systems", "Madrid, Spain", False)]


def test_main_column_headings_in_their_own_style_are_learned(tmp_path):
    side = [(30, 40, "Contact", 14, True), (30, 60, "dana@example.org"), (30, 75, "+44 20 7946 0000"),
            (30, 100, "Languages", 14, True), (30, 120, "English (native)"), (30, 135, "Spanish (B2)"),
            (30, 160, "Skills", 14, True), (30, 180, "Python"), (30, 195, "SQL"), (30, 210, "Tableau"),
            (30, 235, "Interests", 14, True), (30, 255, "Chess")]
    main = [(200, 20, "Dana Okonkwo", 24), (200, 60, "Education", 17, True),
            (200, 85, "2010–2014"), (260, 85, "BSc Statistics, University of Leeds"),
            (200, 110, "Experience", 17, True),
            (200, 135, "2016–Now"), (260, 135, "Data Analyst"), (400, 135, "Brindlecorp"),
            (230, 150, "Built the weekly sales model and its dashboards for the regional teams."),
            (200, 175, "Grants and Funding", 17, True),
            (200, 200, "2015"), (260, 200, "Travel Grant"), (400, 200, "Royal Statistical Society"),
            (230, 215, "Funded a visit to a summer school on Bayesian methods in Oslo."),
            (200, 240, "2013"), (260, 240, "Undergraduate Prize"), (400, 240, "University of Leeds"),
            (230, 255, "Awarded to the best final-year project of the department that year.")]
    side = [(x, y + 7, *rest) for x, y, *rest in side]  # sidebar rows never share a baseline with the main column
    _, cv = _cv(tmp_path, side + main)
    assert [e.company for e in cv.experiences] == ["Brindlecorp"]  # the grants are not roles


def test_headline_under_a_name_printed_without_its_space(tmp_path):
    items = [(170, 30, ". DanaOkonkwo .", 36), (190, 75, "MSc Student & Data Analyst", 14),
             (170, 160, "Nome Completo Dana Maria Okonkwo"), (170, 185, "Email dana@example.org")]
    _, cv = _cv(tmp_path, items)
    assert cv.headline == "MSc Student & Data Analyst"


def test_an_end_left_open_with_dots_is_ongoing():
    from cvrag_desktop.ingestion.fields.dates import find_date_ranges

    (r,) = find_date_ranges("03/2016 - ... Doctoral researcher")
    assert (r.start, r.end, r.is_current, r.open_ended) == ("2016-03", None, True, False)
    (r,) = find_date_ranges("2019 – … Research Engineer")
    assert r.is_current


def test_honours_are_not_the_degree_and_the_field_on_the_next_line_is(tmp_path):
    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Education", 14, True),
             (40, 75, "2014–2016"), (110, 75, "M.Sc. summa cum laude"), (330, 75, "Example Institute of Marine Science"),
             (110, 88, "Marine biology"), (110, 101, "Ecology and fisheries"),
             (40, 121, "2011–2014"), (110, 121, "B.Sc. with distinction"), (330, 121, "University of Leeds"),
             (110, 134, "Biology")]
    _, cv = _cv(tmp_path, items)
    assert [(e.degree, e.institution) for e in cv.education] == [
        ("M.Sc. in Marine biology", "Example Institute of Marine Science"), ("B.Sc. in Biology", "University of Leeds")]


def test_right_aligned_sidebar_with_headings_is_a_column_not_table_cells(tmp_path):
    side, y = [], 86  # the sidebar shares the main column's pitch: about half its rows share a baseline by chance
    for head, rows in (("Contacts", ["dana@example.org", "dana.example.org", "github/danaok"]),
                       ("Languages", ["Portuguese", "English (C1)"]),
                       ("Skills", ["Go, Rust", "Elixir, Erlang", "Phoenix", "Databases", "Make, Zsh"])):
        side.append((150, y, head, 10, True, "right"))
        y += 12
        for n, r in enumerate(rows):
            side.append((150, y + (0 if n % 2 else 6), r, 10, False, "right"))
            y += 12
        y += 12
    main = [(175, 20, "Dana Okonkwo", 30), (175, 60, "Education", 17)]
    y = 86
    for years, degree, school in (("2013-2015", "Mestrado em Ciência de Dados", "Universidade de Exemplo"),
                                  ("2010-2013", "Licenciatura em Matemática", "Universidade de Exemplo")):
        main += [(175, y, years), (235, y, degree), (570, y, school, 8, False, "right")]
        for k in range(1, 8):
            main.append((235, y + 12 * k, "Programming, algorithms, operating systems and networks"))
        y += 96
    main.append((175, y, "Experience", 17))
    main += [(175, y + 26, "2015-2019"), (235, y + 26, "Software Engineer"), (570, y + 26, "Brindlecorp", 8, False, "right")]
    doc, cv = _cv(tmp_path, side + main)
    assert not any("Elixir, Erlang" in ln.text and "\t" in ln.text for ln in doc.lines)  # never merged into a main row
    assert [e.degree for e in cv.education] == ["Mestrado em Ciência de Dados",
                                                 "Licenciatura em Matemática"]


def test_thesis_lines_and_places_are_not_degrees(tmp_path):
    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Education", 14, True),
             (40, 75, "2012–2014"), (110, 75, "MSc Physics, University of Bonn"),
             (110, 88, "Master Thesis: Ranking sensor faults"),
             (110, 101, "In the master thesis a traffic simulation was developed"),
             (40, 121, "2008–2012"), (110, 121, "BA Economics, Harvard University"), (330, 121, "Cambridge, MA")]
    _, cv = _cv(tmp_path, items)
    assert cv.degrees == ["MSc Physics", "BA Economics"]


def test_only_the_candidates_own_email_addresses(tmp_path):
    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 45, "dana.okonkwo@brindle."), (40, 58, "org"),
             (40, 71, "Mastodon @dana@social.example.org"),
             (40, 100, "Experience", 14, True),
             (40, 125, "2016 – 2019"), (120, 125, "Halvard Systems - Ref: lee.chan@halvard.example"),
             (40, 160, "References", 14, True), (40, 185, "Pat Morgan, Head of Data"),
             (40, 198, "Email: pat.morgan@brindle.example")]
    _, cv = _cv(tmp_path, items)
    assert cv.emails == ["dana.okonkwo@brindle.org"]


def test_chinese_role_headers_and_ranges():
    from cvrag_desktop.ingestion.fields.dates import find_date_ranges
    from cvrag_desktop.ingestion.fields.entries import RawEntry
    from cvrag_desktop.ingestion.fields.history import build_experience
    from cvrag_desktop.ingestion.layout.reading_order import TextLine

    (r,) = find_date_ranges("2016.10 至 2019.03 示例大学")
    assert (r.start, r.end) == ("2016-10", "2019-03")
    line = TextLine("示例信息科技有限公司 - 后端研发（2021/05 - 2025/04）:", 0, (0, 0, 400, 10), 10.0, True)
    d = find_date_ranges(line.text)[0]
    exp, _ = build_experience([line], RawEntry(header=[0], dates=d, date_line=0))
    assert (exp.title, exp.company, exp.start, exp.end) == ("后端研发", "示例信息科技有限公司", "2021-05", "2025-04")


def test_a_subject_printed_before_its_school_is_the_degree(tmp_path):
    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Education", 14, True),
             (40, 75, "2018-2021"), (40, 88, "Business Administration; Example Polytechnic University"),
             (40, 101, "Main courses: strategy, accounting")]
    _, cv = _cv(tmp_path, items)
    assert [(e.degree, e.institution) for e in cv.education] == [
        ("Business Administration", "Example Polytechnic University")]


def test_list_items_ending_in_semicolons_are_body_lines():
    assert is_body_line("Billing API integration;", "Software Engineer at Brindlecorp (2019)")
    assert is_body_line("Release planning and estimates;", None)
    assert not is_body_line("Software Engineer at Brindlecorp (2019)", "Deployed for Android and iOS.")


def test_a_tools_line_and_a_lowercase_note_are_never_the_employer(tmp_path):
    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Expérience", 14, True),
             (40, 75, "Depuis 2015 Chef de projet"), (330, 75, "Brindlecorp"),
             (100, 88, "Refonte du site de réservation."),
             (100, 101, "Technologies : Kotlin 1.9, Ktor 2, Vue 3, Gitea, Drone,"),
             (100, 114, "Redis, OpenSearch, SQLite."),
             (40, 134, "2008-2009 Stage, suivi d’un contrat de 4 mois"), (330, 134, "Halvard"),
             (100, 147, "Maintenance d’un outil interne.")]
    _, cv = _cv(tmp_path, items)
    assert [e.company for e in cv.experiences] == ["Brindlecorp", "Halvard"]


def test_place_in_brackets_and_now_words(tmp_path):
    from cvrag_desktop.ingestion.fields.cells import split_commas

    assert split_commas("Brindlecorp (Austin, TX), Research Collaborator") == [
        "Brindlecorp (Austin, TX)", "Research Collaborator"]
    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Experiencia", 14, True),
             (40, 75, "2019 - ahora Ingeniera de Software"), (40, 88, "Brindlecorp (Sevilla, España)"),
             (40, 108, "Research Collaborator | Open Data Lab"), (330, 108, "Oct 2017 – Jan 2019")]
    _, cv = _cv(tmp_path, items)
    assert [(e.title, e.company, e.is_current) for e in cv.experiences] == [
        ("Ingeniera de Software", "Brindlecorp", True), ("Research Collaborator", "Open Data Lab", False)]
    assert cv.experiences[0].location == "Sevilla, España"


def test_markdown_style_dates_course_codes_and_notes():
    from cvrag_desktop.ingestion.fields.dates import find_date_ranges
    from cvrag_desktop.ingestion.fields.entries import _trim_cell

    (r,) = find_date_ranges("2018--2022 : Teaching Assistant at Example University")
    assert (r.start, r.end) == ("2018", "2022")
    assert find_date_ranges("PHY-2019 Stars and galaxies") == []  # a course code, not a year
    assert _trim_cell("(3 months) : Summer intern") == "Summer intern"


def test_no_ongoing_role_and_no_headline_means_no_current_title():
    from cvrag_desktop.domain import Experience, NormalizedCV

    ended = [Experience(title="Data Analyst", company="Brindlecorp", start="2019-01", end="2023-06")]
    assert NormalizedCV(name="Dana Okonkwo", experiences=ended).with_derived().current_title is None
    assert NormalizedCV(name="Dana Okonkwo", headline="Analyst", experiences=ended).with_derived().current_title == "Analyst"
    ongoing = [Experience(title="Lead Analyst", company="Halvard", start="2023-07", is_current=True), *ended]
    assert NormalizedCV(name="Dana Okonkwo", experiences=ongoing).with_derived().current_title == "Lead Analyst"


def test_a_headline_left_in_a_markdown_blockquote_by_a_converter():
    from cvrag_desktop.ingestion.fields.identity.headline import find_headline
    from cvrag_desktop.ingestion.fields.identity.names import find_name
    from tests.support.minipdf import lines_doc

    doc = lines_doc([("Maren Holt", 16.0), ("> Doctoral researcher > > Doctoral researcher at an example lab", 10.0),
                     ("maren@example.org", 10.0)])
    hit = find_headline(doc, find_name(doc))
    assert hit is not None and hit.value == "Doctoral researcher"


def test_a_city_printed_after_a_cjk_company_word_is_not_part_of_the_firm():
    from cvrag_desktop.ingestion.fields.history import _without_cjk_city

    assert _without_cjk_city("示例科技公司上海") == "示例科技公司"
    assert _without_cjk_city("上海银行") == "上海银行"  # the city is the firm's own name
    assert _without_cjk_city("株式会社東京") == "株式会社東京"  # a Japanese prefix form
    assert _without_cjk_city("Example Ltd London") == "Example Ltd London"
