"""People grouping quality and speed: pairwise precision/recall against the factory's person_id.

Usage: python benchmarks/grouping.py [--count N] [--seed S] [--folder DIR] [--scale 10000] [--workers W]

Generates N factory CVs (default 600, hard cases on: ``updated_cv``/``outdated_cv`` is the
same person twice, ``near_duplicate_name`` a different person whose name nearly or, with
accents dropped, exactly repeats another's) or takes a folder the factory wrote, imports
them into a temporary CVRAG_HOME (no LLM, no OCR, no search index: only the catalog is
needed), groups the documents with the one grouping the browser and the chat share,
and prints:

* pairwise same-person decisions vs truth (every pair of documents: TP/FP/FN, precision,
  recall), overall and for the hard pairs (same person twice; same name key, different person);
* whether the newer CV of each same-person pair is the person's primary document;
* whether the chat's PeopleIndex groups exactly like ``App.list_people``;
* grouping time at the corpus size and at ``--scale`` documents (the corpus copied with a
  distinct name and e-mail per copy, so each copy is new people; stored in the catalog and
  listed end to end through ``list_people``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["CVRAG_DISABLE_OCR"] = "1"
os.environ["CVRAG_NO_LLM"] = "1"


def generate(count: int, seed: int, out: Path) -> Path:
    """Factory CVs with the default hard cases (mixed locales and layouts)."""
    from cvrag_desktop.factory.pipeline import generate_batch

    report = generate_batch(count, seed, out, locale="mixed", layout="mixed")
    print(f"generated {len(report.generated)} CVs in {report.seconds:.1f} s ({len(report.failed)} failed)")
    return out


def truth_of(folder: Path) -> dict[str, dict]:
    """PDF file name -> manifest entry (person_id, hard_cases, related_to)."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return {e["pdf"]: e for e in manifest["cvs"] if e.get("pdf")}


def ingest(folder: Path, workers: int):
    """Import the folder into the current CVRAG_HOME's catalog (no index, no LLM)."""
    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.ingestion.pipeline import Ingestor

    svc = App()
    started = time.perf_counter()
    report = Ingestor(svc.catalog, svc.paths, svc.settings.limits, allow_ocr=False).ingest([folder], workers=workers)
    print(f"ingested {report.ingested} (failed {len(report.failed)}) in {time.perf_counter() - started:.1f} s")
    return svc


def pairwise(groups: dict[str, str], truth: dict[str, str]) -> dict[str, int]:
    """TP/FP/FN over every pair of documents (predicted person id vs true person id)."""
    tp = fp = fn = 0
    for a, b in itertools.combinations(sorted(truth), 2):
        same_pred, same_true = groups[a] == groups[b], truth[a] == truth[b]
        tp += same_pred and same_true
        fp += same_pred and not same_true
        fn += same_true and not same_pred
    return {"tp": tp, "fp": fp, "fn": fn}


def ratio(n: int, d: int) -> str:
    return f"{n / d:.4f}" if d else "n/a"


def quality(svc, entries: dict[str, dict]) -> None:
    """Print the precision/recall table and the primary-document check."""
    from cvrag_desktop.text.names import name_key

    files = {f["candidate_id"]: f["file_name"] for f in svc.library.files() if f.get("candidate_id")}
    snap = svc.directory.snapshot()
    docs = {cid: entries[name] for cid, name in files.items() if name in entries and cid in snap.rows}
    pred = {cid: snap.grouping.by_document[cid] for cid in docs}
    truth = {cid: e["person_id"] for cid, e in docs.items()}
    keys = {cid: name_key(snap.rows[cid].get("name") or "") for cid in docs}
    all_pairs = pairwise(pred, truth)
    same_twice = [(a, b) for a, b in itertools.combinations(sorted(docs), 2) if truth[a] == truth[b]]
    namesakes = [(a, b) for a, b in itertools.combinations(sorted(docs), 2)
                 if truth[a] != truth[b] and keys[a] and keys[a] == keys[b]]
    found = sum(pred[a] == pred[b] for a, b in same_twice)
    glued = sum(pred[a] == pred[b] for a, b in namesakes)
    p = all_pairs["tp"] / (all_pairs["tp"] + all_pairs["fp"]) if all_pairs["tp"] + all_pairs["fp"] else 1.0
    r = all_pairs["tp"] / (all_pairs["tp"] + all_pairs["fn"]) if all_pairs["tp"] + all_pairs["fn"] else 1.0
    print()
    print(f"documents {len(docs)}, true people {len(set(truth.values()))}, grouped people {len(set(pred.values()))}")
    print(f"{'pairs':<44} {'count':>7} {'grouped':>8}")
    print(f"{'same person twice (truth)':<44} {len(same_twice):>7} {found:>8}")
    print(f"{'same name key, different person (truth)':<44} {len(namesakes):>7} {glued:>8}")
    print(f"{'all pairs: TP / FP / FN':<44} {all_pairs['tp']:>7} / {all_pairs['fp']} / {all_pairs['fn']}")
    print(f"{'pairwise precision (target >= 0.99)':<44} {p:>7.4f}")
    print(f"{'pairwise recall    (target >= 0.95)':<44} {r:>7.4f}")
    primary_ok = total = 0
    for a, b in same_twice:
        newer = a if "updated_cv" in docs[a]["hard_cases"] else b if "updated_cv" in docs[b]["hard_cases"] else None
        if newer is None or pred[a] != pred[b]:
            continue
        total += 1
        primary_ok += snap.grouping.people[pred[a]][0] == newer
    print(f"{'newer CV is the primary document':<44} {primary_ok:>7} of {total}")
    for a, b in same_twice:
        if pred[a] != pred[b]:
            print(f"  missed: {entries[files[a]]['cv_id']} + {entries[files[b]]['cv_id']} "
                  f"(keys {keys[a]!r} / {keys[b]!r})")
    for a, b in namesakes:
        if pred[a] == pred[b]:
            print(f"  wrongly grouped: {entries[files[a]]['cv_id']} + {entries[files[b]]['cv_id']}")


