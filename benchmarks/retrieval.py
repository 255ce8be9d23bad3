"""Retrieval at scale: index build rate, open time, memory and hybrid latency per corpus size.

For each size (default 500, 2,000 and 10,000 CVs) a catalog of that many generated CVs
is prepared and indexed from scratch, then a *fresh process* opens it the way the app
does (``SearchService`` over the catalog) and runs queries. Printed per size:

- **build CVs/s**: ``SearchService.rebuild()`` (no LLM). The largest size within the source
  corpus is built first from an empty index folder, embedding every chunk (embedding-bound;
  its time is printed as "real embedding build"). Every other size starts from that shard
  and reuses vectors by content digest (smaller sizes are prefixes of the same catalog,
  larger ones copies with new ids), so its figure is the write rate — marked ``(reuse)``.
- **open s**: opening the index (lock + load into memory) in a new process;
  **recon s**: the startup ``reconcile()`` against the catalog (``App.index`` runs it);
  **ready s**: process start → first answered query (imports, models, open, reconcile, query).
- **RSS MB**: resident memory of that process after the queries (peak, VmHWM, in brackets).
- **p50/p95 ms** of ``SearchService.search`` (hydrated hits, k=8) for hybrid, hybrid
  with rerank (only when a cross-encoder is in the models folder), metadata (skill
  filter) and filtered (skill filter + query).

``--backend qdrant-local`` runs the same measurements on the previous design (Qdrant
local mode) with the vectors copied from the new index (so only writes are timed).

    python benchmarks/retrieval.py [--sizes 500 2000 10000] [--source DIR] [--workdir DIR]
                                   [--backend local|qdrant-local] [--queries 40]

``--source`` is a folder holding ``home/`` (a CVRAG_HOME with ingested generated CVs);
without it, 2,000 CVs are generated and ingested (~2 min, no LLM, no indexing).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUERIES = ["Kafka", "Python developer", "led a team of engineers", "Grado en Ingeniería Informática", "React",
           "machine learning models in production", "enfermera", "SAP", "Kubernetes AWS", "customer accounts",
           "C#", "Banco Santander", "data pipelines and warehouses", "German", "Scrum Master"]


def rss_mb(field: str = "VmRSS") -> float:
    """Resident memory of this process in MB: current (VmRSS) or peak (VmHWM; ru_maxrss would
    carry the parent's peak over exec). Linux /proc; elsewhere ru_maxrss."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def probe(home: str, backend: str, n: int) -> None:
    """(Child process) open the index like the app, run queries, print one JSON line."""
    t0 = time.perf_counter()
    os.environ["CVRAG_HOME"] = home
    from cvrag_desktop.catalog.db import Catalog
    from cvrag_desktop.config import Settings, app_paths
    from cvrag_desktop.index.service import SearchService

    if backend == "qdrant-local":
        from cvrag_desktop.index.qdrant_store import QdrantStore

        SearchService._open = lambda self: QdrantStore(path=self.paths.data_dir / "qdrant")
    paths = app_paths()
    svc = SearchService(Catalog(paths.catalog_db), paths, Settings())
    t1 = time.perf_counter()
    svc.store.count()
    out: dict = {"open_s": time.perf_counter() - t1}
    t1 = time.perf_counter()
    svc.reconcile()  # what App.index does on first use
    out["reconcile_s"] = time.perf_counter() - t1
    svc.search("warm up", k=8)
    out["ready_s"] = time.perf_counter() - t0
    runs = {"hybrid": lambda q: svc.search(q, k=8, rerank=False),
            "metadata": lambda q: svc.search("", {"skills": ["Python"]}, k=8, strategy="metadata"),
            "filtered": lambda q: svc.search(q, {"skills": ["Python"]}, k=8, strategy="filtered")}
    if svc.reranker is not None:
        runs["rerank"] = lambda q: svc.search(q, k=8, rerank=True)
    for name, fn in runs.items():
        lat = []
        for i in range(n):
            t = time.perf_counter()
            fn(QUERIES[i % len(QUERIES)])
            lat.append(time.perf_counter() - t)
        lat.sort()
        out[name] = [1000 * lat[len(lat) // 2], 1000 * lat[min(len(lat) - 1, round(0.95 * (len(lat) - 1)))]]
    out["rss_mb"] = rss_mb()
    out["peak_mb"] = rss_mb("VmHWM")
    print(json.dumps(out))


def prep(count: int, root: Path) -> None:
    """(Child process) generate and ingest ``count`` CVs into ``root/home`` without indexing them."""
    os.environ["CVRAG_HOME"] = str(root / "home")
    os.environ["CVRAG_DISABLE_OCR"] = "1"
    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.factory.pipeline import generate_batch

    class NoIndex:  # ingestion's on_saved hook without indexing: the benchmark times the build itself
        def enqueue(self, candidate_id: str) -> None: ...
        def wait_idle(self, timeout: float | None = None) -> bool: return True
        def close(self) -> None: ...

    if not (root / "gen").exists():
        generate_batch(count, 7, root / "gen", locale="es_ES", layout="mixed", use_llm=False)
    svc = App()
    svc._index = NoIndex()
    svc.library.ingest([root / "gen"], use_llm=False)
    svc.close()


def prepare_source(source: Path | None, work: Path, count: int) -> Path:
    """A CVRAG_HOME with ``count`` ingested generated CVs (no index)."""
    if source is not None:
        return source / "home"
    root = work / f"source-{count}"
    if not (root / "home" / "data").exists():
        subprocess.run([sys.executable, __file__, "--prep", str(count), str(root)], check=True)
    return root / "home"


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]


def make_home(source: Path, size: int, dest: Path) -> int:
    """A home whose catalog holds ``size`` candidates: a prefix of the source, or copies with new ids."""
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "data").mkdir(parents=True)
    (dest / "config").mkdir()
    db = dest / "data" / "catalog.sqlite3"
    src_db = source / "data" / "catalog.sqlite3"
    with sqlite3.connect(src_db) as src:
        src.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copy(src_db, db)
    conn = sqlite3.connect(db)
    ids = [r[0] for r in conn.execute("SELECT candidate_id FROM candidates ORDER BY candidate_id")]
    if size <= len(ids):
        drop = ids[size:]
        conn.executemany("DELETE FROM chunks WHERE candidate_id = ?", [(c,) for c in drop])
        conn.executemany("DELETE FROM candidates WHERE candidate_id = ?", [(c,) for c in drop])
    else:
        suffixed = {"candidate_id", "chunk_id", "parent_id", "file_sha256"}
        for copy in range(1, -(-size // len(ids))):
            want = min(len(ids), size - copy * len(ids))
            keep = ids[:want]
            marks = ",".join("?" * len(keep))
            for table in ("candidates", "chunks"):
                cols = _columns(conn, table)
                sel = ", ".join(f"{c} || '~{copy}'" if c in suffixed else c for c in cols)
                conn.execute(f"INSERT INTO {table} ({', '.join(cols)}) SELECT {sel} FROM {table} "
                             f"WHERE candidate_id IN ({marks})", keep)
    conn.commit()
    n = conn.execute("SELECT COUNT(*) FROM candidates").fetchone()[0]
    conn.close()
    return n


def build(home: Path, seed_index: Path | None) -> dict:
    """Rebuild the index of ``home`` from scratch; returns timing (vectors reused from ``seed_index``)."""
    os.environ["CVRAG_HOME"] = str(home)
    from cvrag_desktop.catalog.db import Catalog
    from cvrag_desktop.config import Settings, app_paths
    from cvrag_desktop.index.edge.engine import SHARD_DIR
    from cvrag_desktop.index.service import SearchService

    paths = app_paths().ensure()
    if seed_index is not None:  # the rebuild keeps earlier vectors by digest: start from the source's
        paths.index_dir.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(paths.index_dir / SHARD_DIR, ignore_errors=True)
        shutil.copytree(seed_index / SHARD_DIR, paths.index_dir / SHARD_DIR)
    catalog = Catalog(paths.catalog_db)
    svc = SearchService(catalog, paths, Settings())
    svc.embedder.dense_array(["warm up"] * 8)  # load the sessions outside the timing
    svc.embedder.sparse_query("warm up")
    t0 = time.perf_counter()
    report = svc.rebuild(optimize=True)  # as ``cvrag reindex`` does: the shard's segments sealed
    dt = time.perf_counter() - t0
    out = {"cvs": report["candidates"], "chunks": report["points"], "seconds": dt, **svc.stats}
    svc.close()
    catalog.close()
    return out


def build_qdrant(home: Path, local_index: Path) -> dict:
    """Copy a built local index's vectors into Qdrant local mode (the previous design)."""
    os.environ["CVRAG_HOME"] = str(home)
    from cvrag_desktop.catalog.db import Catalog
    from cvrag_desktop.config import app_paths
    from cvrag_desktop.index.edge.engine import EdgeIndex
    from cvrag_desktop.index.filters import candidate_payload
    from cvrag_desktop.index.qdrant_store import QdrantStore

    folder = app_paths().data_dir / "qdrant"
    shutil.rmtree(folder, ignore_errors=True)
    store = QdrantStore(path=folder)
    catalog = Catalog(app_paths().catalog_db)
    payloads = {r["candidate_id"]: candidate_payload(r) for r in catalog.candidate_rows()}
    catalog.close()
    source = EdgeIndex(local_index)  # the Edge shard's vectors, copied (no re-embedding)
    t0, n = time.perf_counter(), 0
    for rows in source.rows():
        store.replace([], rows, payloads)
        n += len(rows)
    dt = time.perf_counter() - t0
    source.close()
    store.close()
    return {"cvs": len(payloads), "chunks": n, "seconds": dt, "embedded": 0, "reused": n}


def measure(home: Path, backend: str, queries: int) -> dict:
    """Open + query in a fresh process (so open time and memory are the app's)."""
    out = subprocess.run([sys.executable, __file__, "--probe", str(home), backend, str(queries)],
                         capture_output=True, text=True, timeout=3600)
    if out.returncode:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def cell(m: dict, key: str) -> str:
    """'p50 / p95' in ms, or n/a."""
    return f"{m[key][0]:>5.0f} /{m[key][1]:>4.0f}" if key in m else f"{'n/a':>11}"


def main() -> None:
    """Print the scale table."""
    if sys.argv[1:2] == ["--probe"]:
        return probe(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    if sys.argv[1:2] == ["--prep"]:
        return prep(int(sys.argv[2]), Path(sys.argv[3]))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[500, 2000, 10000])
    ap.add_argument("--source", type=Path, default=None)
    ap.add_argument("--source-count", type=int, default=2000)
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--backend", choices=("local", "qdrant-local"), default="local")
    ap.add_argument("--queries", type=int, default=40)
    args = ap.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="cvrag-retrieval-"))
    source = prepare_source(args.source, work, args.source_count)
    unique = sqlite3.connect(source / "data" / "catalog.sqlite3").execute("SELECT COUNT(*) FROM candidates").fetchone()[0]
    print(f"source: {unique} generated CVs in {source}; backend: {args.backend}; cores: {os.cpu_count()}")
    head = (f"{'CVs':>6} {'chunks':>7} {'build CVs/s':>14} {'open s':>7} {'recon s':>8} {'ready s':>8} {'RSS MB':>13}  "
            f"{'hybrid p50/p95':>15} {'+rerank':>11} {'metadata':>11} {'filtered':>11}")
    print(head, flush=True)
    seed: Path | None = None
    # The largest size within the source is built first by really embedding every chunk; the
    # smaller sizes (prefixes of the same catalog) start from its shard and reuse vectors by
    # digest, and larger sizes (copies with new ids) too: embedding happens once.
    within = sorted((s for s in args.sizes if s <= unique), reverse=True)
    order = within + sorted(s for s in args.sizes if s > unique)
    rows: dict[int, str] = {}
    for size in order:
        home = work / f"{args.backend}-{size}"
        local_home = work / f"local-{size}"
        if args.backend == "local":
            make_home(source, size, home)
            b = build(home, seed)
            if seed is None:
                seed = home / "data" / "index"
                print(f"real embedding build: {b['cvs']} CVs, {b['chunks']} chunks in {b['seconds']:.0f} s "
                      f"({b['cvs'] / b['seconds']:.1f} CVs/s; embedded {b['embedded']}, reused {b['reused']})",
                      flush=True)
        else:
            if not (local_home / "data" / "index").exists():
                raise SystemExit(f"run the local backend for {size} first (vectors are copied from it)")
            make_home(source, size, home)
            b = build_qdrant(home, local_home / "data" / "index")
        m = measure(home, args.backend, args.queries)
        rate = f"{b['cvs'] / b['seconds']:.1f}" + (" (reuse)" if b["reused"] and not b["embedded"] else "")
        rows[size] = (f"{b['cvs']:>6} {b['chunks']:>7} {rate:>14} {m['open_s']:>7.2f} {m['reconcile_s']:>8.2f} "
                      f"{m['ready_s']:>8.2f} {m['rss_mb']:>5.0f} ({m['peak_mb']:>5.0f})  {cell(m, 'hybrid'):>15} "
                      f"{cell(m, 'rerank'):>11} {cell(m, 'metadata'):>11} {cell(m, 'filtered'):>11}")
        print(rows[size], flush=True)
    print("\n" + head)
    for size in sorted(rows):
        print(rows[size], flush=True)


if __name__ == "__main__":
    main()
