"""Blind preview coverage per class on the labelled real CV folders (``blind_coverage.py --classes``).

For each folder (its ``labels.json`` names the person, e-mails and phones of each file) the
files are imported into a temporary CVRAG_HOME (no LLM, no index) and every page is checked
the way the preview paints it: provenance boxes, the identifying-string mask and the page
boxes of ``catalog/privacy/blind_page.py`` (private-life lines, images, a name's parts), all built from
the *extracted* record, as in the GUI. Classes:

- name parts: each part of the labelled name printed as a word (a two-letter part only on a line
  next to another part of the name), e-mails and phones: each labelled value found on the page;
- street-address, date-of-birth (and age), nationality/gender lines: text lines the cue and
  pattern reader (``catalog/privacy/blind_lines.py``) classifies so; marital/religion lines are counted too;
- photos: images drawn on a page at 30 pt or more on both sides.

A thing counts as covered when most of its rectangle lies under a painted box. Only counts are
printed, never CV text.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from blind_coverage import _covered

FOLDERS = ("real-cvs", "real-cvs-extra", "real-cvs-inbox")
CLASSES = ("name parts", "e-mails", "phones", "street addresses", "dates of birth / age",
           "nationality / gender lines", "marital / religion lines", "photos")
LINE_CLASS = {"address": "street addresses", "birth": "dates of birth / age", "age": "dates of birth / age",
              "nationality": "nationality / gender lines", "gender": "nationality / gender lines",
              "marital": "marital / religion lines", "religion": "marital / religion lines"}
PHOTO_SIDE = 30.0
VISIBLE = 0.5  # points: a search hit narrower than this prints nothing (a zero-width character's rectangle)


def _name_part_rects(page, name: str) -> list[tuple]:
    """Rectangles of the labelled name's parts printed as words on the page."""
    parts = {p.casefold().strip(".") for p in re.split(r"[\s,]+", name or "") if len(p.strip(".")) >= 2}
    words = page.get_text("words")
    lines: dict[tuple, list] = {}
    for w in words:
        lines.setdefault((w[5], w[6]), []).append(w)
    keys = list(lines)
    out = []
    for i, k in enumerate(keys):
        near = [t for j in (i - 1, i, i + 1) if 0 <= j < len(keys)
                for t in (w[4].casefold().strip(".,;:()|") for w in lines[keys[j]])]
        for w in lines[k]:
            token = w[4].casefold().strip(".,;:()|")
            if token in parts and (len(token) >= 3 or any(t in parts and len(t) >= 3 for t in near)):
                out.append(tuple(w[:4]))
    return out


def measure(details: list[dict], labels: dict[str, dict], counts: dict[str, list[int]]) -> None:
    """Add this folder's printed / covered counts to ``counts`` (class -> [printed, covered])."""
    import pymupdf

    from cvrag_desktop.catalog.privacy.blind import NAME_MARK, redaction_boxes, redaction_strings
    from cvrag_desktop.catalog.privacy.blind_lines import personal_kind
    from cvrag_desktop.catalog.privacy.blind_page import page_boxes, page_lines
    from cvrag_desktop.ui.widgets.page_render import find_all

    for d in details:
        path = d.get("stored_path")
        label = labels.get(Path(str(d.get("source_path") or d.get("file_name") or "")).name)
        if not path or not str(path).lower().endswith(".pdf") or label is None:
            continue
        boxes = redaction_boxes(d.get("provenance") or [])
        strings = redaction_strings(d)
        names = [m[len(NAME_MARK):] for m in strings if m.startswith(NAME_MARK)]
        with pymupdf.open(path) as doc:
            for pno, page in enumerate(doc):
                covers = [b for p, b in boxes if p == pno] + find_all(page, strings) + page_boxes(page, names)

                def add(cls: str, rects: list, covers=covers) -> None:
                    counts[cls][0] += len(rects)
                    counts[cls][1] += sum(_covered(r, covers) for r in rects)

                add("name parts", _name_part_rects(page, label.get("name") or ""))
                for cls, key in (("e-mails", "emails"), ("phones", "phones")):
                    add(cls, [(r.x0, r.y0, r.x1, r.y1) for v in label.get(key) or []
                              for r in page.search_for(" ".join(str(v).split()))
                              if r.width >= VISIBLE and r.height >= VISIBLE])  # not a zero-width space
                for box, text in page_lines(page):
                    kind = personal_kind(text)
                    if kind:
                        add(LINE_CLASS[kind], [box])
                add("photos", [tuple(i["bbox"]) for i in page.get_image_info()
                               if i["bbox"][2] - i["bbox"][0] >= PHOTO_SIDE and i["bbox"][3] - i["bbox"][1] >= PHOTO_SIDE])


def run_classes(data: Path, ocr: bool, workers: int) -> None:
    """Import each labelled folder and print the per-class table (counts only)."""
    counts = {c: [0, 0] for c in CLASSES}
    for name in FOLDERS:
        folder = data / name
        labels = {Path(x["file"]).name: x for x in json.loads((folder / "labels.json").read_text("utf-8"))}
        with tempfile.TemporaryDirectory(prefix="cvrag-blind-") as home:
            os.environ["CVRAG_HOME"] = home
            from cvrag_desktop.app.assembly import App
            from cvrag_desktop.ingestion.pipeline import Ingestor

            svc = App()
            report = Ingestor(svc.catalog, svc.paths, svc.settings.limits, allow_ocr=ocr).ingest(
                [folder / "pdf"], workers=workers)
            print(f"{name}: ingested {report.ingested} (failed {len(report.failed)}), OCR {'on' if ocr else 'off'}")
            measure([svc.people.get_candidate(r["id"]) for r in svc.people.list_candidates()], labels, counts)
            svc.close()
    print("\n| class | printed | covered | coverage |\n|---|---:|---:|---:|")
    for cls, (n, c) in counts.items():
        print(f"| {cls} | {n} | {c} | {100 * c / n:.1f}% |" if n else f"| {cls} | 0 | 0 | – |")
