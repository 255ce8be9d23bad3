"""Extraction quality on a labelled folder of real CVs (``labels.json``), no LLM.

Prints a per-field table with two kinds of numbers:

- ``hits total rate``: recall as it was always measured, over the CVs whose label has a value
  (name, e-mail, current title: one per CV; employers, degrees, skills, languages, sections: one per
  label value; e-mail counts a CV as a hit when every labelled address was found).
- ``tp fp fn precision recall``: both ways, also where the label is empty. A label value some
  extracted value matches is a true positive, a label value none matches a false negative, an
  extracted value that matches no label value a false positive, so a title extracted where the label
  has none, or a wrong title, counts against precision (a wrong single value is fp + fn). E-mails are
  compared address by address. Precision = extracted values matching a label value / extracted values.

Years of experience are scored apart: the share of CVs whose label gives years and whose extracted
``years_of_experience`` lies within [min - 0.5, max + 0.5] (a CV whose label has no years is not
scored). The same code runs on any folder with the same label format, so held-out sets are measured
identically. Per-file values (``files``) are for ``--json`` only: the table prints numbers alone.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cvrag_desktop.domain import NormalizedCV
from cvrag_desktop.errors import CvragError
from cvrag_desktop.evaluation.matching import Comparison, compare, same, same_language, same_skill, similar
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document

FIELDS = ("name", "email", "current_title", "employers", "degrees", "skills", "languages", "sections")
YEARS = "years"
YEARS_TOLERANCE = 0.5
# Years in labels.json are as of the CV's printed date, else this day (see the dataset README); the
# extraction is measured at the same fixed day so the numbers do not drift with the clock.
LABELS_AS_OF = dt.date(2026, 11, 30)
_IMAGE_ONLY = "image-only"


@dataclass
class FieldCounts:
    """Both-ways counts of one field over a folder."""

    tp: int = 0  # label values found
    fp: int = 0  # extracted values matching no label value
    fn: int = 0  # label values not found
    got: int = 0  # extracted values
    got_matched: int = 0  # extracted values matching some label value

    @property
    def precision(self) -> float | None:
        """Share of extracted values that match a label value (``None`` when nothing was extracted)."""
        return self.got_matched / self.got if self.got else None

    @property
    def recall(self) -> float | None:
        """Share of label values found (``None`` when the labels have none)."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None


@dataclass
class EvalReport:
    """Per-field (hits, total), per-field tp/fp/fn, years of experience, and per-file details."""

    totals: dict[str, list[int]] = field(default_factory=lambda: {f: [0, 0] for f in (*FIELDS, YEARS)})
    counts: dict[str, FieldCounts] = field(default_factory=lambda: {f: FieldCounts() for f in FIELDS})
    files: list[dict] = field(default_factory=list)
    labelled: int = 0  # entries in labels.json
    skipped_image_only: list[str] = field(default_factory=list)
    errors: int = 0  # files that could not be read (scored as an empty CV)
    years_unscored: int = 0  # CVs with extracted years whose label has none
    years_file_date: list[int] = field(default_factory=lambda: [0, 0])  # the product's rule (file date fallback)
    as_of: dt.date = LABELS_AS_OF

    def rate(self, f: str) -> float:
        """Share of hits for a field (1.0 when nothing was expected)."""
        hit, tot = self.totals[f]
        return hit / tot if tot else 1.0

    def table(self) -> str:
        """A printable table of the measured numbers (no per-file values)."""
        def pct(x: float | None) -> str:
            return "-" if x is None else f"{x:.1%}"

        head = f"{'field':<15}{'hits':>6}{'total':>7}{'rate':>8}{'tp':>7}{'fp':>6}{'fn':>6}{'precision':>11}{'recall':>8}"
        rows = [head]
        for f in FIELDS:
            hit, tot = self.totals[f]
            c = self.counts[f]
            rows.append(f"{f:<15}{hit:>6}{tot:>7}{pct(self.rate(f)):>8}"
                        f"{c.tp:>7}{c.fp:>6}{c.fn:>6}{pct(c.precision):>11}{pct(c.recall):>8}")
        hit, tot = self.totals[YEARS]
        rows.append(f"{YEARS:<15}{hit:>6}{tot:>7}{pct(hit / tot if tot else None):>8}"
                    f"   (extracted within [min-{YEARS_TOLERANCE}, max+{YEARS_TOLERANCE}] of the label, "
                    f"as of {self.as_of.isoformat()})")
        hit_f, tot_f = self.years_file_date
        rows.append(f"{'years (app)':<15}{hit_f:>6}{tot_f:>7}{pct(hit_f / tot_f if tot_f else None):>8}"
                    "   (the app's rule: 'present' runs to the printed date, else the file's creation date)")
        skipped = len(self.skipped_image_only)
        rows.append(f"{self.labelled} labelled: {len(self.files)} scored, {self.errors} unreadable (scored as empty), "
                    f"{skipped} image-only skipped" + (" (--include-image-only scores them)" if skipped else ""))
        rows.append("rate = hits/total as before, where the label has a value; recall = tp/(tp+fn)")
        rows.append("precision = extracted values matching a label value / extracted values (the rest are fp); "
                    "a wrong single value is fp + fn")
        rows.append("skills labels list 10-20 skills per CV (fewer if the CV has fewer): skills fp are an upper bound")
        rows.append(f"years: n = CVs whose label has years; {self.years_unscored} CVs with extracted years "
                    "but none labelled are not scored")
        return "\n".join(rows)

    def to_json(self) -> dict:
        """Everything, per-file details included (for ``cvrag eval --json``)."""
        hit, tot = self.totals[YEARS]
        fields = {}
        for f in FIELDS:
            c = self.counts[f]
            fields[f] = {"hits": self.totals[f][0], "total": self.totals[f][1], "rate": self.rate(f),
                         **asdict(c), "precision": c.precision, "recall": c.recall}
        return {
            "rates": {f: self.rate(f) for f in self.totals},
            "totals": self.totals,
            "fields": fields,
            "years": {"in_range": hit, "n": tot, "share": hit / tot if tot else None,
                      "tolerance": YEARS_TOLERANCE, "as_of": self.as_of.isoformat(),
                      "unscored_with_value": self.years_unscored,
                      "app_rule_in_range": self.years_file_date[0]},
            "labelled": self.labelled,
            "scored": len(self.files),
            "errors": self.errors,
            "skipped_image_only": self.skipped_image_only,
            "files": self.files,
        }


