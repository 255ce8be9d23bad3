"""Measuring extraction quality (``cvrag eval``): a labelled folder, generated CVs, leave-one-source-out, the zoo.

Build-time and support use: the evaluation code itself is ``cvrag_desktop/evaluation/``;
front ends reach it here.
"""

from __future__ import annotations

import datetime as dt
import tempfile
from collections.abc import Callable
from pathlib import Path

from cvrag_desktop.errors import InvalidInput
from cvrag_desktop.evaluation import folds, real_cvs, roundtrip, section_training
from cvrag_desktop.evaluation.fold_training import learned_normalizer
from cvrag_desktop.evaluation.zooscore import run as zoo_run


def evaluate_folder(dataset: Path, text_bearing_only: bool = True, as_of: dt.date | None = None):
    """Score extraction against a folder's ``labels.json`` (the report prints a table or JSON)."""
    return real_cvs.evaluate_folder(dataset, text_bearing_only=text_bearing_only, as_of=as_of)


def evaluate_generated(folder: Path) -> dict:
    """Score extraction against the ground truth the CV generator wrote (a round trip)."""
    return roundtrip.evaluate_generated(folder)


def generated_table(result: dict) -> str:
    """The round trip's result as a table."""
    return roundtrip.format_table(result)


def load_labelled(folders: list[Path]) -> list:
    """Every labelled document of the folders, with its source (for leave-one-source-out)."""
    return folds.load_labelled(folders)


def normalizer(kind: str) -> Callable:
    """The normalizer factory of a fold: ``rules`` alone, or the ``learned`` line roles trained per fold."""
    if kind == "rules":
        return folds.rules_normalizer
    return learned_normalizer


def evaluate_folds(docs: list, factory: Callable):
    """Leave-one-source-out over ``docs`` with the normalizer ``factory``."""
    return folds.evaluate_folds(docs, factory)


def evaluate_zoo(folder: Path, *, families: list[str] | None = None, include_held_out: bool = False,
                 workers: int = 1, progress: Callable[[str, int, int], None] | None = None,
                 model: str = "shipped", cache: Path | None = None):
    """Score extraction on a built layout zoo, family by family (held-out families only when asked).

    ``model``: ``shipped`` (the product as it is: the rules and the models in ``resources/``), ``rules``
    (the hand-written rules alone) or ``learned`` (leave-one-family-out: the section-kind model trained
    afresh on the other open families for each scored family; ``cache`` keeps the read blocks).

    Returns a report with ``table()`` and ``to_json()``. Raises ``FileMissing`` / ``InvalidInput`` for a
    folder that is not a built zoo, an unknown family, or a held-out family named without
    ``include_held_out``.
    """
    every = zoo_run.load_zoo(folder)
    scored = zoo_run.select(every, families, include_held_out)
    if model not in ("shipped", "rules", "learned"):
        raise InvalidInput(f"Unknown model {model!r}: give shipped, rules or learned.")
    if model != "learned":
        trainer = zoo_run.product_trainer if model == "shipped" else zoo_run.rules_trainer
        return zoo_run.score_zoo(every, scored, train=trainer, workers=max(1, workers), progress=progress)
    with tempfile.TemporaryDirectory(prefix="cvrag-zoo-models-") as tmp:
        trainer = section_training.LearnedTrainer(Path(tmp), cache)
        return zoo_run.score_zoo(every, scored, train=trainer, workers=max(1, workers), progress=progress)
