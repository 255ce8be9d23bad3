"""Role-header classes of HTML-rendered two-column CVs, reproduced with minimal PDFs of our own text.

A firm's total time printed above its roles ("Firm — 2 yrs 3 mos"), "Title — Client <tab> dates"
headers with a three-letter client, a client wrapped onto its own "— Client" line, short tool lines
and prose wrapped after a preposition between roles, and a headline wrapped after "and".
"""

from __future__ import annotations

from cvrag_desktop.ingestion.layout.line_kinds import group_duration, tech_stack
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from tests.support.minipdf import write_pdf


def _page() -> list:
    side = [(20, 40, "Orla Penhallow", 18, True), (20, 66, "Builder of Platforms and"), (20, 79, "Reliable Clouds"),
            (20, 110, "orla@example.org", 8.8)]
    main = [(200, 40, "Experience", 14, True), (200, 64, "Kestrel Works — 2 yrs 3 mos", 8.6)]
    y = 80
    roles = [("Platform Engineer — Brightwater", "2023, March - 2024, June"),
             ("Cloud Data Ops — QXT", "2021, May - 2023, February"),
             ("Advisory on delivery practices", "2019, January - 2021, April")]
    for n, (head, dates) in enumerate(roles):
        main += [(205, y, head, 8.8), (560, y, dates, 8.8, False, "right")]
        y += 12
        if n == 2:
            main.append((205, y, "— Tallowmere Logistics", 8.8, True))
            y += 12
        main += [(205, y, "Lisbon, Portugal", 8.8),
                 (205, y + 12, "Building an internal platform so that developers can focus on the", 8.8),
                 (205, y + 24, "code they ship every week.", 8.8),
                 (215, y + 38, "Provisioning of databases with an operator", 8.8),
                 (215, y + 50, "Review of the delivery pipeline", 8.8),
                 (205, y + 63, "Linux, Terraform, Gitlab CI", 8.2)]
        y += 85
    return side + main


def test_grouped_roles_with_clients_and_tool_lines(tmp_path):
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [_page()])))
    assert [(e.title, e.company) for e in cv.experiences] == [
        ("Platform Engineer", "Brightwater"), ("Cloud Data Ops", "QXT"),
        ("Advisory on delivery practices", "Tallowmere Logistics")]
    assert cv.headline == "Builder of Platforms and Reliable Clouds"


def test_line_kinds_behind_the_grouped_roles():
    assert group_duration("Kestrel Works — 2 yrs 3 mos") and group_duration("Atelier Nord — 7 ans, 10 mois")
    assert not group_duration("Senior Engineer — Kestrel Works") and not group_duration("Python — 5 years experience")
    assert tech_stack("Linux, Terraform, Gitlab CI") and tech_stack("Linux, PHP, AWS (EC2, RDS, IAM), Docker")
    assert not tech_stack("Kestrel Works, Lisbon, Portugal")


def test_a_personal_project_among_the_roles_is_not_a_job(tmp_path):
    items = [(40, 20, "Tamsin Vor", 18, True), (40, 44, "tamsin@example.org"), (40, 70, "Experience", 14, True),
             (40, 95, "Example Labs Ltd", 12), (560, 95, "Mar 2015 – May 2015", 10, False, "right"),
             (40, 110, "Backend intern"), (44, 125, "• Wrote a cache layer"),
             (40, 150, "Tunnel Proxy", 12), (560, 150, "Jun 2014 – present", 10, False, "right"),
             (40, 165, "Golang, Linux"), (300, 165, "Personal project, with a friend"),
             (44, 180, "• Fixed a descriptor leak")]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [items])))
    assert [e.company for e in cv.experiences] == ["Example Labs Ltd"]
    assert cv.current_title is None


