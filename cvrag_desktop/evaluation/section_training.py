"""Training the section-kind model on the layout zoo, and judging it family by family.

Every zoo document's line roles (``<id>.roles.jsonl``, from aligning the known values to the lines the
product reads) say what each of its section blocks holds: a block whose lines print roles' titles or
employers is a history, degrees or schools an education, mostly skills or spoken languages those lists.
The blocks come from the product's own reader and :func:`find_sections`, so the model learns exactly
the blocks it will be asked about. Features hold no words (``ingestion/layout/section_kinds.py``).

``python -m cvrag_desktop.evaluation.section_training --zoo build/zoo --out resources/models/section_kinds.crfsuite``
trains on every open family (never a held-out one); ``--folds`` prints leave-one-family-out accuracy
on the blocks the model may rename (those under a heading the lexicon does not know).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import pickle
import tempfile
import zlib
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cvrag_desktop.domain import NormalizedCV
from cvrag_desktop.evaluation.zooscore.run import Extractor, ZooFamily, load_zoo
from cvrag_desktop.ingestion.layout.section_kinds import (
    EDUCATION,
    EXPERIENCE,
    LANGUAGES,
    OTHER,
    SKILLS,
    SectionKindModel,
    block_features,
)
from cvrag_desktop.ingestion.layout.sections import SectionBlock, find_sections
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc

Sequence = tuple[list[dict[str, float]], list[str], list[bool]]  # features, kinds, "may be renamed" per block
TRAIN_PARAMS = {"c1": 0.05, "c2": 0.01, "max_iterations": 150, "feature.possible_transitions": True}


def block_kind(roles: list[str]) -> str:
    """What a block holds, from the roles of its lines (titles/employers > degrees/schools > lists)."""
    c = Counter(roles)
    exp, edu = c["title"] + c["employer"], c["degree"] + c["institution"]
    body = [r for r in roles if r not in ("heading", "furniture", "other")]
    if exp and exp >= edu:
        return EXPERIENCE
    if edu:
        return EDUCATION
    if body and c["skill"] >= 0.5 * len(body):
        return SKILLS
    if body and c["language"] >= 0.5 * len(body):
        return LANGUAGES
    return OTHER


def document_sequence(pdf: Path, roles_file: Path) -> Sequence | None:
    """The blocks of one zoo document: features, kinds and which may be renamed (None if lines moved)."""
    read = read_document(pdf, roles_file)
    return sequence_of(*read) if read is not None else None


def read_document(pdf: Path, roles_file: Path) -> tuple[ExtractedDoc, list[str]] | None:
    """A zoo document as the product reads it, with each line's role (None if its roles index other lines)."""
    doc = extract_document(pdf)
    rows = [json.loads(line) for line in roles_file.read_text(encoding="utf-8").splitlines() if line.strip()]
    if len(rows) != len(doc.lines) or any(r["text"] != ln.text for r, ln in zip(rows, doc.lines, strict=True)):
        return None  # the reader changed since the zoo was built: its roles no longer index these lines
    return doc, [r["role"] for r in rows]


def sequence_of(doc: ExtractedDoc, roles: list[str]) -> Sequence:
    """The blocks :func:`find_sections` gives ``doc``: features, kinds (from ``roles``), which may be renamed."""
    blocks: list[SectionBlock] = find_sections(doc)
    kinds = [block_kind([roles[i] for i in b.lines]) for b in blocks]
    renamable = [b.section == "other" and b.heading is not None and not b.known for b in blocks]
    return block_features(doc, blocks), kinds, renamable


def family_sequences(fam: ZooFamily, cache: Path | None = None) -> list[Sequence]:
    """Every document's sequence of one family. Reading is the slow part: ``cache`` keeps what was read
    (the lines and their roles, not the blocks, so a change to the sections or features needs no re-read)."""
    hit = cache / f"{fam.name}.lines.pkl" if cache else None
    stamp = _fingerprint(fam)
    docs = _cached(hit, stamp) if hit else None
    if docs is None:
        docs = []
        for truth in fam.truths:
            pdf, roles = truth.with_suffix(".pdf"), truth.with_name(truth.stem + ".roles.jsonl")
            if pdf.is_file() and roles.is_file() and (read := read_document(pdf, roles)) is not None:
                docs.append(read)
        if hit:
            hit.parent.mkdir(parents=True, exist_ok=True)
            part = hit.with_suffix(".part")
            part.write_bytes(pickle.dumps((stamp, docs)))
            os.replace(part, hit)  # a run killed mid-write leaves no truncated cache behind
    return [sequence_of(doc, roles) for doc, roles in docs]


def _fingerprint(fam: ZooFamily) -> list[tuple[str, int, int]]:
    """What the cached lines were read from: every PDF and roles file with its size and time (a rebuilt zoo
    or another zoo in the same cache folder is read again). A change of the reader is not seen: clear the
    cache after one (docs/zoo.md)."""
    out = []
    for truth in fam.truths:
        for f in (truth.with_suffix(".pdf"), truth.with_name(truth.stem + ".roles.jsonl")):
            if f.is_file():
                st = f.stat()
                out.append((str(f.resolve()), st.st_size, st.st_mtime_ns))
    return out


