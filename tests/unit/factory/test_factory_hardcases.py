"""Hard cases show up in the rendered text while the ground truth stays canonical."""

from __future__ import annotations

import json
import re
from collections import Counter

import pymupdf

from cvrag_desktop.factory.hardcases import HardCaseConfig, near_duplicate_name, strip_accents
from cvrag_desktop.factory.pipeline import generate_batch


def _pdf_text(path) -> str:
    with pymupdf.open(path) as doc:
        return "\n".join(page.get_text() for page in doc)


def test_batch_has_every_hard_case_and_truth_stays_canonical(tmp_path):
    report = generate_batch(80, 21, tmp_path, locale="mixed")
    assert len(report.generated) == 80
    truths = [json.loads((tmp_path / f"{c}.json").read_text()) for c in report.generated]
    seen = Counter(c for t in truths for c in t["hard_cases"])
    for case in (
        "synonyms",
        "foreign_headings",
        "mixed_dates",
        "shared_employer",
        "updated_cv",
        "outdated_cv",
        "near_duplicate_name",
    ):
        assert seen[case] > 0, case
    for t in truths:
        text = _pdf_text(tmp_path / f"{t['cv_id']}.pdf")
        flat = re.sub(r"\s+", " ", text)
        for skill, printed in zip(t["skills"], t["rendered_skills"], strict=True):
            if skill != printed:  # the synonym is printed, the canonical name is the truth
                assert printed in flat
        by_id = {x["cv_id"]: x for x in truths}
        if "updated_cv" in t["hard_cases"]:
            old = by_id[t["related_to"]]
            assert old["person_id"] == t["person_id"] and old["emails"] == t["emails"]
            assert old["as_of"] < t["as_of"]
            assert len(t["experiences"]) >= len(old["experiences"])
        if "near_duplicate_name" in t["hard_cases"]:
            other = by_id[t["related_to"]]
            assert other["person_id"] != t["person_id"] and other["emails"] != t["emails"]
            assert other["name"] != t["name"]


def test_dates_are_printed_in_many_styles(tmp_path):
    report = generate_batch(40, 5, tmp_path, locale="de_DE,es_ES,en_US", layout="classic")
    text = "\n".join(_pdf_text(tmp_path / f"{c}.pdf") for c in report.generated)
    assert re.search(r"\b\d{2}/\d{4}\b", text)  # 03/2019
    assert re.search(r"\b\d{2}\.\d{4}\b", text)  # 03.2019
    assert re.search(r"\b(seit|Desde|Since) ", text)  # seit 2020
    assert re.search(r"(January|March|marzo|März|abril|Oktober|September|diciembre) \d{4}", text)
    assert re.search(r"(actualidad|heute|Present|present|aktuell|presente)", text)


def test_hard_cases_can_be_switched_off(tmp_path):
    report = generate_batch(30, 5, tmp_path, hard_cases=False)
    truths = [json.loads((tmp_path / f"{c}.json").read_text()) for c in report.generated]
    assert all(t["hard_cases"] == [] for t in truths)
    assert all(t["skills"] == t["rendered_skills"] for t in truths)
    assert HardCaseConfig.off().synonyms == 0


def test_near_duplicate_names():
    import random

    rng = random.Random(1)
    for _ in range(20):
        variant = near_duplicate_name("José García López", "Pérez", rng)
        assert variant != "José García López"
        assert "Garc" in variant or "Pérez" in variant
    assert strip_accents("Núñez Güell") == "Nunez Guell"
