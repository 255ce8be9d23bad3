"""Calibration of the low-confidence mark (issue 36, item 6): is a value shown without a mark right?

``python -m cvrag_desktop.evaluation.calibration --zoo DIR [--families a,b] [--dataset FOLDER ...]
[--records OUT.jsonl] [--workers N]`` reads every document of the zoo's *open* families (never the
held-out bench unless ``--include-held-out``) and of each labelled real folder (``labels.json``), and for
every value shown with a confidence (name, every role's title and employer, every degree and
institution, the current title) records its score, whether it carries the mark, which of its kind's
cues (``ingestion/fields/confidence.CUES``) and of the :data:`CANDIDATES` (evidence tried as mark rules)
held, and whether it matches a truth value the way the zoo scorer's "unmarked values right" matches it
(``zooscore.fields.add_marks``; a degree may also match with its field joined, as labels print it).

It prints, per source (the open zoo pooled, each real folder) and field: values, the share right among
unmarked values (the bar: >= 0.95), the share right among marked ones, wrong values flagged, and right
values marked (the cost). ``--records`` writes the rows (numbers, cue names and the family: never a
value's text, so a real folder's rows hold no personal data) for fitting the cue weights offline.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from cvrag_desktop.errors import CvragError
from cvrag_desktop.evaluation.real_cvs import LABELS_AS_OF
from cvrag_desktop.evaluation.roundtrip import load_truth
from cvrag_desktop.evaluation.zooscore import fields as zf
from cvrag_desktop.evaluation.zooscore import run as zoo_run
from cvrag_desktop.ingestion.fields.confidence import CUES, document_contexts, kind_of
from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from cvrag_desktop.text.keys import heading_key, normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon


def _entry(ctx):
    """The experience or education entry a role field belongs to (None for the name)."""
    m = re.match(r"^(experiences|education)\[(\d+)\]", ctx.field)
    if not m:
        return None
    entries = ctx.cv.experiences if m.group(1) == "experiences" else ctx.cv.education
    return entries[int(m.group(2))] if int(m.group(2)) < len(entries) else None


def _section(ctx) -> str | None:
    return ctx.section_of.get(ctx.line) if ctx.line is not None else None


def _heading(ctx) -> bool:
    lex = load_lexicon()
    return heading_key(ctx.value) in lex.headings or normalize_key(ctx.value) in lex.name_stopwords


def _pair_same(ctx) -> bool:
    e = _entry(ctx)
    if e is None or not getattr(e, "company", None) or not e.title:
        return False
    a, b = normalize_key(e.title), normalize_key(e.company)
    return a in b or b in a


# Evidence that is not (or not for every kind) among the product's cues, recorded beside them so a fit can test
# it: each was tried as a mark rule (docs/confidence.md says which were kept and why).
CANDIDATES = {
    "x_heading": _heading,
    "x_label": lambda c: ":" in c.value,
    "x_digits": lambda c: bool(re.search(r"\d", c.value)),
    "x_dates": lambda c: bool(find_date_ranges(c.value)),
    "x_long": lambda c: len(c.value.split()) > 8,
    "x_lower": lambda c: c.value[:1].islower(),
    "x_no_section": lambda c: _section(c) is None,
    "x_other_section": lambda c: _section(c) not in (None, "experience", "education", "contact"),
    "x_header": lambda c: c.line is not None and c.line in c.header,
    "x_no_start": lambda c: _entry(c) is not None and _entry(c).start is None,
    "x_one_word": lambda c: len(c.value.split()) == 1,
    "x_comma": lambda c: "," in c.value,
    "x_allcaps": lambda c: c.value.isupper() and len(c.value) > 3,
    "x_few_entries": lambda c: len(c.cv.experiences) <= 1,
    "x_pair_same": _pair_same,
}


def _joined(ctx) -> list[str]:
    """A degree as ``NormalizedCV.degrees`` lists it (its field joined), which labels may print."""
    ed = _entry(ctx) if ctx.field.endswith(".degree") else None
    return [f"{ed.degree} in {ed.field}"] if ed is not None and ed.degree and ed.field else []


SCORED = ("name", "title", "employers", "degrees", "institutions", "current_title")
_IMAGE_ONLY = "image-only"


def value_records(path: Path, truth: dict[str, list[str]], as_of: dt.date | None, source: str,
                  family: str) -> list[dict]:
    """Every confidence-scored value of one document: score, mark, cue hits and right/wrong (no text)."""
    try:
        doc = extract_document(path)
        cv, blocks = normalize_document(doc, as_of)
    except CvragError:
        return []
    context = document_contexts(cv, doc, blocks) if doc.lines else None
    out, seen = [], set()
    for p in cv.provenance:
        kind = zf.confidence_kind(p.field)
        if p.confidence is None or kind is None or p.field in seen or not p.value or context is None:
            continue
        seen.add(p.field)
        cue_kind = kind_of(p.field) or "title"  # current_title: its role's title (or the headline) scored it
        ctx = context(p)
        hits = sorted(c.name for c in CUES[cue_kind] if c.test(ctx)) + sorted(k for k, t in CANDIDATES.items() if t(ctx))
        shown = [p.value, *_joined(ctx)]
        out.append({"source": source, "family": family, "field": kind, "cue_kind": cue_kind,
                    "score": p.confidence, "low": p.low_confidence, "cues": hits,
                    "right": any(zf.MATCH[kind](t, v) for t in truth[kind] for v in shown)})
    return out


def _zoo_task(task: tuple) -> list[dict]:
    truth_path, family = task
    truth, extra = load_truth(truth_path)
    values = zf.truth_values(truth, (extra.get("zoo") or {}).get("not_printed") or ())
    as_of = dt.date.fromisoformat(extra["as_of"]) if extra.get("as_of") else None
    return value_records(truth_path.with_suffix(".pdf"), values, as_of, "zoo (open)" if not
                         (extra.get("zoo") or {}).get("held_out") else "zoo (held-out)", family)


def zoo_tasks(folder: Path, families: list[str] | None, include_held_out: bool) -> list[tuple]:
    """(truth file, family) for every built document of the chosen families (open ones unless asked)."""
    every = zoo_run.load_zoo(folder)
    picked = zoo_run.select(every, families, include_held_out)
    return [(t, f.name) for f in picked for t in f.truths if t.with_suffix(".pdf").is_file()]


def label_truth(label: dict) -> dict[str, list[str]]:
    """A real folder's label as the scored fields' truth lists."""
    def some(v) -> list[str]:
        return [x for x in (v if isinstance(v, list) else [v]) if x]

    return {"name": some(label.get("name")), "title": some(label.get("job_titles")),
            "employers": some(label.get("companies")), "degrees": some(label.get("degrees")),
            "institutions": some(label.get("institutions")), "current_title": some(label.get("current_title"))}


def _real_task(task: tuple) -> list[dict]:
    path, label, source = task
    return value_records(path, label_truth(label), LABELS_AS_OF, source, source)


def real_tasks(folder: Path) -> list[tuple]:
    """(file, label, source) for every text-bearing labelled file of a real folder."""
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    return [(folder / "pdf" / lb["file"], lb, folder.name) for lb in labels if lb.get("layout") != _IMAGE_ONLY]


def collect(zoo_jobs: list[tuple], real_jobs: list[tuple], workers: int = 1) -> list[dict]:
    """Every document's records, read in ``workers`` processes."""
    jobs = [(_zoo_task, t) for t in zoo_jobs] + [(_real_task, t) for t in real_jobs]
    if workers <= 1:
        return [r for fn, t in jobs for r in fn(t)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return [r for rows in pool.map(_call, jobs, chunksize=4) for r in rows]


def _call(job: tuple) -> list[dict]:
    fn, task = job
    return fn(task)


@dataclass
class Cell:
    """One source's field: right/wrong among unmarked and among marked values."""

    unmarked_right: int = 0
    unmarked_wrong: int = 0
    marked_right: int = 0
    marked_wrong: int = 0
    by: dict = field(default_factory=dict)

    def add(self, low: bool, right: bool) -> None:
        """Count one value."""
        name = f"{'marked' if low else 'unmarked'}_{'right' if right else 'wrong'}"
        setattr(self, name, getattr(self, name) + 1)

    @property
    def values(self) -> int:
        """Every value counted."""
        return self.unmarked_right + self.unmarked_wrong + self.marked_right + self.marked_wrong


def reliability(records: Iterable[dict], low_of=None) -> dict[str, dict[str, Cell]]:
    """source -> field (and "all") -> counts; ``low_of(record)`` re-decides the mark (default: as shown)."""
    out: dict[str, dict[str, Cell]] = {}
    for r in records:
        low = r["low"] if low_of is None else low_of(r)
        for f in (r["field"], "all"):
            out.setdefault(r["source"], {}).setdefault(f, Cell()).add(low, r["right"])
    return out


def _share(a: int, b: int) -> str:
    return f"{a / (a + b):.3f}" if a + b else "  -  "


def table(cells: dict[str, dict[str, Cell]]) -> str:
    """The printable reliability table: per source and field, the shares the bar and the cost are read from."""
    head = (f"{'source':<16}{'field':<15}{'values':>7}{'unmarked right':>16}{'marked right':>14}"
            f"{'wrong flagged':>15}{'right marked':>14}")
    out = [head, "-" * len(head)]
    for source in sorted(cells):
        for f in (*SCORED, "all"):
            c = cells[source].get(f)
            if c is None:
                continue
            bar = "  < 0.95" if c.unmarked_right + c.unmarked_wrong and \
                c.unmarked_right / (c.unmarked_right + c.unmarked_wrong) < 0.95 else ""
            wrong = c.unmarked_wrong + c.marked_wrong
            right = c.unmarked_right + c.marked_right
            out.append(f"{source:<16}{f:<15}{c.values:>7}"
                       f"{_share(c.unmarked_right, c.unmarked_wrong) + f' of {c.unmarked_right + c.unmarked_wrong}':>16}"
                       f"{_share(c.marked_right, c.marked_wrong) + f' of {c.marked_right + c.marked_wrong}':>14}"
                       f"{f'{c.marked_wrong}/{wrong}':>15}{f'{c.marked_right}/{right}':>14}{bar}")
    return "\n".join(out)


def read_records(path: Path) -> Iterator[dict]:
    """Rows written by ``--records``."""
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def main(argv: list[str] | None = None) -> int:
    """Collect the records, print the reliability table (exit 2 on a usage error)."""
    p = argparse.ArgumentParser(prog="python -m cvrag_desktop.evaluation.calibration",
                                description="how often a value shown without the low-confidence mark is right")
    p.add_argument("--zoo", help="a built layout zoo (its open families)")
    p.add_argument("--families", help="with --zoo: only these families (comma-separated)")
    p.add_argument("--include-held-out", action="store_true", help="also the held-out bench (end of a session only)")
    p.add_argument("--dataset", action="append", default=[], help="a labelled real folder (repeatable)")
    p.add_argument("--records", help="write every value's row (no text) to this JSONL file")
    p.add_argument("--from-records", help="print the table from rows written before (no extraction)")
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args(argv)
    try:
        if args.from_records:
            records = list(read_records(Path(args.from_records)))
        else:
            zoo_jobs = zoo_tasks(Path(args.zoo), (args.families or "").split(","), args.include_held_out) \
                if args.zoo else []
            missing = [d for d in args.dataset if not (Path(d) / "labels.json").is_file()]
            if missing:
                raise CvragError(f"{missing[0]} has no labels.json")
            real_jobs = [t for d in args.dataset for t in real_tasks(Path(d))]
            records = collect(zoo_jobs, real_jobs, max(1, args.workers))
    except (CvragError, OSError, ValueError) as exc:
        print(f"error: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
    if args.records:
        with open(args.records, "w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(r) + "\n" for r in records)
    print(table(reliability(records)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
