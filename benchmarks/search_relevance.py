"""Search relevance floor: precision@5 and the share of people shown, with and without the floor.

Usage: python benchmarks/search_relevance.py [--root FOLDER] [--home DIR] [--floors 0.34,0.5,0.67,1.0]

The folder (default: the labelled inbox folder) is imported into ``--home`` (a fresh temporary
home when not given; an existing home is searched as it is). Twenty queries written for this
benchmark, three of them professions nobody in the folder has, are searched the way the
Candidates pane searches (200 hits, grouped per CV file). A CV is relevant to a query when
its *labels* (``labels.json`` next to the folder: titles, skills, degrees, employers,
languages) state every content word of the query, by the same word/stem rule as the floor.
Prints, per floor: mean precision@5 over the queries with a relevant CV, the mean share of
the folder's CVs shown, and how many no-one queries returned no main result.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cvrag_desktop.index.relevance import FLOOR, content_words, found, split_by_floor, words_of

QUERIES = [  # (query, nobody in the folder has it)
    ("nurse", False), ("registered nurse", False), ("accountant", False), ("software engineer", False),
    ("teacher", False), ("python", False), ("bank", False), ("economics", False), ("physics", False),
    ("marketing", False), ("desktop support", False), ("public relations", False), ("machine learning", False),
    ("project manager", False), ("biotechnology", False), ("computer science", False), ("German", False),
    ("airline pilot", True), ("plumber", True), ("pharmacist", True),
]
DEFAULT_ROOT = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-cvs-inbox"


def label_words(label: dict) -> set[str]:
    """The folded words of the labelled facts a query can be about."""
    parts = [label.get("current_title") or "", *(label.get("job_titles") or []), *(label.get("skills") or []),
             *(label.get("degrees") or []), *(label.get("companies") or []), *(label.get("languages") or [])]
    return words_of(" ".join(parts))


def relevant(query: str, words: set[str]) -> bool:
    """Every content word of the query is stated by the labels."""
    wanted = content_words(query)
    return bool(wanted) and all(found(w, words) for w in wanted)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    ap.add_argument("--home", type=Path, default=None)
    ap.add_argument("--floors", default="0,0.34,0.5,0.67,1.0")
    args = ap.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="cvrag_relevance_"))
    os.environ["CVRAG_HOME"] = str(home)
    from cvrag_desktop.app.assembly import App

    svc = App()
    svc.settings.llm_enabled = False
    if not svc.catalog.candidate_rows():
        svc.library.ingest([args.root / "pdf"], use_llm=False)
    labels = {r["file"]: r for r in json.loads((args.root / "labels.json").read_text(encoding="utf-8"))}
    rows = svc.catalog.candidate_rows()
    file_of = {r["candidate_id"]: Path(r.get("source_path") or "").name for r in rows}
    total = len(set(file_of.values()))
    words = {f: label_words(lab) for f, lab in labels.items()}
    results = {q: svc.search.search(q, None, k=200, strategy="hybrid") for q, _ in QUERIES}
    floors = [None] + [float(x) for x in args.floors.split(",")]  # None: no floor, every ranked CV
    print(f"{len(QUERIES)} queries over {total} CV files ({args.root.name})")
    print(f"{'floor':>6} {'P@5*':>6} {'shown':>7} {'no-one queries empty':>22}   (*relevant CVs in the top 5 / min(5, relevant))")
    for floor in floors:
        precisions, shares, empty = [], [], 0
        for q, nobody in QUERIES:
            main_hits = results[q] if floor is None else \
                split_by_floor(results[q], q, key=lambda h: file_of[h["candidate_id"]], floor=floor)[0]
            ranked = list(dict.fromkeys(file_of[h["candidate_id"]] for h in main_hits))
            shares.append(len(ranked) / total)
            wanted = {f for f in words if relevant(q, words[f])}
            if nobody:
                empty += not ranked
                continue
            if wanted:
                top = ranked[:5]
                precisions.append(sum(f in wanted for f in top) / min(5, len(wanted)) if top else 0.0)
        p5 = sum(precisions) / len(precisions) if precisions else 0.0
        print(f"{'none' if floor is None else f'{floor:.2f}':>6} {p5:>6.3f} {sum(shares) / len(shares):>7.1%} {empty:>18}/{sum(n for _, n in QUERIES)}")
    print(f"\nper query at the floor in use (FLOOR = {FLOOR:.2f}): main CVs shown / relevant CVs by labels")
    for q, nobody in QUERIES:
        main_hits, _, _ = split_by_floor(results[q], q, key=lambda h: file_of[h["candidate_id"]])
        ranked = list(dict.fromkeys(file_of[h["candidate_id"]] for h in main_hits))
        wanted = {f for f in words if relevant(q, words[f])}
        hit5 = sum(f in wanted for f in ranked[:5])
        print(f"  {q:<20} shown {len(ranked):>3}  relevant {len(wanted):>3}  relevant in top 5 {hit5}"
              + ("  (nobody has it)" if nobody else ""))
    svc.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
