"""The whole process tree's peak memory on a mixed hostile batch, run several times (issue 35, items 10-12).

Usage: python benchmarks/hostile_batch_memory.py [--runs 3] [--workers 2] [--good 6] [--scans 7]
                                                 [--tree PATH] [--keep DIR]

Builds one batch of invented files under a temporary folder (or ``--keep DIR``):

* ``good/``: ``--good`` generated CVs (``cvrag_desktop.factory``, mixed layouts);
* ``scans/``: ``--scans`` image-only PDFs (a generated CV's first page rendered to a grey image at
  200 dpi, no text layer): each needs the OCR worker; the last one is a one-page scan that must import
  whatever the worker went through before it;
* ``huge.docx``: 50,000 one-line paragraphs (167 KB) under an invented name: it must import, truncated,
  with a warning;
* hostile files that must be refused: a 150-page PDF, a PDF whose one page is 200 x 200 inches of text,
  an XObject flood and a lying image (``tests/support/hostile.py``), a PDF cut in half, random bytes
  named ``.pdf``, an encrypted PDF and an empty file.

Then, ``--runs`` times, imports the batch into a fresh home with ``cvrag ingest --no-llm --json`` as a
child process and samples the RSS of that process and of all its descendants every 50 ms (psutil).
Prints one row per run: seconds, the peaks (parent, largest worker, the whole tree at one instant), the
good files imported out of those expected, and which good file failed, if any. ``--tree PATH`` runs the
package found at PATH (a checkout of another version: the before/after of a change).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from memory_tree import sample_tree, scanned_pdf  # noqa: E402


def huge_docx(dest: Path, paragraphs: int = 50_000) -> Path:
    """A Word file of an invented person followed by ``paragraphs`` one-line paragraphs."""
    from docx import Document

    d = Document()
    for text in ("Zorana Pellworth", "zorana.pellworth@example.org  +44 20 7946 0000", "Experience"):
        d.add_paragraph(text)
    for i in range(paragraphs):
        d.add_paragraph(f"Item {i}")
    d.save(dest)
    return dest


def many_pages_pdf(dest: Path, pages: int = 150) -> Path:
    """A PDF with more pages than a CV has (one line each)."""
    import pymupdf

    doc = pymupdf.open()
    for i in range(pages):
        doc.new_page().insert_text((72, 72), f"Page {i + 1} of a long report by Ottilie Brannock")
    doc.save(dest)
    return dest


def huge_page_pdf(dest: Path, side_pt: float = 14_400.0, rows: int = 400) -> Path:
    """One page 200 x 200 inches, covered in rows of text."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=side_pt, height=side_pt)
    for r in range(rows):
        page.insert_text((36, 36 + r * side_pt / rows), "Ottilie Brannock " * 60, fontsize=20)
    doc.save(dest)
    return dest


