"""Where a query's time goes: per-stage latency on an existing, indexed home.

Stages of a hybrid search: encoding the query (dense MiniLM, BM25 terms), ranking in the
store (dense matmul + BM25 postings + RRF; with a filter, the candidate mask too), and
hydration (text, names and parents from the catalog). Also metadata and filtered
strategies end to end. The scale sweep lives in ``benchmarks/retrieval.py``.

    python benchmarks/search.py --home /tmp/cvrag-home [--queries 40]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

QUERIES = ["Kafka", "Python developer", "led a team of engineers", "Grado en Ingeniería Informática", "React",
           "machine learning models in production", "enfermera", "SAP", "Kubernetes AWS", "customer accounts"]


def ms(samples: list[float]) -> str:
    """'p50 / p95' in milliseconds."""
    s = sorted(samples)
    return f"{1000 * statistics.median(s):7.1f} / {1000 * s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]:7.1f}"


def main() -> None:
    """Print the per-stage table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--queries", type=int, default=40)
    args = ap.parse_args()
    os.environ["CVRAG_HOME"] = str(args.home)
    from cvrag_desktop.catalog.db import Catalog
    from cvrag_desktop.config import Settings, app_paths
    from cvrag_desktop.index.filters import SearchFilters
    from cvrag_desktop.index.search import RRF_WEIGHTS
    from cvrag_desktop.index.service import SearchService

    paths = app_paths()
    svc = SearchService(Catalog(paths.catalog_db), paths, Settings())
    t0 = time.perf_counter()
    n = svc.store.count()
    print(f"{n} chunks; open {time.perf_counter() - t0:.2f} s")
    svc.search("warm up")
    flt = SearchFilters(skills=["Python"])
    stages: dict[str, list[float]] = {k: [] for k in ("dense query", "bm25 query", "rank", "rank + filter",
                                                       "hydrate", "hybrid total", "metadata", "filtered")}
    for i in range(args.queries):
        q = QUERIES[i % len(QUERIES)]
        t = time.perf_counter()
        dense = svc.embedder.query_vectors(q, sparse=False)
        stages["dense query"].append(time.perf_counter() - t)
        t = time.perf_counter()
        sparse = svc.embedder.query_vectors(q, dense=False)
        stages["bm25 query"].append(time.perf_counter() - t)
        dense.terms, dense.weights = sparse.terms, sparse.weights
        t = time.perf_counter()
        raw = svc.store.ranked(dense, None, 32, RRF_WEIGHTS)
        stages["rank"].append(time.perf_counter() - t)
        t = time.perf_counter()
        svc.store.ranked(dense, flt, 32, RRF_WEIGHTS)
        stages["rank + filter"].append(time.perf_counter() - t)
        t = time.perf_counter()
        svc.hydrate(raw[:8])
        stages["hydrate"].append(time.perf_counter() - t)
        for name, fn in (("hybrid total", lambda q=q: svc.search(q, k=8)),
                         ("metadata", lambda: svc.search("", flt, k=8, strategy="metadata")),
                         ("filtered", lambda q=q: svc.search(q, flt, k=8, strategy="filtered"))):
            t = time.perf_counter()
            fn()
            stages[name].append(time.perf_counter() - t)
    print(f"{'stage':<15} {'p50 / p95 ms':>17}")
    for name, values in stages.items():
        print(f"{name:<15} {ms(values)}")
    svc.close()


if __name__ == "__main__":
    main()
