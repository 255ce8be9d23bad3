"""Running the zoo scorer: read the built zoo, extract every document, score family by family.

Leave-one-family-out through a training hook: ``train(families) -> extractor`` is called once per
scored family with every *open* family but that one (never a held-out family), and the returned
extractor reads the scored family's documents. Today's extraction is rules and learns nothing, so
:func:`rules_trainer` ignores its training set and every family is scored as a family; a trained
model plugs in here and gets true leave-one-family-out. With ``workers > 1`` documents are read in
that many processes, so an extractor must be picklable (a module-level function or object).

Held-out families (``manifest.json``'s ``held_out``) are the bench scored only at the end of a
session: left out unless ``include_held_out`` is true, and reported apart.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from cvrag_desktop.domain import NormalizedCV
from cvrag_desktop.errors import CvragError, FileMissing, InvalidInput
from cvrag_desktop.evaluation.roundtrip import load_truth
from cvrag_desktop.evaluation.zooscore import fields as zf
from cvrag_desktop.evaluation.zooscore.report import FamilyScore, ZooReport
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document

# Reads one document (PDF or DOCX) as of a day: what a fold's model (or the rules) extracts.
Extractor = Callable[[Path, dt.date | None], NormalizedCV]


@dataclass(frozen=True)
class ZooFamily:
    """One template family of the built zoo and its documents' truth files."""

    name: str
    engine: str
    held_out: bool
    truths: tuple[Path, ...]


Trainer = Callable[[list[ZooFamily]], Extractor]


def rules_extractor(path: Path, as_of: dt.date | None) -> NormalizedCV:
    """The hand-written rules alone (no LLM, no trained model): read, then normalise."""
    return normalize_document(extract_document(path), as_of, kinds=None)[0]


def product_extractor(path: Path, as_of: dt.date | None) -> NormalizedCV:
    """The product's deterministic extraction as shipped (the rules and the models in ``resources/``)."""
    return normalize_document(extract_document(path), as_of)[0]


def product_trainer(_train: list[ZooFamily]) -> Extractor:
    """The shipped models learn nothing here: the same extractor whatever the training families
    (leave-one-family-out only on families the shipped models were not trained on: the held-out bench)."""
    return product_extractor


def rules_trainer(_train: list[ZooFamily]) -> Extractor:
    """The rules learn nothing: the same extractor whatever the training families."""
    return rules_extractor


def load_zoo(folder: Path) -> list[ZooFamily]:
    """The families of a built zoo (``manifest.json`` and ``docs/<family>/*.json``), manifest order."""
    manifest = folder / "manifest.json"
    if not manifest.is_file():
        raise FileMissing(f"{folder} is not a built zoo: it has no manifest.json (build it with `make zoo`)")
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        rows = [(str(f["name"]), str(f.get("engine", "?")), bool(f.get("held_out"))) for f in data["families"]]
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidInput(f"{manifest} is not a zoo manifest ({type(exc).__name__})") from None
    out = []
    for name, engine, held_out in rows:
        docs = folder / "docs" / name
        truths = tuple(p for p in sorted(docs.glob("*.json")) if _is_truth(p))
        out.append(ZooFamily(name, engine, held_out, truths))
    return out


def _is_truth(path: Path) -> bool:
    """A document's truth file, not a JSON Resume input (``.resume.json``) or a manifest."""
    return path.name != "manifest.json" and not path.name.endswith(".resume.json")


def select(families: list[ZooFamily], names: Iterable[str] | None, include_held_out: bool) -> list[ZooFamily]:
    """The families to score: those named (all when ``names`` is empty), held-out ones only when asked."""
    wanted = [n.strip() for n in names or () if n.strip()]
    known = {f.name: f for f in families}
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise InvalidInput(f"no family {unknown[0]!r} in the zoo (it has {len(known)}: "
                           f"{', '.join(sorted(known)[:5])}, ...)")
    picked = [known[n] for n in dict.fromkeys(wanted)] if wanted else list(families)
    if not include_held_out:
        held = [f.name for f in picked if f.held_out]
        if wanted and held:
            raise InvalidInput(f"{held[0]} is a held-out family: score it only with --include-held-out")
        picked = [f for f in picked if not f.held_out]
    return picked


def _read(extractor: Extractor, path: Path, as_of: dt.date | None) -> tuple[NormalizedCV, str | None]:
    try:
        return extractor(path, as_of), None
    except CvragError as exc:
        return NormalizedCV(), exc.message
    except Exception as exc:  # one broken document must not end a 20-minute run
        return NormalizedCV(), f"unexpected error ({type(exc).__name__})"


def _work(task: tuple) -> tuple:
    """One document in a worker: its PDF read, and its DOCX when the family keeps one."""
    extractor, pdf, docx, as_of = task
    got = _read(extractor, pdf, as_of)
    return got, (_read(extractor, docx, as_of) if docx is not None else None)


def _as_of(extra: dict) -> dt.date | None:
    try:
        return dt.date.fromisoformat(extra["as_of"]) if extra.get("as_of") else None
    except ValueError:
        return None


def score_zoo(families: list[ZooFamily], scored: list[ZooFamily], *, train: Trainer = rules_trainer,
              workers: int = 1, progress: Callable[[str, int, int], None] | None = None) -> ZooReport:
    """Score ``scored`` family by family, each read by the extractor ``train`` makes from the other open
    families of ``families``; DOCX-vs-PDF agreement on families that keep a DOCX; unmarked precision."""
    report = ZooReport(scope="held-out" if any(f.held_out for f in scored) else "all")
    pool = ProcessPoolExecutor(max_workers=workers) if workers > 1 else None
    try:
        for n, fam in enumerate(scored):
            extractor = train([f for f in families if not f.held_out and f.name != fam.name])
            report.families[fam.name] = _score_family(fam, extractor, report, pool)
            if progress:
                progress(fam.name, n + 1, len(scored))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return report


def _score_family(fam: ZooFamily, extractor: Extractor, report: ZooReport,
                  pool: ProcessPoolExecutor | None) -> FamilyScore:
    score = FamilyScore(engine=fam.engine, held_out=fam.held_out)
    tasks, truths = [], []
    for truth_path in fam.truths:
        pdf = truth_path.with_suffix(".pdf")
        if not pdf.is_file():
            score.missing += 1  # the build failed on it (recorded in the manifest)
            continue
        truth, extra = load_truth(truth_path)
        docx = truth_path.with_suffix(".docx")
        tasks.append((extractor, pdf, docx if docx.is_file() else None, _as_of(extra)))
        truths.append((truth_path.stem, zf.truth_values(truth, (extra.get("zoo") or {}).get("not_printed") or ())))
    results = pool.map(_work, tasks, chunksize=4) if pool is not None else map(_work, tasks)
    for (stem, truth), ((cv, error), docx_read) in zip(truths, results, strict=True):
        score.docs += 1
        detail = zf.add_counts(score.counts, truth, zf.shown_values(cv))
        if error:
            score.errors += 1
            detail["error"] = error
        if detail:
            score.misses[stem] = detail
        if fam.held_out or report.scope == "all":
            zf.add_marks(report.unmarked, report.marked, cv, truth)
        if docx_read is not None:
            docx_cv, docx_error = docx_read
            if error is None and docx_error is None:
                zf.add_agreement(score.agreement, docx_cv, cv)
                score.pairs += 1
    return score
