"""Ingestion throughput: CVs/second and peak memory, 1 and 2 workers, no LLM, no OCR.

Usage: python benchmarks/ingest.py [--folder DIR | --generated N] [--copies N] [--repeats R] [--against REF]

Parses the text-bearing PDFs of the folder (default: ../shared/data/real-cvs/pdf, which
includes a 71-page stress file) or N synthetic CVs from the factory (typical 1–2 pages),
each copy made unique (a trailing PDF comment) so deduplication does not skip it.
Prints (1) the per-stage time split of extract → sections → normalize → chunk, and
(2) end-to-end `App.ingest` throughput (hash, copy, parse, catalog write) with
1 and 2 workers — medians of R runs, and the 2-worker/1-worker ratio.

``--against REF`` compares this tree with the code at git ref REF *in the same run*: REF is checked
out into a temporary worktree, and the parse of the same corpus (single process: extract, normalise,
chunk) is timed in fresh processes for each tree in turn, R times, alternating, so that the machine's
noise falls on both; it prints each tree's median ms per CV and the speed ratio (this tree / REF).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, os.environ.get("CVRAG_BENCH_TREE") or str(ROOT))  # --against runs another tree's code
os.environ["CVRAG_DISABLE_OCR"] = "1"
os.environ["CVRAG_NO_LLM"] = "1"


def make_corpus(folder: Path, copies: int, out: Path) -> list[Path]:
    """Unique copies of every text-bearing PDF in ``folder``."""
    import pymupdf

    sources = []
    for p in sorted(folder.glob("*.pdf")):
        with pymupdf.open(p) as d:
            if sum(len(pg.get_text()) for pg in d) > 50:
                sources.append(p)
    files = []
    for n in range(copies):
        for src in sources:
            dst = out / f"{src.stem}__{n}.pdf"
            dst.write_bytes(src.read_bytes() + f"\n% copy {n}\n".encode())
            files.append(dst)
    return files


def stage_split(files: list[Path]) -> dict[str, float]:
    """Seconds spent per stage over ``files`` (single process)."""
    from cvrag_desktop.ingestion.chunking import build_chunks
    from cvrag_desktop.ingestion.layout.sections import find_sections
    from cvrag_desktop.ingestion.normalize import normalize_document
    from cvrag_desktop.ingestion.read.extract import extract_document

    t = {"extract": 0.0, "sections": 0.0, "normalize (incl. sections)": 0.0, "chunk": 0.0}
    for f in files:
        a = time.perf_counter()
        doc = extract_document(f)
        b = time.perf_counter()
        find_sections(doc)
        c = time.perf_counter()
        cv, blocks = normalize_document(doc)
        d = time.perf_counter()
        build_chunks("x", cv, doc, blocks)
        e = time.perf_counter()
        t["extract"] += b - a
        t["sections"] += c - b
        t["normalize (incl. sections)"] += d - c
        t["chunk"] += e - d
    return t


def end_to_end(files: list[Path], workers: int, *, with_index: bool = False) -> tuple[float, int]:
    """Seconds to ingest ``files`` into a fresh home (catalog only, or also the search index)."""
    with tempfile.TemporaryDirectory() as home:
        os.environ["CVRAG_HOME"] = home
        from cvrag_desktop.catalog.db import Catalog
        from cvrag_desktop.config import app_paths, load_settings
        from cvrag_desktop.ingestion.pipeline import Ingestor

        if with_index:
            from cvrag_desktop.app.assembly import App

            svc = App()
            start = time.perf_counter()
            report = svc.library.ingest(files, use_llm=False, workers=workers)
            elapsed = time.perf_counter() - start
            svc.close()
            return elapsed, report.ingested
        paths = app_paths().ensure()
        catalog = Catalog(paths.catalog_db)
        ingestor = Ingestor(catalog, paths, load_settings(paths).limits, allow_ocr=False)
        start = time.perf_counter()
        report = ingestor.ingest(files, workers=workers)
        elapsed = time.perf_counter() - start
        catalog.close()
        return elapsed, report.ingested


def parse_seconds(files: list[Path]) -> float:
    """Seconds to read, normalise and chunk ``files`` in this process (the parse an import runs per CV)."""
    from cvrag_desktop.ingestion.chunking import build_chunks
    from cvrag_desktop.ingestion.normalize import normalize_document
    from cvrag_desktop.ingestion.read.extract import extract_document

    start = time.perf_counter()
    for f in files:
        doc = extract_document(f)
        cv, blocks = normalize_document(doc)
        build_chunks("x", cv, doc, blocks)
    return time.perf_counter() - start


def against(ref: str, files: list[Path], repeats: int) -> None:
    """Time the parse of ``files`` with this tree and with ``ref``'s code, alternating, in fresh processes."""
    import subprocess

    with tempfile.TemporaryDirectory(prefix="cvrag-bench-ref-") as tmp:
        base = Path(tmp) / "ref"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), ref],
                       check=True, capture_output=True)
        try:
            listing = Path(tmp) / "files.txt"
            listing.write_text("\n".join(str(f) for f in files), encoding="utf-8")
            times: dict[str, list[float]] = {"this tree": [], ref: []}
            for _ in range(repeats):
                for label, tree in (("this tree", ROOT), (ref, base)):
                    env = {**os.environ, "CVRAG_BENCH_TREE": str(tree), "PYTHONPATH": str(tree)}
                    run = subprocess.run([sys.executable, __file__, "--time-parse", str(listing)], env=env,
                                         capture_output=True, text=True)
                    if run.returncode != 0:
                        raise SystemExit(f"the timed run of {label} failed:\n{run.stderr[-2000:]}")
                    out = run.stdout
                    times[label].append(float(out.split()[-1]))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], capture_output=True)
    print(f"\nparse (extract + normalise + chunk), {len(files)} CVs, median of {repeats} alternating runs")
    print(f"{'code':<14}{'ms/CV':>8}  runs (s)")
    for label, runs in times.items():
        print(f"{label[:14]:<14}{statistics.median(runs) / len(files) * 1000:>8.1f}  {' '.join(f'{r:.2f}' for r in runs)}")
    ratio = statistics.median(times[ref]) / statistics.median(times["this tree"])
    print(f"speed ratio this tree / {ref}: {ratio:.2f} (>= 1 is as fast or faster)")


