"""Synthetic CV factory throughput: CVs per second without an LLM, per layout and overall.

Usage: python benchmarks/generate.py [--count 60] [--runs 3] [--image]

Each cell is the median of ``--runs`` runs of ``generate_batch`` (one process, fresh
output folder per run). The first, untimed run warms up fonts and Faker locales.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pymupdf

from cvrag_desktop.factory.pipeline import generate_batch
from cvrag_desktop.factory.render import LAYOUTS


def rate(count: int, layout: str, runs: int, *, image: bool, locale: str) -> tuple[float, int]:
    """Median CVs/second over ``runs`` batches, and the pages per CV of the last batch."""
    speeds = []
    pages = 0
    for run in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            report = generate_batch(
                count, 1000 + run, Path(tmp), locale=locale, layout=layout, with_image=image
            )
            speeds.append(len(report.generated) / (time.perf_counter() - start))
            if run == runs - 1:
                pages = sum(pymupdf.open(Path(tmp) / f"{c}.pdf").page_count for c in report.generated)
                pages = round(pages / max(1, len(report.generated)), 2)
    return statistics.median(speeds), pages


def main() -> None:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--image", action="store_true", help="also draw a profile image per CV")
    ap.add_argument("--locale", default="mixed")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:  # warm-up
        generate_batch(10, 1, Path(tmp), locale=args.locale)
    print(
        f"factory throughput, {args.count} CVs x {args.runs} runs (median), locale={args.locale}, "
        f"image={'yes' if args.image else 'no'}, llm=no, cpus={os.cpu_count()}"
    )
    print(f"{'layout':<10} {'CVs/s':>8} {'ms/CV':>8} {'pages/CV':>9}")
    for layout in (*LAYOUTS, "mixed"):
        cvs_s, pages = rate(args.count, layout, args.runs, image=args.image, locale=args.locale)
        label = "overall" if layout == "mixed" else layout
        print(f"{label:<10} {cvs_s:>8.1f} {1000 / cvs_s:>8.1f} {pages:>9}")


if __name__ == "__main__":
    main()