def chat_agrees(svc) -> bool:
    """The chat's PeopleIndex groups exactly like the browser's list."""
    from cvrag_desktop.assistant.facts.people import PeopleIndex
    from cvrag_desktop.assistant.facts.store import CatalogFacts

    index = PeopleIndex(CatalogFacts(svc.catalog)).refresh()
    chat = {pid: list(p.documents) for pid, p in index.people.items()}
    return chat == {r["id"]: r["document_ids"] for r in svc.people.list_people()}


def timing(svc, scale: int, repeats: int = 5) -> None:
    """Grouping time at the corpus size and at ``scale`` documents (end to end through list_people)."""
    from cvrag_desktop.catalog.people import document_keys

    snap = svc.directory.snapshot()
    keys = [document_keys(cid, r.get("name"), r["record"], r.get("created_at") or 0.0) for cid, r in snap.rows.items()]
    print()
    print(f"{'documents':>10} {'group_documents':>16} {'list_people (read+parse+group)':>32}")
    _time_row(svc, keys, repeats)
    n = len(keys)
    copies = max(1, -(-scale // n))
    with svc.catalog.transaction() as c:
        for k in range(1, copies):
            sfx = f"-{k}"
            c.execute(f"INSERT INTO candidates SELECT candidate_id || '{sfx}', file_sha256 || '{sfx}', "
                      f"name || ' Copy{k}', replace(emails, '@', '.c{k}@'), phones, current_title, current_company, years_of_experience, "
                      "skills, degrees, institutions, companies, languages, location, record, created_at, grouping "
                      "FROM candidates WHERE instr(candidate_id, '-') = 0")
        c.execute(f"DELETE FROM candidates WHERE rowid IN (SELECT rowid FROM candidates ORDER BY rowid "
                  f"LIMIT -1 OFFSET {scale})")
    snap = svc.directory.snapshot()
    keys = [document_keys(cid, r.get("name"), r["record"], r.get("created_at") or 0.0) for cid, r in snap.rows.items()]
    _time_row(svc, keys, repeats)
    print("(group_documents: the grouping alone, keys precomputed; list_people: cold, catalog read to person rows)")


def _time_row(svc, keys, repeats: int) -> None:
    from cvrag_desktop.catalog.people import group_documents

    links = svc.catalog.person_links()
    pure, full = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        group_documents(keys, links)
        pure.append(time.perf_counter() - t)
        svc.directory._marker = None  # force a rebuild: measure the uncached path
        t = time.perf_counter()
        svc.people.list_people()
        full.append(time.perf_counter() - t)
    print(f"{len(keys):>10} {statistics.median(pure) * 1000:>13.1f} ms {statistics.median(full) * 1000:>29.1f} ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--folder", help="a folder `cvrag generate` wrote (manifest.json + PDFs)")
    ap.add_argument("--scale", type=int, default=10_000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cvrag-grouping-") as tmp:
        os.environ["CVRAG_HOME"] = str(Path(tmp) / "home")
        folder = Path(args.folder) if args.folder else generate(args.count, args.seed, Path(tmp) / "cvs")
        svc = ingest(folder, args.workers)
        try:
            quality(svc, truth_of(folder))
            print(f"\nchat PeopleIndex groups exactly like list_people: {chat_agrees(svc)}")
            timing(svc, args.scale)
        finally:
            svc.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
