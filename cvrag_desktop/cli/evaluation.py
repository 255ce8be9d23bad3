"""``cvrag eval``: extraction measured against a labelled folder, generated CVs, leave-one-source-out, or the zoo.

The table prints numbers only; per-file values (real people's data) only with ``--json``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cvrag_desktop.cli.output import _print_json


def cmd_eval(args, svc) -> int:
    """Measure extraction against a labelled folder."""
    from cvrag_desktop.app.quality import (  # only `cvrag eval` pays
        evaluate_folder,
        evaluate_generated,
        generated_table,
    )

    if args.zoo:
        return _eval_zoo(args)
    if args.generated:
        result = evaluate_generated(Path(args.generated))
        _print_json(result) if args.json else print(generated_table(result))
        return 0
    if not args.dataset:
        print("error: give --dataset DIR (labels.json), --generated DIR (factory output) or --zoo [DIR]",
              file=sys.stderr)
        return 2
    missing = [d for d in args.dataset if not (Path(d) / "labels.json").is_file()]
    if missing:
        print(f"error: {missing[0]} has no labels.json", file=sys.stderr)
        return 2
    if args.folds:
        return _eval_folds(args)
    if len(args.dataset) > 1:
        print("error: several --dataset folders need --folds source", file=sys.stderr)
        return 2
    import datetime as dt

    try:
        as_of = dt.date.fromisoformat(args.as_of) if args.as_of else None
    except ValueError:
        print(f"error: --as-of wants a date YYYY-MM-DD, not {args.as_of!r}", file=sys.stderr)
        return 2
    dataset = Path(args.dataset[0])
    report = evaluate_folder(dataset, text_bearing_only=not args.include_image_only, as_of=as_of)
    # The table prints numbers only; per-file values (real people's data) only with --json.
    _print_json(report.to_json()) if args.json else print(report.table())
    return 0


def _eval_folds(args) -> int:
    """Leave-one-source-out over the labelled folders: the rules, and the learned line roles if asked."""
    from cvrag_desktop.app.quality import evaluate_folds, load_labelled, normalizer

    docs = load_labelled([Path(d) for d in args.dataset])
    out: dict = {}
    model = args.model or "rules"
    if model == "shipped":
        print("error: --model shipped is for --zoo; --folds takes rules, learned or both", file=sys.stderr)
        return 2
    kinds = ("rules", "learned") if model == "both" else (model,)
    for kind in kinds:
        report = evaluate_folds(docs, normalizer(kind))
        if args.json:
            total = report.overall().to_json()
            out[kind] = {"overall": total["fields"], "folds": {
                k: {"n": report.sizes[k], "fields": r.to_json()["fields"], "files": r.files}
                for k, r in report.folds.items()}}
        else:
            print(f"== {kind}: leave-one-source-out, {len(docs)} documents, {len(report.folds)} sources")
            print(report.table())
            print()
    if args.json:
        _print_json(out)
    return 0


def _eval_zoo(args) -> int:
    """The layout zoo, family by family: the table (numbers only) or, with --json, every count and miss."""
    from cvrag_desktop.app.quality import evaluate_zoo

    if args.workers < 1:
        print(f"error: --workers wants 1 or more, not {args.workers}", file=sys.stderr)
        return 2
    names = [n for n in (args.families or "").split(",") if n.strip()]

    def progress(family: str, done: int, total: int) -> None:
        print(f"  scored {family} ({done}/{total})", file=sys.stderr, flush=True)

    model = args.model or "shipped"
    if model == "both":
        print("error: with --zoo, --model takes shipped, rules or learned", file=sys.stderr)
        return 2
    cache = Path(args.blocks_cache) if getattr(args, "blocks_cache", None) else None
    report = evaluate_zoo(Path(args.zoo), families=names, include_held_out=args.include_held_out,
                          workers=args.workers, progress=progress, model=model, cache=cache)
    _print_json(report.to_json()) if args.json else print(report.table())
    return 0
