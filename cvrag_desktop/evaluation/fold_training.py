"""Training the line-role model: per fold for leave-one-source-out, and once on everything for ``make train``.

Training sequences come from two places: the factory's CVs over every layout and locale (their
truth gives the person's name) and the labelled real documents of the *other* sources, aligned to
lines by their name label. The features hold no words of any document (typography, geometry and
lexicon hits only), so a model trained on real CVs carries none of their text.

Run as ``python -m cvrag_desktop.evaluation.fold_training --out resources/models/line_roles.crfsuite``
(``make train``): deterministic for a given set of documents, a few seconds on two cores.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import tempfile
from functools import lru_cache
from pathlib import Path

from cvrag_desktop.evaluation.folds import LabelledDoc, Normalizer, load_labelled
from cvrag_desktop.ingestion.fields.identity import contact, names
from cvrag_desktop.ingestion.layout.line_roles import NAME, OTHER, LineRoleModel, doc_features, top_lines
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from cvrag_desktop.text.keys import symbol_key

FACTORY_SEED = 20261202
FACTORY_COUNT = 240
DEFAULT_FOLDERS = ("real-cvs", "real-cvs-extra", "real-cvs-inbox")


def name_labels(doc: ExtractedDoc, name: str | None) -> list[str]:
    """``name`` on the top lines that print the labelled name (as a cell, or the whole line), else ``O``."""
    idx = top_lines(doc)
    key = symbol_key(name) if name else ""
    out = []
    for i in idx:
        text = doc.lines[i].text
        cells = [symbol_key(names.clean_name(c)) for c in contact.split_cells(text)] + [symbol_key(text)]
        out.append(NAME if key and key in cells else OTHER)
    return out


@lru_cache(maxsize=2)
def factory_sequences(count: int = FACTORY_COUNT, seed: int = FACTORY_SEED) -> tuple:
    """(features, labels) of generated CVs over every layout and locale (made once per process)."""
    from cvrag_desktop.factory.pipeline import generate_batch

    seqs = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "gen"
        generate_batch(count, seed, out, locale="mixed", layout="mixed", use_llm=False)
        for truth in sorted(out.glob("*.json")):
            if truth.name == "manifest.json":
                continue
            pdf = truth.with_suffix(".pdf")
            if not pdf.is_file():
                continue
            doc = extract_document(pdf)
            name = json.loads(truth.read_text(encoding="utf-8")).get("name")
            feats = doc_features(doc)
            if feats:
                seqs.append((feats, name_labels(doc, name)))
    return tuple(seqs)


def real_sequences(docs: list[LabelledDoc]) -> list:
    """(features, labels) of labelled real documents (their name label aligned to lines)."""
    seqs = []
    for d in docs:
        if d.doc is None:
            continue
        feats = doc_features(d.doc)
        if feats:
            seqs.append((feats, name_labels(d.doc, d.label.get("name"))))
    return seqs


def train(seqs: list, path: Path) -> Path:
    """Fit the CRF (L-BFGS, elastic net) on the sequences and write it to ``path``."""
    import pycrfsuite

    trainer = pycrfsuite.Trainer(verbose=False)
    for feats, labels in seqs:
        trainer.append(feats, labels)
    trainer.set_params({"c1": 0.05, "c2": 0.01, "max_iterations": 150,
                        "feature.possible_transitions": True})
    path.parent.mkdir(parents=True, exist_ok=True)
    trainer.train(str(path))
    return path


def learned_normalizer(train_docs: list[LabelledDoc]) -> Normalizer:
    """A normaliser whose name comes from a CRF trained on the factory and on ``train_docs`` only."""
    with tempfile.TemporaryDirectory(prefix="cvrag-roles-") as tmp:  # the tagger keeps the model once open
        model = LineRoleModel(train(list(factory_sequences()) + real_sequences(train_docs), Path(tmp) / "fold.crf"),
                              backoff=False)  # the model's own decisions, to compare with the rules'

    def normalize(doc: ExtractedDoc, as_of: dt.date):
        return normalize_document(doc, as_of, roles=model)[0]

    return normalize


def main(argv: list[str] | None = None) -> int:
    """``make train``: the model from the factory and every labelled real folder found."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("resources/models/line_roles.crfsuite"))
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    args = ap.parse_args(argv)
    folders = [args.data / f for f in DEFAULT_FOLDERS if (args.data / f / "labels.json").is_file()]
    docs = load_labelled(folders)
    seqs = list(factory_sequences()) + real_sequences(docs)
    train(seqs, args.out)
    print(f"trained on {len(seqs)} documents ({len(docs)} real from {len(folders)} folders): {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
