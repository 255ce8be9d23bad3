"""Index engines side by side at the store level: Qdrant Edge vs the previous SQLite + numpy engine.

A synthetic corpus (``--cvs`` candidates × 8 chunks; unit dense vectors rounded to
float16, BM25-like sparse vectors over a Zipf vocabulary, filter payloads drawn from
realistic value lists) is written once per engine, then a **fresh process** per engine
opens the folder and runs queries (store calls only: no embedding, no catalog). Printed
per engine: build seconds, open seconds, hybrid / hybrid + 3 filters / hybrid + company
text filter / metadata p50/p95 in ms, RSS (peak) in MB after the queries, disk MB. For
Edge, the on-disk size of each payload index is printed too (what each filter field costs).

The previous engine (``cvrag_desktop.index.local``) was removed after this comparison
(its rows are in docs/index.md); with it gone only the Edge row is printed.

    nice python benchmarks/index_engines.py [--cvs 2000] [--queries 60] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SKILLS = ["python", "java", "go", "kafka", "react", "sql", "sap", "kubernetes", "aws", "excel", "scrum", "csharp",
          "docker", "linux", "figma", "salesforce", "tableau", "spark", "rust", "php"]
COMPANIES = ["banco santander", "acme logistics sa", "globex corp", "initech", "hospital general", "telefonica",
             "indra sistemas", "bbva", "mercadona", "inditex", "siemens", "accenture", "deloitte", "amazon web services"]
TITLES = ["backend developer", "data engineer", "nurse", "project manager", "sales representative", "accountant"]
LANGS = ["english", "spanish", "german", "french"]
VOCAB = 30000


def corpus(cvs: int, seed: int = 7):
    """Rows and candidate payloads, deterministic for a seed."""
    from cvrag_desktop.index.records import Row

    rng, nprng = random.Random(seed), np.random.default_rng(seed)
    zipf = 1.0 / np.arange(1, VOCAB + 1) ** 1.05
    zipf /= zipf.sum()
    rows, payloads = [], {}
    for c in range(cvs):
        cid = f"cand{c:06d}"
        payloads[cid] = {
            "skills": sorted(rng.sample(SKILLS, rng.randint(2, 8))), "languages": sorted(rng.sample(LANGS, 2)),
            "emails": [f"p{c}@example.org"], "name": f"person {c} surname{c % 97}", "title": rng.choice(TITLES),
            "company": rng.choice(COMPANIES), "companies": rng.sample(COMPANIES, rng.randint(1, 4)),
            "degrees": ["grado en ingenieria informatica"], "institutions": ["universidad de sevilla"],
            "certifications": [], "location": "madrid", "years": rng.randint(0, 30)}
        dense = nprng.normal(size=(8, 384)).astype(np.float32)
        dense = (dense / np.linalg.norm(dense, axis=1, keepdims=True)).astype(np.float16).astype(np.float32)
        for k in range(8):
            terms = np.unique(nprng.choice(VOCAB, size=40, p=zipf)).astype(np.uint32)
            weights = nprng.uniform(0.5, 1.9, size=len(terms)).astype(np.float32)
            rows.append(Row(f"{cid}-{k}", cid, rng.choice(["experience", "skills", "summary"]), f"{cid}{k}",
                            dense[k], terms, weights))
    return rows, payloads


def open_engine(engine: str, folder: Path):
    """The engine object on a folder."""
    if engine == "edge":
        from cvrag_desktop.index.edge.engine import EdgeIndex

        return EdgeIndex(folder)
    from cvrag_desktop.index.local import LocalIndex  # the previous engine (removed after the comparison)

    return LocalIndex(folder)


def build(engine: str, folder: Path, cvs: int) -> float:
    """Write the corpus in batches of 16 candidates (as the index lane does); returns seconds."""
    rows, payloads = corpus(cvs)
    by_cand: dict[str, list] = {}
    for r in rows:
        by_cand.setdefault(r.candidate_id, []).append(r)
    e = open_engine(engine, folder)
    ids = list(payloads)
    t0 = time.perf_counter()
    for i in range(0, len(ids), 16):
        part = ids[i:i + 16]
        e.replace(part, [r for c in part for r in by_cand[c]], {c: payloads[c] for c in part})
    dt = time.perf_counter() - t0
    e.close()
    return dt


def rss(field: str) -> float:
    """VmRSS / VmHWM of this process in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def probe(engine: str, folder: Path, queries: int) -> dict:
    """(Child process) open, query, measure."""
    from cvrag_desktop.index.filters import SearchFilters
    from cvrag_desktop.index.records import QueryVectors

    t0 = time.perf_counter()
    e = open_engine(engine, folder)
    e.count()
    out: dict = {"open_s": time.perf_counter() - t0}
    nprng = np.random.default_rng(99)
    zipf_terms = np.arange(1, 3000)
    f3 = SearchFilters(skills=["python"], languages=["english"], min_years=5)
    fco = SearchFilters(companies=["banco santander"])
    runs = {"hybrid": None, "hybrid+3 filters": f3, "hybrid+company": fco}
    qs = []
    for _ in range(queries):
        d = nprng.normal(size=384).astype(np.float32)
        qs.append(QueryVectors(d / np.linalg.norm(d), nprng.choice(zipf_terms, 3, replace=False).astype(np.uint32),
                               np.ones(3, dtype=np.float32)))
    for name, f in runs.items():
        lat = []
        for q in qs:
            t = time.perf_counter()
            e.ranked(q, f, 32, (1.0, 3.0))
            lat.append((time.perf_counter() - t) * 1000)
        out[name] = lat
    lat = []
    for _ in range(min(queries, 20)):
        t = time.perf_counter()
        e.metadata(f3, 8)
        lat.append((time.perf_counter() - t) * 1000)
    out["metadata"] = lat
    out["rss"], out["hwm"] = rss("VmRSS"), rss("VmHWM")
    e.close()
    return out