def _years_range(label: dict) -> tuple[float, float] | None:
    lo, hi = label.get("years_experience_min"), label.get("years_experience_max")
    if lo is None and hi is None:
        return None
    lo = hi if lo is None else lo
    hi = lo if hi is None else hi
    return float(min(lo, hi)), float(max(lo, hi))


def score_cv(cv: NormalizedCV, label: dict, report: EvalReport) -> dict:
    """Compare one extracted CV with its label, adding to the report's totals and counts."""
    detail: dict = {"file": label["file"], "fields": {}}

    def add(f: str, hit: int, tot: int) -> None:
        report.totals[f][0] += hit
        report.totals[f][1] += tot

    def both_ways(f: str, expected, got, match) -> Comparison:
        cmp = compare(expected, got, match)
        c = report.counts[f]
        c.tp += cmp.tp
        c.fp += cmp.fp
        c.fn += cmp.fn
        c.got += len(cmp.got)
        c.got_matched += cmp.got_matched
        detail["fields"][f] = {"label": expected, "got": got, "tp": cmp.tp, "fp": list(cmp.invented),
                               "fn": list(cmp.missed)}
        return cmp

    if label.get("name"):
        add("name", int(same(cv.name, label["name"])), 1)
    both_ways("name", label.get("name") or None, cv.name, same)
    if label.get("emails"):
        add("email", int(all(any(same(e, g) for g in cv.emails) for e in label["emails"])), 1)
    both_ways("email", label.get("emails") or [], list(cv.emails), same)
    if label.get("current_title"):
        add("current_title", int(similar(cv.current_title, label["current_title"])), 1)
    both_ways("current_title", label.get("current_title") or None, cv.current_title, similar)
    for f, key, got, match in (("employers", "companies", cv.companies, similar),
                               ("degrees", "degrees", cv.degrees, similar),
                               ("skills", "skills", list(cv.skills), same_skill),
                               ("languages", "languages", list(cv.languages), same_language),
                               ("sections", "sections", list(cv.sections), same)):
        cmp = both_ways(f, label.get(key) or [], got, match)
        add(f, cmp.tp, cmp.tp + cmp.fn)

    span = _years_range(label)
    got_years = cv.years_of_experience
    in_range = None
    if span is not None:
        in_range = got_years is not None and span[0] - YEARS_TOLERANCE <= got_years <= span[1] + YEARS_TOLERANCE
        add(YEARS, int(in_range), 1)
    elif got_years is not None:
        report.years_unscored += 1
    detail["years"] = {"label": list(span) if span else None, "got": got_years, "in_range": in_range}
    return detail


def evaluate_folder(dataset: Path, *, text_bearing_only: bool = True, as_of: dt.date | None = None) -> EvalReport:
    """Extract every labelled file of ``dataset/pdf`` (PDF or DOCX) and score it.

    Image-only files are skipped unless ``text_bearing_only`` is false (they need OCR); the report
    counts them. ``as_of`` (default :data:`LABELS_AS_OF`) is the day years of experience run to.
    """
    labels = json.loads((dataset / "labels.json").read_text(encoding="utf-8"))
    report = EvalReport(labelled=len(labels), as_of=as_of or LABELS_AS_OF)
    for label in labels:
        path = dataset / "pdf" / label["file"]
        if text_bearing_only and label.get("layout") == _IMAGE_ONLY:
            report.skipped_image_only.append(label["file"])
            continue
        error = None
        try:
            doc = extract_document(path)
            app_cv, _ = normalize_document(doc, report.as_of)
        except CvragError as exc:
            error = exc.message
            report.errors += 1
            app_cv = NormalizedCV()
        # the labels run "present" to the printed date or to as_of; the app also falls back on the file's date
        cv = app_cv if app_cv.cv_date_source != "file" else \
            app_cv.model_copy(update={"cv_date": None, "cv_date_source": None}).with_derived(report.as_of)
        detail = score_cv(cv, label, report)
        span = _years_range(label)
        if span is not None:
            got = app_cv.years_of_experience
            report.years_file_date[0] += int(got is not None and span[0] - YEARS_TOLERANCE <= got <= span[1] + YEARS_TOLERANCE)
            report.years_file_date[1] += 1
            detail["years"]["app_rule"] = got
        if error:
            detail["error"] = error
        report.files.append(detail)
    return report
