"""End-to-end import speed: generated CVs through ``App.ingest`` with the search index, CVs/s and cores used.

Usage: python benchmarks/import_speed.py [--count 300] [--repeats 3] [--baseline DIR] [--workers N]

Generates ``--count`` factory CVs once (seed 7, mixed locales and layouts), then imports them into a
fresh data home per run — hash, library copy, parse in the sandboxed workers, catalog write and the
index lane's embeddings (dense + sparse) and upserts, as the GUI and ``cvrag ingest`` do, no LLM, no
OCR. Each run is its own process; the table shows wall seconds, CVs/s, chunks/s, the CPU seconds of
the whole process tree (parent + workers) and cores used (CPU seconds / wall seconds).

``--baseline DIR`` runs another checkout of the code (e.g. ``git worktree add /tmp/wt HEAD~3``)
alternately with this one, on the same CVs, and prints the median ratio: the machine is noisy, so
only a ratio measured in the same run means anything.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, os, resource, sys, tempfile, time
from pathlib import Path
os.environ["CVRAG_HOME"] = tempfile.mkdtemp(prefix="cvrag-speed-")
os.environ["CVRAG_NO_LLM"] = "1"
os.environ["CVRAG_DISABLE_OCR"] = "1"
from cvrag_desktop.app.assembly import App
files = sorted(Path(sys.argv[1]).glob("*.pdf"))
workers = int(sys.argv[2]) or None
svc = App()
svc.index  # open the index before the clock starts, as the app does at start
c0 = os.times()
t0 = time.perf_counter()
report = svc.library.ingest(files, use_llm=False, workers=workers)
wall = time.perf_counter() - t0
c1 = os.times()
chunks = svc.catalog.query("SELECT COUNT(*) AS n FROM chunks")[0]["n"]
svc.close()
cpu = (c1.user - c0.user) + (c1.system - c0.system) + (c1.children_user - c0.children_user) \
    + (c1.children_system - c0.children_system)
print(json.dumps({"wall": wall, "cpu": cpu, "ingested": report.ingested, "chunks": chunks,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def one_run(code: Path, cvs: Path, workers: int) -> dict:
    """Import ``cvs`` with the code in ``code`` in a fresh process; its measurements."""
    env = {**os.environ, "PYTHONPATH": str(code), "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run([sys.executable, "-c", CHILD, str(cvs), str(workers)], cwd=str(code), env=env,
                         capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        raise SystemExit(f"run failed in {code}:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    """Generate the CVs, run the imports, print the table and the ratio."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--workers", type=int, default=0, help="parse workers (0: the app's default)")
    ap.add_argument("--baseline", type=Path, default=None, help="another checkout to compare with")
    ap.add_argument("--cvs", type=Path, default=None, help="reuse (or create) the CV folder here")
    args = ap.parse_args()
    cvs = args.cvs or Path(tempfile.mkdtemp(prefix="cvrag-speed-cvs-"))
    if not any(cvs.glob("*.pdf")):
        sys.path.insert(0, str(ROOT))
        from cvrag_desktop.factory.pipeline import generate_batch

        generate_batch(args.count, 7, cvs, locale="mixed", layout="mixed")
    n = len(list(cvs.glob("*.pdf")))
    codes = [("this", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    print(f"{n} generated CVs in {cvs}; {os.cpu_count()} CPUs; workers {args.workers or 'default'}")
    print(f"{'code':<9}{'run':>4}{'wall s':>9}{'CVs/s':>8}{'chunks/s':>10}{'CPU s':>8}{'cores':>7}{'peak MB':>9}")
    results: dict[str, list[dict]] = {name: [] for name, _ in codes}
    for i in range(args.repeats):
        for name, code in (codes if i % 2 == 0 else codes[::-1]):  # alternate the order: drift hits both
            r = one_run(code, cvs, args.workers)
            results[name].append(r)
            print(f"{name:<9}{i + 1:>4}{r['wall']:>9.1f}{r['ingested'] / r['wall']:>8.1f}"
                  f"{r['chunks'] / r['wall']:>10.1f}{r['cpu']:>8.1f}{r['cpu'] / r['wall']:>7.2f}{r['peak_mb']:>9.0f}",
                  flush=True)
    print("\nmedians")
    medians = {}
    for name, runs in results.items():
        wall = statistics.median(r["wall"] for r in runs)
        medians[name] = statistics.median(r["ingested"] / r["wall"] for r in runs)
        cores = statistics.median(r["cpu"] / r["wall"] for r in runs)
        print(f"{name:<9} {medians[name]:.1f} CVs/s, {wall:.1f} s, {cores:.2f} cores used, "
              f"{runs[0]['chunks']} chunks, {runs[0]['ingested']} imported")
    if args.baseline:
        ratios = [a["wall"] and (b["wall"] / a["wall"]) for a, b in zip(results["this"], results["baseline"], strict=True)]
        print(f"speed ratio this / baseline (median of paired runs): {statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
