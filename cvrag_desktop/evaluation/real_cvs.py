"""Extraction quality on a labelled folder of real CVs (``labels.json``), no LLM.

Prints a per-field table: name, e-mail, current title, employer recall, degree
recall, canonical sections found. The same code runs on any folder with the same
label format, so held-out sets are measured identically.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from cvrag_desktop.domain import NormalizedCV
from cvrag_desktop.errors import CvragError
from cvrag_desktop.evaluation.matching import recall, same, similar
from cvrag_desktop.ingestion.extract import extract_document
from cvrag_desktop.ingestion.normalize import normalize_document

FIELDS = ("name", "email", "current_title", "employers", "degrees", "sections")


@dataclass
class EvalReport:
    """Per-field (hits, total) and per-file details."""

    totals: dict[str, list[int]] = field(default_factory=lambda: {f: [0, 0] for f in FIELDS})
    files: list[dict] = field(default_factory=list)

    def rate(self, f: str) -> float:
        """Share of hits for a field (1.0 when nothing was expected)."""
        hit, tot = self.totals[f]
        return hit / tot if tot else 1.0

    def table(self) -> str:
        """A printable table of the measured rates."""
        rows = [f"{'field':<15}{'hits':>6}{'total':>7}{'rate':>8}"]
        for f in FIELDS:
            hit, tot = self.totals[f]
            rows.append(f"{f:<15}{hit:>6}{tot:>7}{self.rate(f):>8.1%}")
        return "\n".join(rows)


def score_cv(cv: NormalizedCV, label: dict, report: EvalReport) -> dict:
    """Compare one extracted CV with its label, adding to the report's totals."""
    detail: dict = {"file": label["file"]}

    def add(f: str, hit: int, tot: int) -> None:
        report.totals[f][0] += hit
        report.totals[f][1] += tot
        detail[f] = f"{hit}/{tot}"

    if label.get("name"):
        add("name", int(same(cv.name, label["name"])), 1)
    if label.get("emails"):
        add("email", int(all(any(same(e, g) for g in cv.emails) for e in label["emails"])), 1)
    if label.get("current_title"):
        add("current_title", int(similar(cv.current_title, label["current_title"])), 1)
    add("employers", *recall(label.get("companies") or [], cv.companies))
    add("degrees", *recall(label.get("degrees") or [], cv.degrees))
    expected = set(label.get("sections") or [])
    add("sections", len(expected & set(cv.sections)), len(expected))
    detail["got"] = {
        "name": cv.name, "emails": cv.emails, "current_title": cv.current_title,
        "companies": cv.companies, "degrees": cv.degrees, "sections": cv.sections,
    }
    return detail


def evaluate_folder(dataset: Path, *, text_bearing_only: bool = True) -> EvalReport:
    """Extract every labelled PDF of ``dataset`` and score it; image-only files are reported apart."""
    labels = json.loads((dataset / "labels.json").read_text(encoding="utf-8"))
    report = EvalReport()
    for label in labels:
        path = dataset / "pdf" / label["file"]
        if text_bearing_only and label.get("layout") == "image-only":
            continue
        try:
            doc = extract_document(path)
            cv, _ = normalize_document(doc)
        except CvragError as exc:
            report.files.append({"file": label["file"], "error": exc.message})
            cv = NormalizedCV()
        report.files.append(score_cv(cv, label, report))
    return report