def test_timeline_firm_wrapped_after_at_and_a_one_column_page_after_a_sidebar(tmp_path):
    """"dates Title @ Firm" with the firm's end on the next line ("& Co. KG", "and Ortega", a comma list of
    partners), and page 2 in one column going on with the work history rather than the sidebar's section."""
    page1 = [(40, 20, "Rowan Tal", 18, True), (40, 44, "Mobile Developer"), (40, 70, "Employment History", 13, True),
             (40, 95, "03/2014 – 01/2016 Junior Developer @ Ferrand, Oakes"), (40, 109, "and Pell"),
             (44, 124, "• Shipped the first release of the field app"),
             (40, 145, "01/2016 – 08/2019 Online-Marketing-Manager @ Beier Kramer GmbH"), (40, 159, "& Co. KG"),
             (44, 174, "• Ran the spring campaign with a small team")]
    side = [(420, 95, "Technical Skills", 13, True)] + [(420, 120 + 16 * n, tool) for n, tool in enumerate(
        ["Kotlin", "Swift", "Flutter", "Objective-C", "Firebase", "GraphQL", "Jetpack Compose", "SwiftUI",
         "Fastlane", "Gradle", "Xcode", "Figma"])] + [(420, 330, "Languages", 13, True), (420, 355, "English (Native)"),
                                                      (420, 371, "Dutch (B2)")]
    for y in range(200, 760, 14):
        page1.append((44, y, "• Kept the release notes short and the build green for everyone"))
    page2 = [(40, 30, "02/2020 – now Senior Mobile Developer @ Quillon, Marsh"), (40, 44, "and Ortega"),
             (44, 59, "• Coordinated a team of twelve people across three departments")]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [page1 + side, page2])))
    assert [e.company for e in cv.experiences] == [
        "Ferrand, Oakes and Pell", "Beier Kramer GmbH & Co. KG", "Quillon, Marsh and Ortega"]
    assert cv.current_company == "Quillon, Marsh and Ortega"


def test_one_role_held_in_two_terms_counts_both(tmp_path):
    items = [(40, 20, "Ilka Brenner", 18, True), (40, 44, "ilka@example.org"), (40, 70, "Berufserfahrung", 14, True),
             (40, 95, "2003 – 2004 und 2006 – 2012"), (200, 95, "Tierarztpraxis Beispiel, Berlin"),
             (210, 110, "• Sprechstunde und Impfungen")]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [items])))
    assert [(e.company, e.start, e.end) for e in cv.experiences] == [
        ("Tierarztpraxis Beispiel", "2003", "2004"), ("Tierarztpraxis Beispiel", "2006", "2012")]


def test_the_current_role_is_the_job_when_a_research_section_also_has_an_ongoing_one(tmp_path):
    items = [(40, 20, "Wen Solace", 18, True), (40, 44, "wen@example.org"),
             (40, 70, "Research Experience", 14, True),
             (40, 95, "Research Fellow | Example Fellowship Programme"), (40, 109, "Jan 2026 – Present"),
             (44, 124, "• Studied cooperation between learning agents"),
             (40, 150, "Work Experience", 14, True),
             (40, 175, "Research Engineer | Example Governance Lab"), (40, 189, "Aug 2024 – Present"),
             (44, 204, "• Built the lab's data pipelines")]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [items])))
    assert cv.current_title == "Research Engineer"
    assert {e.title for e in cv.experiences} == {"Research Fellow", "Research Engineer"}


def test_a_narrow_date_column_wrapped_beside_its_role(tmp_path):
    """The date column's text wraps: "December 2023" / "– today" and "Since June" / "2024", with the
    role's header beside the first line and the employer's description beside the second."""
    items = [(40, 20, "Aldo Verri", 18, True), (40, 44, "aldo@example.org"), (40, 70, "Work Experience", 14, True),
             (57, 95, "December 2023"), (142, 95, "Mobile Engineer, Example Studio Ltd – Springfield"),
             (57, 109, "– today"), (142, 109, "Start-up in the healthcare sector"),
             (144, 124, "• Introduced a modular architecture for six squads"),
             (57, 150, "Since June"), (142, 150, "Backend Developer, Example Data s.r.l."),
             (57, 164, "2019"), (142, 164, "Mid-sized company in the media sector"),
             (144, 179, "• Ran the ingestion services")]
    cv, _ = normalize_document(extract_document(write_pdf(tmp_path / "cv.pdf", [items])))
    assert [(e.title, e.company, e.start, e.is_current) for e in cv.experiences] == [
        ("Mobile Engineer", "Example Studio Ltd", "2023-12", True),
        ("Backend Developer", "Example Data s.r.l.", "2019-06", True)]
