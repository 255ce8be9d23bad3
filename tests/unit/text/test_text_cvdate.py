"""The CV's own date: found on "updated"/signature lines, and the reference for "present"."""

from __future__ import annotations

import datetime as dt

from cvrag_desktop.domain import Experience, NormalizedCV
from cvrag_desktop.text.cvdate import find_cv_date

TODAY = dt.date(2026, 11, 30)


def test_updated_lines_and_signatures_in_several_languages():
    assert find_cv_date(["Jo Park", "Last updated in Mar 2015"], TODAY)[0] == dt.date(2015, 3, 1)
    assert find_cv_date(["Stand: 05/2019"], TODAY)[0] == dt.date(2019, 5, 1)
    assert find_cv_date(["Hamburg, 12. Februar 2021"], TODAY)[0] == dt.date(2021, 2, 1)
    assert find_cv_date(["2018年 6月 5日現在"], TODAY)[0] == dt.date(2018, 6, 1)


def test_no_date_and_role_dates_are_not_the_cv_date():
    assert find_cv_date(["Data Engineer, Acme", "Mar 2015 – Present", "Python, SQL"], TODAY) is None
    assert find_cv_date(["Last updated in Mar 2031"], TODAY) is None  # a future date is a typo, not the CV's date


def test_present_means_the_cvs_own_date():
    role = Experience(title="Engineer", company="Acme", start="2014-01", is_current=True)
    old = NormalizedCV(experiences=[role], cv_date="2015-12").with_derived(TODAY)
    assert old.years_of_experience == 2.0  # not 12.9: the CV was written in 2015
    fresh = NormalizedCV(experiences=[role]).with_derived(TODAY)
    assert fresh.years_of_experience > 12


def test_file_creation_date_is_the_reference_when_nothing_is_printed(tmp_path):
    import datetime as dt

    from cvrag_desktop.ingestion.normalize import normalize_document
    from cvrag_desktop.ingestion.read.extract import extract_document
    from tests.support.minipdf import write_pdf

    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Experience", 14, True),
             (40, 75, "Jan 2014 – Present"), (180, 75, "Data Analyst"), (330, 75, "Brindlecorp"),
             (40, 90, "Cleaned and modelled the sales data of a small retailer.")]
    doc = extract_document(write_pdf(tmp_path / "old.pdf", [items], creation="2015-06-20"))
    cv, _ = normalize_document(doc, dt.date(2026, 11, 30))
    assert (cv.cv_date, cv.cv_date_source) == ("2015-06", "file")
    assert 1.0 <= cv.years_of_experience <= 1.6  # to mid-2015, not to 2026

    printed = [*items, (40, 120, "Last updated: March 2016")]
    doc = extract_document(write_pdf(tmp_path / "printed.pdf", [printed], creation="2015-06-20"))
    cv, _ = normalize_document(doc, dt.date(2026, 11, 30))
    assert (cv.cv_date, cv.cv_date_source) == ("2016-03", "printed")


def test_unbelievable_file_dates_are_ignored():
    import datetime as dt

    from cvrag_desktop.text.cvdate import file_date

    today = dt.date(2026, 11, 30)
    assert file_date("D:20190301120000+01'00'", today) == dt.date(2019, 3, 1)
    assert file_date("D:19800101000000-00'00'", today) is None  # a TeX engine's default
    assert file_date("D:20300101", today) is None  # a wrong clock
    assert file_date("garbage", today) is None and file_date(None, today) is None
    assert file_date(dt.datetime(2021, 5, 4, 10, 0), today) == dt.date(2021, 5, 4)


def test_a_file_date_older_than_the_cvs_own_dates_is_ignored(tmp_path):
    import datetime as dt

    from cvrag_desktop.ingestion.normalize import normalize_document
    from cvrag_desktop.ingestion.read.extract import extract_document
    from tests.support.minipdf import write_pdf

    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Experience", 14, True),
             (40, 75, "Jan 2020 – Present"), (180, 75, "Data Analyst"), (330, 75, "Brindlecorp"),
             (40, 90, "Cleaned and modelled the sales data of a small retailer.")]
    doc = extract_document(write_pdf(tmp_path / "stamped.pdf", [items], creation="2000-01-01"))  # a tool's fixed stamp
    cv, _ = normalize_document(doc, dt.date(2026, 11, 30))
    assert cv.cv_date is None and cv.years_of_experience > 6


def test_a_full_date_alone_in_a_footer_cell_is_the_cvs_date():
    import datetime as dt

    from cvrag_desktop.text.cvdate import find_date_stamp

    today = dt.date(2026, 11, 30)
    assert find_date_stamp(["JUNE 2, 2024\tDANA OKONKWO · CURRICULUM VITAE\t1"], today)[0] == dt.date(2024, 6, 1)
    assert find_date_stamp(["13.05.2024"], today)[0] == dt.date(2024, 5, 1)
    assert find_date_stamp(["12 March 1990"], today) is None  # a birth date, not a print date
    assert find_date_stamp(["Jan 2019 – Present"], today) is None  # a role's dates have no day


def test_a_date_stamp_older_than_the_roles_is_not_the_cvs_date(tmp_path):
    import datetime as dt

    from cvrag_desktop.ingestion.normalize import normalize_document
    from cvrag_desktop.ingestion.read.extract import extract_document
    from tests.support.minipdf import write_pdf

    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 50, "Experience", 14, True),
             (40, 75, "Jan 2022 – Present"), (180, 75, "Data Analyst"), (330, 75, "Brindlecorp"),
             (40, 90, "Cleaned and modelled the sales data of a small retailer."),
             (40, 120, "Certifications", 14, True), (40, 145, "Tableau Desktop Specialist"), (330, 145, "13.05.2021")]
    doc = extract_document(write_pdf(tmp_path / "cert.pdf", [items]))
    cv, _ = normalize_document(doc, dt.date(2026, 11, 30))
    assert cv.cv_date is None  # the certificate's day is older than the current role: not the CV's date


def test_the_latest_full_date_is_the_stamp_and_ordinals_are_read():
    import datetime as dt

    from cvrag_desktop.text.cvdate import find_date_stamp

    today = dt.date(2026, 11, 30)
    lines = ["•\t22/07/2024\tExample certification in workflow tools", "October 29th, 2024"]
    assert find_date_stamp(lines, today)[0] == dt.date(2024, 10, 1)  # a certificate's date precedes the CV's own


def test_a_running_footer_that_prints_the_date_dates_the_cv(tmp_path):
    from cvrag_desktop.ingestion.normalize import normalize_document
    from cvrag_desktop.ingestion.read.extract import extract_document
    from tests.support.minipdf import write_pdf

    footer = (200, 815, "LAST EDITED ON AUGUST 26, 2025", 8)
    page1 = [(40, 20, "Nell Arbury", 18, True), (40, 44, "nell@example.org"), (40, 70, "Experience", 14, True),
             (40, 95, "Backend Developer"), (400, 95, "October 2022 - today"), (40, 109, "Example Systems Ltd"),
             footer]
    page2 = [(40, 30, "Education", 14, True), (40, 55, "BSc Mathematics"), (40, 69, "University of Example"), footer]
    doc = extract_document(write_pdf(tmp_path / "cv.pdf", [page1, page2]))
    assert not any("EDITED" in ln.text for ln in doc.lines)  # still a running footer, not CV text
    cv, _ = normalize_document(doc)
    assert (cv.cv_date, cv.cv_date_source) == ("2025-08", "printed")