def allocated(folder: Path) -> int:
    """Bytes actually allocated on disk under a folder (mmap files are sparse: sizes overstate them)."""
    return sum(p.stat().st_blocks * 512 for p in folder.rglob("*") if p.is_file())


def index_sizes(folder: Path) -> dict[str, float]:
    """On-disk MB (allocated) of each payload index of an Edge shard, by folder name, summed over segments."""
    sizes: dict[str, float] = {}
    for seg in (folder / "shard" / "segments").iterdir():
        cfg = seg / "payload_index" / "config.json"
        if not cfg.exists():
            continue
        for d in (seg / "payload_index").iterdir():
            if d.is_dir():
                key = d.name.split("-", 1)[1] if "-" in d.name else d.name  # "<hash>-<field[:8]>-<kind>"
                sizes[key] = sizes.get(key, 0) + allocated(d) / 2**20
    return sizes


def pct(lat: list[float]) -> str:
    """``p50 / p95`` of latencies in ms."""
    a = np.array(lat)
    return f"{np.percentile(a, 50):6.1f} /{np.percentile(a, 95):6.1f}"


def main() -> None:
    """Build each engine's folder, probe it in a fresh process, print the table."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--cvs", type=int, default=2000)
    ap.add_argument("--queries", type=int, default=60)
    ap.add_argument("--workdir", type=Path)
    ap.add_argument("--engines", nargs="+", default=["legacy", "edge"])
    ap.add_argument("--probe", nargs=2, metavar=("ENGINE", "FOLDER"))
    a = ap.parse_args()
    if a.probe:
        print(json.dumps(probe(a.probe[0], Path(a.probe[1]), a.queries)))
        return
    work = a.workdir or Path(tempfile.mkdtemp(prefix="cvrag-idxbench-"))
    engines = [e for e in a.engines if e == "edge" or (ROOT / "cvrag_desktop/index/local.py").exists()]
    results = {}
    for engine in engines:
        folder = work / engine
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        built = build(engine, folder, a.cvs)
        p = subprocess.run([sys.executable, __file__, "--probe", engine, str(folder), "--queries", str(a.queries)],
                           capture_output=True, text=True, check=True)
        results[engine] = {**json.loads(p.stdout.strip().splitlines()[-1]), "build_s": built,
                           "disk": allocated(folder) / 2**20}
    print(f"\n{a.cvs} CVs, {a.cvs * 8} chunks, {a.queries} queries per row, limit 32 per branch (store calls only)")
    print(f"{'engine':8} {'build s':>8} {'open s':>7} {'hybrid p50/p95':>16} {'+3 filters':>16} {'+company':>16} "
          f"{'metadata':>16} {'RSS (peak) MB':>14} {'disk MB':>8}")
    for engine, r in results.items():
        print(f"{engine:8} {r['build_s']:8.1f} {r['open_s']:7.2f} {pct(r['hybrid']):>16} "
              f"{pct(r['hybrid+3 filters']):>16} {pct(r['hybrid+company']):>16} {pct(r['metadata']):>16} "
              f"{r['rss']:6.0f} ({r['hwm']:5.0f}) {r['disk']:8.1f}")
    if "edge" in results:
        print("\nEdge payload indexes on disk (MB):")
        for key, mb in sorted(index_sizes(work / "edge").items(), key=lambda kv: -kv[1]):
            print(f"  {key:40} {mb:7.2f}")
    if not a.workdir:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
