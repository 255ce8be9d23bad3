"""Extraction quality on the labelled real CVs (no LLM) must meet the issue's targets."""

from __future__ import annotations

from cvrag_desktop.evaluation.real_cvs import evaluate_folder

TARGETS = {"name": 0.90, "email": 0.95, "current_title": 0.80, "employers": 0.80, "degrees": 0.80, "sections": 0.85}


def test_extraction_meets_targets(real_cvs_dir):
    report = evaluate_folder(real_cvs_dir)
    print(report.table())
    failing = {f: round(report.rate(f), 3) for f, t in TARGETS.items() if report.rate(f) < t}
    assert not failing, f"below target: {failing}\n{report.table()}"
    assert report.totals["name"][1] >= 15  # really measured the whole folder
