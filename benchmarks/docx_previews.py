"""Word files of the labelled folders: does each get a preview PDF, and do its facts highlight on it?

For every .docx under the given folders (default: the three labelled real folders) the
import's own parse step runs on a copy in a scratch library (``parse_job.parse_file``, the
worker's code), and the preview it returns is checked: every provenance record with a box
should find its value inside that box on its page of the preview (what the preview pane
paints). Prints one row per file — a number and the folder, never a file name (real
people's names are in them) — with lines, pages, render time, parse time and highlights.

    .venv/bin/python benchmarks/docx_previews.py [folder ...]
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = [Path("/work/shared/data") / d for d in ("real-cvs", "real-cvs-extra", "real-cvs-inbox")]


def check(path: Path, scratch: Path) -> dict:
    """Parse one Word file as the import does; measure its preview and count highlighted facts."""
    import pymupdf

    from cvrag_desktop.config import IngestLimits
    from cvrag_desktop.domain import NormalizedCV
    from cvrag_desktop.ingestion.parse_job import parse_file
    from cvrag_desktop.ingestion.preview.docx_preview import render_preview
    from cvrag_desktop.ingestion.read.docx_reader import extract_docx

    library = scratch / "library"
    library.mkdir(parents=True, exist_ok=True)
    stored = library / f"{abs(hash(path)):x}.docx"
    shutil.copy(path, stored)
    limits = IngestLimits()
    started = time.perf_counter()
    result = parse_file(str(stored), "bench", limits.model_dump(), False, None)
    parse_s = time.perf_counter() - started
    if not result.get("ok"):
        return {"ok": False, "status": result.get("status"), "parse_s": parse_s}
    lines = extract_docx(stored, limits).lines
    started = time.perf_counter()
    render_preview(lines)
    render_s = time.perf_counter() - started
    pdf_bytes = result.get("preview_pdf")
    out = {"ok": True, "lines": len(lines), "pages": result["pages"], "parse_s": parse_s, "render_s": render_s,
           "kb": len(pdf_bytes or b"") / 1024, "boxed": 0, "found": 0, "chunks": 0, "chunks_found": 0}
    if not pdf_bytes:
        return out
    cv = NormalizedCV.model_validate_json(result["cv"])
    with pymupdf.open(stream=pdf_bytes) as pdf:
        def found(page, bbox, needle: str) -> bool:
            if page is None or not bbox or page >= pdf.page_count:
                return False
            x0, y0, x1, y1 = bbox
            clip = pymupdf.Rect(x0 - 4, y0 - 4, x1 + 4, y1 + 4)  # the preview's own clip margin
            return bool(pdf[page].search_for(" ".join(needle.split())[:60], clip=clip))

        for p in cv.provenance:
            if p.bbox:
                out["boxed"] += 1
                out["found"] += found(p.page, p.bbox, p.value)
        for c in result["chunks"]:
            if c.get("bbox"):
                out["chunks"] += 1
                first = next((ln for ln in c["text"].splitlines() if len(ln.strip()) >= 3), "")
                out["chunks_found"] += found(c.get("page"), c["bbox"], first.split("\t")[0])
    return out


def main(folders: list[Path]) -> None:
    """Print the per-file table and the totals."""
    files = [(f.parent.parent.name if f.parent.name == "pdf" else f.parent.name, f)
             for d in folders for f in sorted(d.rglob("*")) if f.suffix.lower() == ".docx"]
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        print(f"{'#':>3}  {'folder':<16} {'lines':>5} {'pages':>5} {'render ms':>9} {'parse ms':>8} {'KB':>6} "
              f"{'facts hl':>9} {'chunks hl':>9}  preview+highlights")
        for i, (folder, f) in enumerate(files, 1):
            r = check(f, Path(scratch))
            rows.append(r)
            if not r["ok"]:
                print(f"{i:>3}  {folder:<16} not imported ({r['status']})")
                continue
            good = r["kb"] > 0 and r["found"] > 0
            r["good"] = good
            print(f"{i:>3}  {folder:<16} {r['lines']:>5} {r['pages']:>5} {r['render_s'] * 1000:>9.0f} "
                  f"{r['parse_s'] * 1000:>8.0f} {r['kb']:>6.0f} {r['found']:>4}/{r['boxed']:<4} "
                  f"{r['chunks_found']:>4}/{r['chunks']:<4}  {'yes' if good else 'NO'}")
    ok = [r for r in rows if r["ok"]]
    if not ok:
        print("no Word files imported")
        return
    print(f"\n{sum(r.get('good', False) for r in ok)} of {len(files)} Word files preview with highlights "
          f"({len(files) - len(ok)} not imported)")
    print(f"facts highlighted inside their box: {sum(r['found'] for r in ok)}/{sum(r['boxed'] for r in ok)}; "
          f"chunks: {sum(r['chunks_found'] for r in ok)}/{sum(r['chunks'] for r in ok)}")
    print(f"render per document: median {statistics.median(r['render_s'] for r in ok) * 1000:.0f} ms, "
          f"max {max(r['render_s'] for r in ok) * 1000:.0f} ms; parse (with render) median "
          f"{statistics.median(r['parse_s'] for r in ok) * 1000:.0f} ms; preview size median "
          f"{statistics.median(r['kb'] for r in ok):.0f} KB")


if __name__ == "__main__":
    main([Path(a) for a in sys.argv[1:]] or DEFAULT)
