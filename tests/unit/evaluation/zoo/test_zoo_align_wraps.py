"""Alignment of values a template breaks or repeats: wrapped names and entry values, a name after its
Europass label, one title printed for two entries, an entry header never taken for the headline."""

from __future__ import annotations

import copy

from cvrag_desktop.evaluation.zoo import align
from cvrag_desktop.evaluation.zoo.families import family
from cvrag_desktop.evaluation.zoo.plan import plan_family, truth_record
from cvrag_desktop.ingestion.layout.textline import TextLine
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc


def _doc(texts: list[str]) -> ExtractedDoc:
    lines = [TextLine(t, 0, (50, 50 + 14 * k, 500, 62 + 14 * k), 10, False) for k, t in enumerate(texts)]
    return ExtractedDoc(lines=lines, page_count=1, method="test")


def _truth(name: str = "Marta Olivares Quintana") -> dict:
    doc = plan_family(family("fx-classic"), 21, 1)[0]
    truth = copy.deepcopy(truth_record(doc, 21))
    pr = truth["zoo"]["printed"]
    pr["name"], truth["name"] = name, name
    return truth


def test_a_name_wrapped_over_two_or_three_lines_is_the_name():
    truth = _truth()
    lines = align.label_lines(_doc(["Marta", "Olivares", "Quintana", "Work"]), truth)
    assert [ln.role for ln in lines[:3]] == [align.NAME] * 3
    lines = align.label_lines(_doc(["Marta Olivares", "Quintana"]), truth)
    assert [ln.role for ln in lines] == [align.NAME, align.NAME]


def test_a_name_after_the_europass_label_or_beside_the_city_is_the_name():
    truth = _truth()
    lines = align.label_lines(_doc(["PERSONAL INFORMATION Marta Olivares Quintana"]), truth)
    assert lines[0].role == align.NAME
    lines = align.label_lines(_doc(["ANGABEN ZUR PERSON Marta Olivares Quintana"]), truth)
    assert lines[0].role == align.NAME
    truth["zoo"]["printed"]["contact"].append({"label": "City", "value": "Piotrków Trybunalski Wielkopolski"})
    lines = align.label_lines(_doc(["Piotrków Trybunalski Wielkopolski Marta Olivares Quintana"]), truth)  # moderncv-fancy
    assert lines[0].role == align.NAME
    truth["zoo"]["printed"]["contact"].append({"label": "Web", "value": "linkedin.com/in/marta-olivares-quintana"})
    lines = align.label_lines(_doc(["linkedin.com/in/marta-olivares-quintana"]), truth)
    assert lines[0].role == align.CONTACT  # a link spelling the name is a contact
    lines = align.label_lines(_doc(["Piotrków • marta@example.com • linkedin.com/in/marta-olivares-quintana"]), truth)
    assert lines[0].role != align.NAME  # a contact line whose link spells the name


def test_an_entry_value_wrapped_onto_the_next_line_labels_both_lines():
    truth = _truth()
    pr = truth["zoo"]["printed"]
    role = pr["roles"][0]
    role["company"] = "Inmobiliaria Valera y Asociados Costa S.L."
    pr["headline"] = ""
    k = 0 if not pr["newest_first"] else len(pr["roles"]) - 1
    ref = f"experiences[{k}]"
    exp = truth["experiences"][k]
    years = f"{exp['start'][:4]} – {(exp.get('end') or truth['as_of'])[:4]}"
    lines = align.label_lines(_doc([f"{role['title']}, Inmobiliaria Valera y\t{years}",
                                    "Asociados Costa S.L., Murcia."]), truth)
    assert {"field": align.EMPLOYER, "ref": ref} in lines[0].parts
    assert {"field": align.EMPLOYER, "ref": ref} in lines[1].parts and lines[1].role == align.EMPLOYER
    lines = align.label_lines(_doc([f"{role['title']}, Inmobiliaria Valera y Aso-\t{years}",
                                    "ciados Costa S.L., Murcia."]), truth)
    assert {"field": align.EMPLOYER, "ref": ref} in lines[1].parts


def test_one_title_printed_for_two_entries_goes_to_the_entry_whose_dates_the_line_prints():
    truth = _truth()
    pr = truth["zoo"]["printed"]
    exps = truth["experiences"]
    assert len(exps) >= 2
    for r in pr["roles"]:
        r["title"] = "Staff Engineer"
    for e in exps:
        e["title"] = "Staff Engineer"
    a, b = exps[0], exps[1]
    texts = [f"Staff Engineer\t{a['start'][:4]} – {(a.get('end') or truth['as_of'])[:4]}",
             f"Staff Engineer\t{b['start'][:4]} – {(b.get('end') or truth['as_of'])[:4]}"]
    if a["start"][:4] == b["start"][:4]:
        return  # the years cannot tell the entries apart in this draft
    lines = align.label_lines(_doc(texts), truth)
    for ln in lines:
        dates = {p["ref"] for p in ln.parts if p["field"] == align.DATES}
        titles = {p["ref"] for p in ln.parts if p["field"] == align.TITLE}
        assert titles and (not dates - {""} or titles == dates - {""}), ln.parts


def test_a_line_that_prints_an_entrys_dates_is_not_the_headline():
    truth = _truth()
    pr = truth["zoo"]["printed"]
    exp = truth["experiences"][-1]
    pr["headline"] = exp["title"]
    line = f"{exp['title']}\t{exp['start'][:4]} – {(exp.get('end') or truth['as_of'])[:4]}"
    lines = align.label_lines(_doc(["Marta Olivares Quintana", line]), truth)
    assert lines[1].role == align.TITLE and all(p["field"] != align.HEADLINE for p in lines[1].parts)
