"""Index build throughput, local-mode open time, memory and query latency per strategy.

1. Build: every chunk of an ingested catalog is embedded (dense + BM25) and upserted into
   a fresh local index — chunks/s and CVs/s (no LLM; embedding-bound).
2. Scale: the embedded points are replicated (new ids, candidates of ~8 chunks) into local
   indexes of each size; then open time (a fresh process opening the folder), resident
   memory after open, and p50/p95 latency of hybrid, metadata and filtered queries.

    python benchmarks/search.py [--home /tmp/cvrag-home] [--sizes 1000 10000] [--queries 30]

``--home`` is a CVRAG_HOME with ingested CVs (default: generate and ingest 100 CVs).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUERIES = ["Kafka", "Python developer", "led a team of engineers", "Grado en Ingeniería Informática", "React",
           "machine learning models in production", "enfermera", "SAP", "Kubernetes AWS", "customer accounts"]
OPEN_CODE = """
import sys, time, resource
t = time.perf_counter()
from cvrag_desktop.index.store import IndexStore
s = IndexStore(__import__('pathlib').Path(sys.argv[1]))
n = s.count()
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, n)
"""


def ingested_home(home: str | None) -> Path:
    """A CVRAG_HOME with candidates (generated + ingested when not given)."""
    if home:
        return Path(home)
    root = Path(tempfile.mkdtemp(prefix="cvrag-bench-"))
    os.environ["CVRAG_HOME"] = str(root / "home")
    from cvrag_desktop.factory.pipeline import generate_batch
    from cvrag_desktop.services import Services

    generate_batch(100, 5, root / "gen", locale="es_ES", layout="mixed", use_llm=False)
    svc = Services()
    svc.ingest([root / "gen"], use_llm=False)
    svc.close()
    return root / "home"


def pct(values: list[float], p: float) -> float:
    """Percentile in milliseconds."""
    values = sorted(values)
    return 1000 * values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def time_queries(r, n: int) -> dict[str, list[float]]:
    """Seconds per query for each strategy (skill filter "Python" for metadata/filtered)."""
    from cvrag_desktop.index.filters import SearchFilters

    flt = SearchFilters(skills=["Python"])
    lat: dict[str, list[float]] = {"hybrid": [], "metadata": [], "filtered": []}
    for i in range(n):
        q = QUERIES[i % len(QUERIES)]
        for name, fn in (("hybrid", lambda q=q: r.search_hybrid(q, None, 8)),
                         ("metadata", lambda: r.search_metadata(flt, 8)),
                         ("filtered", lambda q=q: r.search_metadata_then_rerank(q, flt, 8))):
            t0 = time.perf_counter()
            fn()
            lat[name].append(time.perf_counter() - t0)
    return lat


def main() -> None:
    """Print the build and latency tables."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--home", default=None)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--queries", type=int, default=30)
    args = ap.parse_args()
    home = ingested_home(args.home)
    os.environ["CVRAG_HOME"] = str(home)
    from qdrant_client import models

    from cvrag_desktop.config import AppPaths, Settings, app_paths
    from cvrag_desktop.index.search import Retriever
    from cvrag_desktop.index.service import SearchService
    from cvrag_desktop.index.store import IndexStore, point_id
    from cvrag_desktop.services import Services

    svc = Services()
    work = Path(tempfile.mkdtemp(prefix="cvrag-index-bench-"))
    base = app_paths()
    paths = AppPaths(work / "build", base.config_dir, base.log_dir)  # index into a scratch folder
    search = SearchService(svc.catalog, paths, Settings())
    search.embedder.dense(["warm up"])
    search.embedder.sparse_query("warm up")
    counts = svc.catalog.counts()
    t0 = time.perf_counter()
    search.rebuild()
    dt = time.perf_counter() - t0
    print(f"== build: {counts['candidates']} CVs, {counts['chunks']} chunks in {dt:.1f} s -> "
          f"{counts['candidates'] / dt:.2f} CVs/s, {counts['chunks'] / dt:.1f} chunks/s "
          f"(embedding threads: {search.embedder._threads}) ==")
    points, offset = [], None
    while True:
        page, offset = search.store.client.scroll("cvrag_chunks_v1", limit=1024, offset=offset,
                                                  with_payload=True, with_vectors=True)
        points += page
        if offset is None:
            break
    search.close()
    print(f"{'points':>8} {'upsert s':>9} {'open s':>7} {'RSS MB':>7}  "
          + "  ".join(f"{s + ' p50/p95 ms':>22}" for s in ("hybrid", "metadata", "filtered")))
    for size in args.sizes:
        index_dir = work / f"scale-{size}"
        store = IndexStore(index_dir)
        batch, t0 = [], time.perf_counter()
        for i in range(size):
            src = points[i % len(points)]
            payload = dict(src.payload, chunk_id=f"c{i}", candidate_id=f"cand{i // 8}")
            batch.append(models.PointStruct(id=point_id(f"c{i}"), vector=src.vector, payload=payload))
            if len(batch) == 512:
                store.upsert(batch)
                batch = []
        store.upsert(batch)
        upsert_s = time.perf_counter() - t0
        store.close()
        out = subprocess.run([sys.executable, "-c", OPEN_CODE, str(index_dir)], capture_output=True, text=True)
        open_s, rss, _n = out.stdout.split()
        store = IndexStore(index_dir)
        lat = time_queries(Retriever(store, search.embedder, lambda ids: {}), args.queries)
        store.close()
        print(f"{size:>8} {upsert_s:>9.1f} {float(open_s):>7.2f} {float(rss):>7.0f}  "
              + "  ".join(f"{pct(v, 50):>11.0f} /{pct(v, 95):>8.0f}" for v in lat.values()))
    svc.close()


if __name__ == "__main__":
    main()
