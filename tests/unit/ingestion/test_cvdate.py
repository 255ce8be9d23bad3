"""The CV's own date: found on "updated"/signature lines, and the reference for "present"."""

from __future__ import annotations

import datetime as dt

from cvrag_desktop.domain import Experience, NormalizedCV
from cvrag_desktop.ingestion.cvdate import find_cv_date

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
