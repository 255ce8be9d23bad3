"""Peak resident memory of the whole process tree during a mixed import (issue 22, item 6).

Usage: python benchmarks/memory_tree.py [--workers 2] [--good 12] [--budget-mb N]

Builds a mixed batch in a throwaway home — generated CVs (the factory), four hostile files
(`tests/support/hostile.py`: XObject flood, font bomb, lying image, DOCX part bomb) and a
scanned CV (a generated CV's page as an image only, so it needs OCR) — imports it with
`cvrag ingest --no-llm` as a child process, and samples the RSS of that process and all its
descendants every 50 ms (psutil). Prints the peaks: the parent, the largest worker, the
workers together and the whole tree (the sum at one instant), then each file's status.
``--budget-mb`` sets ``limits.memory_budget_mb`` in the home's settings when the
installed version has it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def scanned_pdf(source: Path, dest: Path, dpi: int = 150) -> Path:
    """An image-only copy of ``source`` (each page rendered, no text layer): a scan."""
    import pymupdf

    src = pymupdf.open(source)
    out = pymupdf.open()
    for page in src:
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        new = out.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, stream=pix.tobytes("png"))
    out.save(dest)
    return dest


def build_batch(folder: Path, good: int) -> list[Path]:
    """Generated CVs + four hostile files + one scan, in ``folder``."""
    from cvrag_desktop.factory.pipeline import generate_batch
    from tests.support import hostile

    folder.mkdir(parents=True)
    generate_batch(good, 5, folder / "good", locale="mixed", layout="mixed", use_llm=False)
    pdfs = sorted((folder / "good").rglob("*.pdf"))
    bad = folder / "hostile"
    bad.mkdir()
    hostile.xobject_flood_pdf(bad / "xobject_flood.pdf")
    hostile.font_bomb_pdf(bad / "font_bomb.pdf")
    hostile.lying_image_pdf(bad / "lying_image.pdf")
    hostile.docx_part_bomb(bad / "part_bomb.docx")
    scanned_pdf(pdfs[0], folder / "scan.pdf")
    return [folder]


def sample_tree(proc, peaks: dict) -> None:
    """One sample: RSS of the parent, of each descendant, and their sum."""
    import psutil

    try:
        kids = proc.children(recursive=True)
        parent = proc.memory_info().rss
    except psutil.Error:
        return
    sizes = []
    for k in kids:
        try:
            sizes.append(k.memory_info().rss)
        except psutil.Error:
            continue
    mb = 2**20
    peaks["parent"] = max(peaks["parent"], parent / mb)
    peaks["largest_worker"] = max(peaks["largest_worker"], max(sizes, default=0) / mb)
    peaks["workers"] = max(peaks["workers"], sum(sizes) / mb)
    peaks["tree"] = max(peaks["tree"], (parent + sum(sizes)) / mb)
    peaks["max_children"] = max(peaks["max_children"], len(sizes))


def main() -> None:
    """Build, import while sampling, print."""
    import psutil

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--good", type=int, default=12)
    ap.add_argument("--budget-mb", type=int, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        env = {**os.environ, "CVRAG_HOME": str(home), "CVRAG_NO_LLM": "1"}
        inputs = build_batch(Path(tmp) / "batch", args.good)
        if args.budget_mb:
            os.environ["CVRAG_HOME"] = str(home)
            from cvrag_desktop.config import app_paths, load_settings, save_settings

            paths = app_paths().ensure()
            s = load_settings(paths)
            if "memory_budget_mb" in type(s.limits).model_fields:
                save_settings(s.model_copy(update={"limits": s.limits.model_copy(
                    update={"memory_budget_mb": args.budget_mb})}), paths)
        cli = Path(sys.executable).with_name("cvrag")
        cmd = [str(cli), "ingest", *map(str, inputs), "--no-llm", "--json", "--workers", str(args.workers)]
        peaks = {"parent": 0.0, "largest_worker": 0.0, "workers": 0.0, "tree": 0.0, "max_children": 0}
        t0 = time.perf_counter()
        child = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        proc = psutil.Process(child.pid)
        while child.poll() is None:
            sample_tree(proc, peaks)
            time.sleep(0.05)
        out, err = child.communicate()
        took = time.perf_counter() - t0
        report = json.loads(out) if out.strip().startswith("{") else {}
        print(f"mixed batch: {args.good} generated CVs + 4 hostile files + 1 scan, {args.workers} parse workers asked for (the budget may run fewer), "
              f"{took:.1f} s, ingested {report.get('ingested')}, failed {len(report.get('failed') or [])}")
        print(f"{'peak RSS (MB)':<32}{'':>8}")
        for key, label in (("parent", "parent (GUI/CLI process)"), ("largest_worker", "largest worker"),
                           ("workers", "all workers together"), ("tree", "whole tree (one instant)")):
            print(f"{label:<32}{peaks[key]:>8.0f}")
        print(f"{'processes in the tree (max)':<32}{peaks['max_children'] + 1:>8}")
        for f in report.get("failed") or []:
            print(f"  {f['status']:<12} {Path(f['path']).name}: {str(f.get('error'))[:100]}")
        if child.returncode:
            print(err[-2000:])


if __name__ == "__main__":
    main()