def _cached(hit: Path, stamp: list) -> list | None:
    """The cached documents when they were read from exactly ``stamp``'s files; None otherwise (or unreadable)."""
    try:
        saved, docs = pickle.loads(hit.read_bytes())
    except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError, AttributeError, ImportError):
        return None
    return docs if saved == stamp else None


def train(seqs: list[Sequence], out: Path) -> SectionKindModel:
    """Train the CRF on ``seqs`` (deterministic for the same sequences) and write it to ``out``."""
    import pycrfsuite

    trainer = pycrfsuite.Trainer(verbose=False)
    for feats, kinds, _ in seqs:
        trainer.append(feats, kinds)
    trainer.set_params(TRAIN_PARAMS)
    out.parent.mkdir(parents=True, exist_ok=True)
    trainer.train(str(out))
    return SectionKindModel(out)


@lru_cache(maxsize=4)
def _model(path: str) -> SectionKindModel:
    return SectionKindModel(Path(path))


@dataclass(frozen=True)
class KindsExtractor:
    """The product's extraction with the section-kind model at ``model`` (picklable for worker processes)."""

    model: str

    def __call__(self, path: Path, as_of: dt.date | None) -> NormalizedCV:
        """Read and normalise ``path`` with this fold's model deciding unnamed sections."""
        return normalize_document(extract_document(path), as_of, kinds=_model(self.model))[0]


class LearnedTrainer:
    """Leave-one-family-out for the zoo scorer: a model trained on the given families for each scored one.

    Models are written under ``workdir`` (one per set of training families) and blocks are read once
    per family into ``cache`` (a temporary folder when None)."""

    def __init__(self, workdir: Path, cache: Path | None = None) -> None:
        self.workdir = workdir
        self.cache = cache or workdir / "blocks"
        self._seqs: dict[str, list[Sequence]] = {}

    def __call__(self, train_on: list[ZooFamily]) -> Extractor:
        """An extractor whose section-kind model learned from ``train_on`` only."""
        names = sorted(f.name for f in train_on)
        out = self.workdir / f"kinds-{zlib.crc32('|'.join(names).encode()):08x}.crfsuite"
        if not out.is_file():
            for f in train_on:
                if f.name not in self._seqs:
                    self._seqs[f.name] = family_sequences(f, self.cache)
            train([s for f in train_on for s in self._seqs[f.name]], out)
        return KindsExtractor(str(out))


def open_families(zoo: Path) -> list[ZooFamily]:
    """The zoo's families a model may learn from (never the held-out bench)."""
    return [f for f in load_zoo(zoo) if not f.held_out]


def folds_table(zoo: Path, cache: Path | None) -> list[tuple[str, int, int, int]]:
    """Leave-one-family-out: per family, (name, renamable blocks, right, renamed wrongly)."""
    fams = open_families(zoo)
    seqs = {f.name: family_sequences(f, cache) for f in fams}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for f in fams:
            model = train([s for g in fams if g.name != f.name for s in seqs[g.name]], Path(tmp) / "m.crfsuite")
            total = right = wrong = 0
            for feats, kinds, renamable in seqs[f.name]:
                model._tagger.set(feats)
                for t, lab in enumerate(model._tagger.tag()):
                    if not renamable[t]:
                        continue
                    sure = model._tagger.marginal(lab, t) >= model.threshold
                    total += 1
                    guess = lab if sure and lab in (EXPERIENCE, EDUCATION) else OTHER
                    right += guess == kinds[t] or (guess == OTHER and kinds[t] not in (EXPERIENCE, EDUCATION))
                    wrong += guess != OTHER and guess != kinds[t]
            rows.append((f.name, total, right, wrong))
    return rows


def main(argv: list[str] | None = None) -> int:
    """``--out`` trains on every open family; ``--folds`` prints leave-one-family-out accuracy."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--zoo", type=Path, default=Path("build/zoo"))
    ap.add_argument("--out", type=Path)
    ap.add_argument("--cache", type=Path, help="keep each family's read blocks here between runs")
    ap.add_argument("--folds", action="store_true")
    args = ap.parse_args(argv)
    if not (args.zoo / "manifest.json").is_file():
        print(f"No built zoo at {args.zoo}: run `make zoo` first.")
        return 2
    if args.folds:
        rows = folds_table(args.zoo, args.cache)
        print(f"{'family':18} {'blocks':>6} {'right':>6} {'wrong':>6}")
        for name, total, right, wrong in rows:
            print(f"{name:18} {total:6} {right:6} {wrong:6}")
        t, r, w = (sum(x[k] for x in rows) for k in (1, 2, 3))
        print(f"{'OVERALL':18} {t:6} {r:6} {w:6}")
    if args.out:
        seqs = [s for f in open_families(args.zoo) for s in family_sequences(f, args.cache)]
        train(seqs, args.out)
        print(f"trained on {len(seqs)} documents -> {args.out} ({args.out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
