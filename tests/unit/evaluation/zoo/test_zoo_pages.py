"""The zoo's own HTML pages: every printed value, escaped, the photo inline, nothing fetched, reproducible."""

from __future__ import annotations

from html import escape

from cvrag_desktop.evaluation.zoo.families import HTML_DESIGNS, family
from cvrag_desktop.evaluation.zoo.pages import build_page
from cvrag_desktop.evaluation.zoo.plan import plan_family, printed_record


def test_every_design_prints_every_value_and_fetches_nothing():
    doc = plan_family(family("html-sidebar"), 17, 1)[0]
    pr = printed_record(doc.draft)
    for design in HTML_DESIGNS:
        page = build_page(design, doc.draft, pr)
        assert page == build_page(design, doc.draft, pr)
        values = [pr["name"], *(c["value"] for c in pr["contact"]), *pr["skills"], *pr["languages"]]
        values += [x for r in pr["roles"] for x in (r["title"], r["period"], *r["bullets"])]
        values += [x for e in pr["education"] for x in (e["degree"], e["institution"], e["period"])]
        assert all(escape(v) in page for v in values if v), design
        assert pr["headings"]["experience"] in page or escape(pr["headings"]["experience"]) in page
        assert "http://" not in page and "https://" not in page and "<script" not in page
        if design != "timeline":
            assert 'src="data:image/png;base64,' in page


def test_markup_in_a_value_is_printed_as_text():
    doc = plan_family(family("html-cards"), 17, 1)[0]
    pr = printed_record(doc.draft)
    pr["name"] = "Ann <b>& Co</b>"
    page = build_page("cards", doc.draft, pr)
    assert "Ann &lt;b&gt;&amp; Co&lt;/b&gt;" in page and "<b>& Co</b>" not in page