def main() -> None:
    """Run the benchmark and print the tables."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--folder", default=str(ROOT.parent / "shared" / "data" / "real-cvs" / "pdf"))
    ap.add_argument("--copies", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--generated", type=int, default=0, help="benchmark N factory CVs instead of --folder")
    ap.add_argument("--with-index", action="store_true", help="also time a full import including indexing")
    ap.add_argument("--against", metavar="REF", help="compare the parse speed with the code at git ref REF")
    ap.add_argument("--time-parse", metavar="LIST", help=argparse.SUPPRESS)  # one timed run (for --against)
    args = ap.parse_args()
    if args.time_parse:
        print(f"seconds {parse_seconds([Path(p) for p in Path(args.time_parse).read_text().splitlines()]):.4f}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.folder)
        if args.generated:
            from cvrag_desktop.factory.pipeline import generate_batch

            folder = Path(tmp) / "generated"
            generate_batch(args.generated, 7, folder, locale="mixed", layout="mixed")
            args.copies = 1
        files = make_corpus(folder, args.copies, Path(tmp))
        pages = 0
        import pymupdf

        for f in files:
            with pymupdf.open(f) as d:
                pages += d.page_count
        print(f"corpus: {len(files)} PDFs, {pages} pages ({args.copies} unique copies of each text-bearing CV)")
        if args.against:
            against(args.against, files[: len(files) // args.copies], args.repeats)
            return
        one_each = files[: len(files) // args.copies]
        split = stage_split(one_each)
        total = sum(v for k, v in split.items() if k != "sections")
        print("\nwhere the time goes (single process, one copy of each CV)")
        print(f"{'stage':<28}{'ms/CV':>8}{'share':>8}")
        for k, v in split.items():
            share = "" if k == "sections" else f"{v / total:>7.0%}"
            print(f"{k:<28}{v / len(one_each) * 1000:>8.1f}{share:>8}")
        print("\nimport without indexing (hash + library copy + parse + catalog write), median of", args.repeats, "runs")
        print(f"{'workers':<9}{'CVs/s':>8}{'pages/s':>9}{'seconds':>9}{'peak RSS MB':>13}")
        rates = {}
        for workers in (1, 2):
            runs = [end_to_end(files, workers) for _ in range(args.repeats)]
            secs = statistics.median(r[0] for r in runs)
            assert all(r[1] == len(files) for r in runs), runs
            rates[workers] = len(files) / secs
            peak_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            peak_children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            peak = max(peak_self, peak_children)
            print(f"{workers:<9}{rates[workers]:>8.1f}{pages / secs:>9.1f}{secs:>9.2f}{peak:>13.0f}")
        print(f"\nspeed-up 2 workers / 1 worker: {rates[2] / rates[1]:.2f}x")
        if args.with_index:
            secs, n = end_to_end(files, 2, with_index=True)
            print(f"\nimport + search index (embeddings), 2 workers: {n / secs:.1f} CVs/s ({secs:.1f} s)")


if __name__ == "__main__":
    main()
