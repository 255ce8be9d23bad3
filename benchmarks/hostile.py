"""Hostile files through the real import pipeline: status, seconds and the worker's peak RSS per file.

Usage: python benchmarks/hostile.py [--workers N] [--small] [--no-prechecks]

Builds the hostile set of ``tests/support/hostile.py`` (full size unless ``--small``),
imports it with the default limits into a throwaway home (followed by a good CV, which
must import), and prints one row per file. ``--no-prechecks`` raises the cheap
pre-check limits out of the way to show that the worker's memory cap and deadline,
enforced from outside, still stop every file.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["CVRAG_NO_LLM"] = "1"


def main() -> None:
    """Build the set, import it, print the table."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--small", action="store_true", help="small bombs (as in the tests)")
    ap.add_argument("--no-prechecks", action="store_true", help="only the worker's memory cap and deadline")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["CVRAG_HOME"] = str(Path(tmp) / "home")
        from cvrag_desktop.catalog.db import Catalog
        from cvrag_desktop.config import IngestLimits, app_paths
        from cvrag_desktop.ingestion.pipeline import Ingestor
        from tests.support.hostile import hostile_set

        t0 = time.perf_counter()
        files = hostile_set(Path(tmp) / "hostile", full_size=not args.small)
        built = time.perf_counter() - t0
        limits = IngestLimits()
        if args.no_prechecks:
            limits = IngestLimits(max_inflated_mb=1_000_000, max_page_content_mb=1_000_000, max_xobject_depth=10_000,
                                  max_image_pixels=10**12, max_chars=10**9, max_table_cells=10**9,
                                  max_docx_parts=10**6, max_objects=10**8, max_streams=10**8, max_file_mb=10_000)
        paths = app_paths().ensure()
        catalog = Catalog(paths.catalog_db)
        ingestor = Ingestor(catalog, paths, limits, allow_ocr=True)
        t0 = time.perf_counter()
        report = ingestor.ingest(files, workers=args.workers)
        total = time.perf_counter() - t0
        catalog.close()
        print(f"hostile set: {len(files)} files built in {built:.1f} s; limits: max_seconds={limits.max_seconds:g}, "
              f"max_worker_mb={limits.max_worker_mb}" + (" (pre-checks off)" if args.no_prechecks else " (defaults)"))
        print(f"{'file':24} {'KB':>7} {'status':11} {'seconds':>8} {'peak RSS MB':>12}  reason")
        sizes = {f.name: f.stat().st_size for f in files}
        for o in report.files:
            name = o.path.rsplit("/", 1)[-1]
            reason = (o.error or o.name or "").replace(name + ": ", "").replace(name + " ", "")
            print(f"{name:24} {sizes.get(name, 0) / 1024:7.0f} {o.status:11} {o.seconds or 0:8.2f} "
                  f"{o.peak_rss_mb if o.peak_rss_mb is not None else float('nan'):12.0f}  {reason[:110]}")
        print(f"whole batch: {total:.1f} s, workers={args.workers}; good CV imported: "
              f"{any(o.status == 'done' and o.path.endswith('zz_good_cv.pdf') for o in report.files)}")


if __name__ == "__main__":
    main()
