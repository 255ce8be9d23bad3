"""Leave-one-source-out evaluation over every labelled real folder.

A *source* is a template family or the repository a document came from (``MANIFEST.tsv``): forks of
one LaTeX template are one family, and every LinkedIn "Save to PDF" export is one family whichever
parser project published it. Each fold holds one source out: anything learned (the line-role model)
is trained on the other sources only and the held-out source is scored with the same scorer as
``cvrag eval`` (:func:`cvrag_desktop.evaluation.real_cvs.score_cv`). A change is kept only if the
held-out folds improve; a lift on the files a rule was written from alone is fit, not progress.

Documents are extracted once per run (extraction learns nothing); normalisation runs per fold.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from cvrag_desktop.domain import NormalizedCV
from cvrag_desktop.errors import CvragError
from cvrag_desktop.evaluation.real_cvs import FIELDS, LABELS_AS_OF, EvalReport, score_cv
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc

SCORED = ("name", "email", "current_title", "employers", "degrees", "skills", "languages")
# A normaliser for one fold: built from the training documents, it reads one extracted document.
Normalizer = Callable[[ExtractedDoc, dt.date], NormalizedCV]
NormalizerFactory = Callable[[list["LabelledDoc"]], Normalizer]


@dataclass
class LabelledDoc:
    """One labelled real document, extracted once: its folder, source family, label and text."""

    dataset: str
    file: str
    family: str
    label: dict
    doc: ExtractedDoc | None
    error: str | None = None


_GENERIC_REPO_NAMES = frozenset({"cv", "resume", "page", "curriculum-vitae", "curriculumvitae", "lebenslauf"})


def source_family(row: dict) -> str:
    """The template family of a MANIFEST row: LinkedIn exports are one family; forks of a template are one."""
    produced = " ".join(row.get(k, "") for k in ("how_produced", "producer", "file")).lower()
    if "linkedin" in produced:
        return "linkedin-export"
    full = (row.get("source_repo") or row.get("file") or "unknown").lower()
    repo = re.sub(r"[-_](?:latex|tex)$", "", full.split("/")[-1])
    if repo in _GENERIC_REPO_NAMES or repo.endswith(".github.io"):
        return full  # "someone/cv" names a person's repository, not a template family
    return repo


def _manifest(folder: Path) -> dict[str, dict]:
    path = folder / "MANIFEST.tsv"
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8", newline="") as fh:
        return {row["file"]: row for row in csv.DictReader(fh, delimiter="\t")}


def load_labelled(folders: Iterable[Path], *, skip_image_only: bool = True) -> list[LabelledDoc]:
    """Extract every labelled document of the folders once (image-only files are left out: they need OCR)."""
    out: list[LabelledDoc] = []
    for folder in folders:
        labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
        manifest = _manifest(folder)
        for label in labels:
            if skip_image_only and label.get("layout") == "image-only":
                continue
            row = manifest.get(label["file"], {"file": label["file"]})
            doc, error = None, None
            try:
                doc = extract_document(folder / "pdf" / label["file"])
            except CvragError as exc:
                error = exc.message
            out.append(LabelledDoc(folder.name, label["file"], source_family(row), label, doc, error))
    return out


@dataclass
class FoldReport:
    """Per-source reports (each scored with the normaliser trained without it) and their sum."""

    folds: dict[str, EvalReport] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)

    def overall(self) -> EvalReport:
        """Every held-out document counted once: the micro-average over the folds."""
        total = EvalReport()
        for rep in self.folds.values():
            for f in FIELDS:
                c, t = total.counts[f], rep.counts[f]
                c.tp, c.fp, c.fn, c.got, c.got_matched = (c.tp + t.tp, c.fp + t.fp, c.fn + t.fn,
                                                          c.got + t.got, c.got_matched + t.got_matched)
            for f, (hit, tot) in rep.totals.items():
                total.totals[f][0] += hit
                total.totals[f][1] += tot
            total.files.extend(rep.files)
        return total

    def table(self, fields: tuple[str, ...] = SCORED) -> str:
        """Precision/recall per field, one row per held-out source, then the overall row."""
        def pr(rep: EvalReport, f: str) -> str:
            c = rep.counts[f]
            p = "  --" if c.precision is None else f"{c.precision:.2f}"
            r = "--  " if c.recall is None else f"{c.recall:.2f}"
            return f"{p:>5}/{r:<5}"

        width = max([len(k) for k in self.folds] + [8])
        head = f"{'held-out source':<{width}} {'n':>3} " + " ".join(f"{f[:11]:^11}" for f in fields)
        rows = [head, f"{'':<{width}}     " + " ".join(f"{'P / R':^11}" for _ in fields)]
        for name in sorted(self.folds, key=lambda k: (-self.sizes[k], k)):
            rep = self.folds[name]
            rows.append(f"{name:<{width}} {self.sizes[name]:>3} " + " ".join(pr(rep, f) for f in fields))
        total = self.overall()
        rows.append(f"{'OVERALL':<{width}} {sum(self.sizes.values()):>3} " + " ".join(pr(total, f) for f in fields))
        return "\n".join(rows)


def evaluate_folds(docs: list[LabelledDoc], make_normalizer: NormalizerFactory,
                   as_of: dt.date = LABELS_AS_OF) -> FoldReport:
    """Leave each source out in turn: build the normaliser from the others, score the held-out source."""
    report = FoldReport()
    for family in sorted({d.family for d in docs}):
        held = [d for d in docs if d.family == family]
        normalize = make_normalizer([d for d in docs if d.family != family])
        rep = EvalReport(labelled=len(held), as_of=as_of)
        for d in held:
            cv = NormalizedCV()
            if d.doc is not None:
                cv = normalize(d.doc, as_of)
                if cv.cv_date_source == "file":  # the labels run "present" to the printed date or to as_of
                    cv = cv.model_copy(update={"cv_date": None, "cv_date_source": None}).with_derived(as_of)
            else:
                rep.errors += 1
            detail = score_cv(cv, d.label, rep)
            detail["dataset"] = d.dataset
            rep.files.append(detail)
        report.folds[family] = rep
        report.sizes[family] = len(held)
    return report


def rules_normalizer(_train: list[LabelledDoc]) -> Normalizer:
    """The deterministic extractor with its shipped model files: it learns nothing from the fold."""
    return lambda doc, as_of: normalize_document(doc, as_of)[0]
