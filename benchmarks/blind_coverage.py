"""Blind-mode preview coverage: how many identifying values have a provenance box to redact.

Usage: python benchmarks/blind_coverage.py [--folder ../shared/data/real-cvs/pdf] [--no-ocr] [--workers W]
       python benchmarks/blind_coverage.py --classes [--no-ocr]   (the three labelled folders, per class)

Blind screening paints a rectangle over every identifying field on the PDF preview, from
the catalog's per-field provenance (page + bbox). A value extracted without a box (e.g.
one the LLM filled in, or read from a line the layout stage lost) stays visible on the
page, so this measures the real coverage: the folder is imported into a temporary
CVRAG_HOME (no LLM, no search index: only the catalog is needed) and for the name,
e-mails, phones and location of every candidate it prints how many values were found
and how many have a provenance box on a page; then, for the name, e-mails and phones, how many
times each is printed on the pages and how many of those prints the preview covers with the
provenance boxes alone and with its string mask too. No CV text is printed.

``--classes`` runs the three labelled folders (real-cvs, real-cvs-extra, real-cvs-inbox) and
prints, per class, how many are printed and how many the blind preview covers with everything
it paints (``benchmarks/blind_classes.py``): name parts and e-mails and phones from the labels,
street-address, date-of-birth and nationality/gender lines and photos from the page itself.
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
FIELDS = ("name", "emails", "phones", "location")


def norm(value: object) -> str:
    """Compare values ignoring case and spacing (a phone printed with spaces is the same phone)."""
    return "".join(str(value or "").split()).casefold()


def coverage(details: list[dict]) -> dict[str, tuple[int, int]]:
    """Per field: (values found, values with a provenance box on a page)."""
    from cvrag_desktop.catalog.privacy.blind import is_identifying

    out = {f: [0, 0] for f in FIELDS}
    for d in details:
        boxed: dict[str, set[str]] = {f: set() for f in FIELDS}
        for p in d.get("provenance") or []:
            field = str(p.get("field") or "")
            base = field.split("[")[0].split(".")[0]
            if is_identifying(field) and base in boxed and p.get("bbox") is not None and p.get("page") is not None:
                boxed[base].add(norm(p.get("value")))
        for f in FIELDS:
            raw = d.get(f)
            values = [v for v in (raw if isinstance(raw, list) else [raw]) if v]
            out[f][0] += len(values)
            out[f][1] += sum(norm(v) in boxed[f] for v in values)
    return {f: (n, b) for f, (n, b) in out.items()}


def _covered(rect, covers, pad: float = 2.0) -> bool:
    """Whether most of ``rect`` lies under one of ``covers`` (padded like the preview paints them)."""
    x0, y0, x1, y1 = rect
    area = max((x1 - x0) * (y1 - y0), 1e-6)
    for c0, d0, c1, d1 in covers:
        w = min(x1, c1 + pad) - max(x0, c0 - pad)
        h = min(y1, d1 + pad) - max(y0, d0 - pad)
        if w > 0 and h > 0 and w * h >= 0.5 * area:
            return True
    return False


def printed(details: list[dict]) -> dict[str, list[int]]:
    """Per field: [times the value is printed on a page, covered by provenance boxes, covered by boxes
    or the preview's string mask]. A name in a footer or on page 2's header has no provenance box."""
    import pymupdf

    from cvrag_desktop.catalog.privacy.blind import redaction_boxes, redaction_strings
    from cvrag_desktop.ui.widgets.page_render import find_all

    out = {f: [0, 0, 0] for f in ("name", "emails", "phones")}
    for d in details:
        path = d.get("stored_path")
        if not path or not str(path).lower().endswith(".pdf"):
            continue
        boxes = redaction_boxes(d.get("provenance") or [])
        strings = redaction_strings(d)
        with pymupdf.open(path) as doc:
            for pno, page in enumerate(doc):
                on_page = [b for p, b in boxes if p == pno]
                masked = find_all(page, strings)
                for f in out:
                    raw = d.get(f)
                    for v in (raw if isinstance(raw, list) else [raw]):
                        for r in (page.search_for(" ".join(str(v).split())) if v else []):
                            rect = (r.x0, r.y0, r.x1, r.y1)
                            out[f][0] += 1
                            out[f][1] += _covered(rect, on_page)
                            out[f][2] += _covered(rect, on_page + masked)
    return out


def table(cov: dict[str, tuple[int, int]]) -> str:
    """The printed table (also pasted into docs/ui.md)."""
    lines = ["| field | values found | with a provenance box | coverage |", "|---|---:|---:|---:|"]
    tn = tb = 0
    for f, (n, b) in cov.items():
        tn, tb = tn + n, tb + b
        lines.append(f"| {f} | {n} | {b} | {100 * b / n:.0f}% |" if n else f"| {f} | 0 | 0 | – |")
    lines.append(f"| **all** | {tn} | {tb} | {100 * tb / tn:.0f}% |" if tn else "| **all** | 0 | 0 | – |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folder", type=Path, default=ROOT.parent / "shared" / "data" / "real-cvs" / "pdf")
    ap.add_argument("--no-ocr", action="store_true", help="skip OCR of scanned pages (faster)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--classes", action="store_true", help="per class on the three labelled folders")
    args = ap.parse_args()
    if args.classes:
        from blind_classes import run_classes

        run_classes(ROOT.parent / "shared" / "data", not args.no_ocr, args.workers)
        return
    with tempfile.TemporaryDirectory(prefix="cvrag-blind-") as home:
        os.environ["CVRAG_HOME"] = home
        from cvrag_desktop.app.assembly import App
        from cvrag_desktop.ingestion.pipeline import Ingestor

        svc = App()
        started = time.perf_counter()
        report = Ingestor(svc.catalog, svc.paths, svc.settings.limits, allow_ocr=not args.no_ocr).ingest(
            [args.folder], workers=args.workers)
        print(f"{args.folder.name}: ingested {report.ingested} (failed {len(report.failed)}) "
              f"in {time.perf_counter() - started:.1f} s, OCR {'off' if args.no_ocr else 'on'}")
        details = [svc.people.get_candidate(r["id"]) for r in svc.people.list_candidates()]
        print(f"{len(details)} candidates\n")
        print(table(coverage(details)))
        print("\nWhere the extracted values are printed (text layer; every page):")
        print("| field | printed | under a provenance box | under a box or the string mask |")
        print("|---|---:|---:|---:|")
        for f, (n, b, m) in printed(details).items():
            print(f"| {f} | {n} | {b} | {m} |")
        svc.close()


if __name__ == "__main__":
    main()
