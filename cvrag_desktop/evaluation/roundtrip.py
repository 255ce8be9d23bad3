"""Round trip: generate synthetic CVs, ingest them without an LLM, compare with ground truth.

Scores per field and per layout: name, e-mail, current title, current company,
employers, degrees, skills. Names and e-mails must match exactly (after case and
accent folding); titles, employers and degrees tolerantly (see ``matching.similar``);
skills by canonical name.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from cvrag_desktop.domain import NormalizedCV
from cvrag_desktop.errors import CvragError
from cvrag_desktop.evaluation.matching import recall, same, similar
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document

FIELDS = ("name", "email", "current_title", "current_company", "employers", "degrees", "skills", "languages",
          "current_roles")


def load_truth(path: Path) -> tuple[NormalizedCV, dict]:
    """Ground truth JSON → (NormalizedCV, extra keys such as layout and locale)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    cv = NormalizedCV.model_validate({k: v for k, v in data.items() if k in NormalizedCV.model_fields})
    return cv, data


def compare(truth: NormalizedCV, got: NormalizedCV) -> dict[str, tuple[int, int]]:
    """(hits, total) per field for one CV."""
    out: dict[str, tuple[int, int]] = {}
    out["name"] = (int(same(truth.name, got.name)), 1)
    out["email"] = (int(all(any(same(e, g) for g in got.emails) for e in truth.emails)), 1) if truth.emails else (0, 0)
    if truth.current_title:
        out["current_title"] = (int(similar(truth.current_title, got.current_title)), 1)
    if truth.current_company:
        out["current_company"] = (int(similar(truth.current_company, got.current_company)), 1)
    out["employers"] = recall(truth.companies, got.companies)
    out["degrees"] = recall([d.degree for d in truth.education if d.degree], [d.degree or "" for d in got.education])
    out["skills"] = recall(truth.skills, got.skills, fuzzy=False)
    out["languages"] = recall(truth.languages, got.languages, fuzzy=False)
    n_current = sum(e.is_current for e in truth.experiences)
    out["current_roles"] = (int(sum(e.is_current for e in got.experiences) == n_current), 1)
    return out


def evaluate_generated(folder: Path) -> dict:
    """Score every ``<cv_id>.pdf`` of a factory output folder against its ``<cv_id>.json``."""
    per_layout: dict[str, dict[str, list[int]]] = defaultdict(lambda: {f: [0, 0] for f in FIELDS})
    misses: list[dict] = []
    for truth_path in sorted(folder.glob("*.json")):
        if truth_path.name == "manifest.json":
            continue
        truth, extra = load_truth(truth_path)
        pdf = truth_path.with_suffix(".pdf")
        if not pdf.exists():
            continue
        try:
            got, _ = normalize_document(extract_document(pdf))
        except CvragError as exc:
            got = NormalizedCV()
            misses.append({"cv": pdf.name, "error": exc.message})
        layout = extra.get("layout", "?")
        for field, (hit, tot) in compare(truth, got).items():
            for key in (layout, "ALL"):
                per_layout[key][field][0] += hit
                per_layout[key][field][1] += tot
            if hit < tot:
                misses.append({"cv": pdf.name, "layout": layout, "locale": extra.get("locale"), "field": field,
                               "hit": hit, "total": tot})
    return {"per_layout": {k: dict(v) for k, v in per_layout.items()}, "misses": misses}


def format_table(result: dict) -> str:
    """Rates per layout (rows) and field (columns)."""
    head = f"{'layout':<11}" + "".join(f"{f[:13]:>14}" for f in FIELDS)
    rows = [head]
    for layout in sorted(result["per_layout"], key=lambda k: (k == "ALL", k)):
        cells = []
        for f in FIELDS:
            hit, tot = result["per_layout"][layout][f]
            cells.append(f"{(hit / tot if tot else 1):>9.1%}{'':>5}" if tot else f"{'—':>14}")
        rows.append(f"{layout:<11}" + "".join(cells))
    return "\n".join(rows)
