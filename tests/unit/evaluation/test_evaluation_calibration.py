"""The calibration harness: every scored value's mark, cues and right/wrong, per source and field.

The documents are the invented minimal PDF of the confidence tests, in a two-family zoo the test
writes itself (one open family, one held out); no real CV and no built zoo.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cvrag_desktop.evaluation import calibration as cal
from tests.support.confidence_docs import write_page

TRUTH = {"name": "Marisol Quenby", "emails": ["m.quenby@example.org"],
         "experiences": [{"title": "Zephyr Tinkerer", "company": "Okapi Marmalade", "start": "2016-03",
                          "end": "2019-12"},
                         {"title": "Senior Software Engineer", "company": "Brindle Systems GmbH",
                          "start": "2020-01", "is_current": True}],
         "current_title": "Senior Software Engineer",
         "education": [{"degree": "Master of Science", "field": "Computer Science",
                        "institution": "University of Tarnow"}]}


@pytest.fixture(scope="module")
def zoo(tmp_path_factory) -> Path:
    """A built zoo of two one-document families: ``fam-open`` and the held-out ``fam-held``."""
    root = tmp_path_factory.mktemp("zoo")
    pdf = write_page(root / "src")
    fams = []
    for name, held in (("fam-open", False), ("fam-held", True)):
        docs = root / "docs" / name
        docs.mkdir(parents=True)
        shutil.copy(pdf, docs / f"{name}-0.pdf")
        truth = {**TRUTH, "zoo": {"family": name, "held_out": held, "not_printed": []}}
        (docs / f"{name}-0.json").write_text(json.dumps(truth), encoding="utf-8")
        fams.append({"name": name, "engine": "factory", "held_out": held})
    (root / "manifest.json").write_text(json.dumps({"families": fams}), encoding="utf-8")
    return root


def test_every_scored_value_is_recorded_with_its_cues_and_whether_it_is_right(zoo: Path) -> None:
    records = cal.collect(cal.zoo_tasks(zoo, None, False), [])
    assert {r["family"] for r in records} == {"fam-open"}  # the held-out family is not read
    by_field = {}
    for r in records:
        by_field.setdefault(r["field"], []).append(r)
    assert set(by_field) == set(cal.SCORED)
    assert all(r["right"] for r in records)  # every value the page prints is its truth
    title = next(r for r in by_field["title"] if "title_words" in r["cues"])
    assert not title["low"] and title["score"] >= 0.5 and "near_dates" in title["cues"]
    doubtful = [r for r in by_field["title"] if r["low"]]
    assert doubtful and "title_words" not in doubtful[0]["cues"]  # the second role: no job-title words
    text = json.dumps(records)
    assert "Quenby" not in text and "Okapi" not in text  # rows hold no value's text


def test_reliability_counts_unmarked_and_marked_values_per_source_and_field() -> None:
    rows = [{"source": "s", "field": "title", "low": False, "right": True}] * 19 + [
        {"source": "s", "field": "title", "low": False, "right": False},
        {"source": "s", "field": "title", "low": True, "right": False},
        {"source": "s", "field": "title", "low": True, "right": True}]
    cells = cal.reliability(rows)
    c = cells["s"]["title"]
    assert (c.unmarked_right, c.unmarked_wrong, c.marked_right, c.marked_wrong) == (19, 1, 1, 1)
    assert cells["s"]["all"].values == 22
    text = cal.table(cells)
    line = next(ln for ln in text.splitlines() if ln.startswith("s ") and "title" in ln)
    assert "0.950 of 20" in line and "0.500 of 2" in line and "1/2" in line and "1/20" in line
    assert "< 0.95" not in line
    stricter = cal.reliability(rows, low_of=lambda r: True)["s"]["title"]
    assert stricter.unmarked_right + stricter.unmarked_wrong == 0


def test_the_command_writes_records_and_reads_them_back(zoo: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "rows.jsonl"
    assert cal.main(["--zoo", str(zoo), "--records", str(out)]) == 0
    first = capsys.readouterr().out
    assert "zoo (open)" in first and "unmarked right" in first
    assert cal.main(["--from-records", str(out)]) == 0
    assert capsys.readouterr().out == first


def test_a_real_folder_is_read_through_its_labels(tmp_path: Path) -> None:
    folder = tmp_path / "real"
    write_page(folder / "pdf")
    label = {"file": "quenby.pdf", "layout": "plain", "name": "Marisol Quenby",
             "job_titles": ["Senior Software Engineer"], "companies": ["Brindle Systems GmbH"],
             "degrees": ["Master of Science in Computer Science"], "institutions": [], "current_title": None}
    image = {**label, "file": "scan.pdf", "layout": "image-only"}
    (folder / "labels.json").write_text(json.dumps([label, image]), encoding="utf-8")
    records = cal.collect([], cal.real_tasks(folder))
    assert {r["source"] for r in records} == {"real"}
    degree = next(r for r in records if r["field"] == "degrees")
    assert degree["right"]  # the label prints the degree with its field joined
    wrong = [r for r in records if not r["right"]]
    assert {r["field"] for r in wrong} >= {"institutions"}  # not in the label: counted wrong


def test_usage_errors_exit_2(tmp_path: Path, capsys) -> None:
    assert cal.main(["--dataset", str(tmp_path)]) == 2
    assert "has no labels.json" in capsys.readouterr().err
    assert cal.main(["--zoo", str(tmp_path)]) == 2
    assert "not a built zoo" in capsys.readouterr().err