def encrypted_pdf(dest: Path) -> Path:
    """A PDF that needs a password to open."""
    import pymupdf

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Quillon Ashgrove, data engineer")
    doc.save(dest, encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner-secret", user_pw="user-secret")
    return dest


def build_batch(folder: Path, good: int, scans: int) -> dict[str, list[str]]:
    """Write the batch; returns the file names that must import (``good``) and those that must not."""
    from cvrag_desktop.factory.pipeline import generate_batch
    from tests.support import hostile

    folder.mkdir(parents=True, exist_ok=True)
    generate_batch(good + scans, 11, folder / "gen", locale="mixed", layout="mixed", use_llm=False)
    made = sorted((folder / "gen").rglob("*.pdf"))
    (folder / "good").mkdir()
    (folder / "scans").mkdir()
    (folder / "bad").mkdir()
    names: dict[str, list[str]] = {"good": [], "bad": []}
    for src in made[:good]:
        dest = folder / "good" / src.name
        dest.write_bytes(src.read_bytes())
        names["good"].append(dest.name)
    for k, src in enumerate(made[good:good + scans]):
        dest = scanned_pdf(_first_page(src, folder / "gen" / f"p1_{src.name}"),
                           folder / "scans" / f"scan_{k + 1}.pdf", dpi=200)
        names["good"].append(dest.name)
    names["good"].append(huge_docx(folder / "good" / "huge.docx").name)
    bad = folder / "bad"
    many_pages_pdf(bad / "many_pages.pdf")
    huge_page_pdf(bad / "huge_page.pdf")
    hostile.xobject_flood_pdf(bad / "xobject_flood.pdf")
    hostile.lying_image_pdf(bad / "lying_image.pdf")
    whole = made[0].read_bytes()
    (bad / "cut_in_half.pdf").write_bytes(whole[: len(whole) // 2])
    (bad / "random_bytes.pdf").write_bytes(b"%PDF-1.7\n" + random.Random(7).randbytes(200_000))
    encrypted_pdf(bad / "encrypted.pdf")
    (bad / "empty.pdf").write_bytes(b"")
    names["bad"] = sorted(p.name for p in bad.iterdir())
    (folder / "gen").rename(folder.parent / f"{folder.name}-sources")  # not imported
    return names


def _first_page(src: Path, dest: Path) -> Path:
    import pymupdf

    doc = pymupdf.open(src)
    doc.select([0])
    doc.save(dest)
    return dest


def run_once(batch: Path, tree: Path, workers: int, home: Path,
             max_seconds: float | None = None) -> tuple[dict, dict, float, str]:
    """One import of the batch in a fresh home: (peaks, the CLI's JSON report, seconds, stderr's tail)."""
    import psutil

    env = {**os.environ, "CVRAG_HOME": str(home), "CVRAG_NO_LLM": "1", "PYTHONPATH": str(tree)}
    if max_seconds:  # e.g. the parse limit a faster machine effectively has (settings.json of the home)
        (home / "config").mkdir(parents=True, exist_ok=True)
        (home / "config" / "settings.json").write_text(json.dumps({"limits": {"max_seconds": max_seconds}}))
    cmd = [sys.executable, "-m", "cvrag_desktop.cli", "ingest", str(batch), "--no-llm", "--json",
           "--workers", str(workers)]
    peaks = {"parent": 0.0, "largest_worker": 0.0, "workers": 0.0, "tree": 0.0, "max_children": 0}
    t0 = time.perf_counter()
    child = subprocess.Popen(cmd, env=env, cwd=str(tree), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc = psutil.Process(child.pid)
    seen: set[int] = set()
    while child.poll() is None:
        sample_tree(proc, peaks)
        with contextlib.suppress(psutil.Error):
            seen.update(k.pid for k in proc.children(recursive=True))
        time.sleep(0.05)
    peaks["processes"] = len(seen)
    out, err = child.communicate()
    report = json.loads(out[out.index("{"):]) if "{" in out else {}
    return peaks, report, time.perf_counter() - t0, err[-1500:]


def main() -> None:
    """Build the batch, import it ``--runs`` times, print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--good", type=int, default=6)
    ap.add_argument("--scans", type=int, default=7)
    ap.add_argument("--tree", type=Path, default=ROOT, help="the package checkout to run (default: this one)")
    ap.add_argument("--keep", type=Path, default=None, help="build (or reuse) the batch in this folder")
    ap.add_argument("--max-seconds", type=float, default=None, help="limits.max_seconds for the import")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        batch = args.keep or Path(tmp) / "batch"
        listing = batch.with_name(batch.name + ".json")
        if batch.exists() and listing.exists():
            names = json.loads(listing.read_text())
        else:
            names = build_batch(batch, args.good, args.scans)
            listing.write_text(json.dumps(names))
        print(f"batch: {len(names['good'])} files that must import ({args.good} generated CVs, {args.scans} scans, "
              f"a 50,000-paragraph DOCX), {len(names['bad'])} that must be refused; {args.workers} parse workers "
              f"asked for; package {args.tree}")
        print(f"{'run':>3} {'seconds':>8} {'parent MB':>10} {'largest worker MB':>18} {'tree MB':>8} "
              f"{'workers started':>16} {'good imported':>14}  failed good files / warnings")
        for run in range(1, args.runs + 1):
            peaks, report, took, err = run_once(batch, args.tree, args.workers, Path(tmp) / f"home-{run}",
                                                args.max_seconds)
            failed = {Path(f["path"]).name: f for f in report.get("failed") or []}
            bad_good = [f"{n}: {failed[n]['status']} ({str(failed[n].get('error'))[:90]})"
                        for n in names["good"] if n in failed]
            imported = len(names["good"]) - len(bad_good) if report else 0
            print(f"{run:>3} {took:>8.1f} {peaks['parent']:>10.0f} {peaks['largest_worker']:>18.0f} "
                  f"{peaks['tree']:>8.0f} {peaks['processes']:>16} {imported:>8}/{len(names['good']):<5}  {'; '.join(bad_good) or '-'}")
            for w in report.get("warnings") or []:
                print(f"    warning {Path(w['path']).name}: {w['warning'][:140]}")
            passed = [n for n in names["bad"] if n not in failed]
            if passed:
                print(f"    refused files that imported: {passed}")
            if not report:
                print(err)


if __name__ == "__main__":
    main()
