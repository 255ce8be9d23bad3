"""Faults around the Edge shard: killed writers, its own lock, damaged shards, the previous engine's files."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cvrag_desktop.config import Settings, app_paths
from cvrag_desktop.errors import IndexLocked
from cvrag_desktop.index.edge import files as edge_files
from cvrag_desktop.index.edge import store
from cvrag_desktop.index.edge.engine import SHARD_DIR, EdgeIndex
from cvrag_desktop.index.edge.store import IndexStore
from tests.unit.index.edge.test_edge_engine import WEIGHTS, query, random_corpus, same_hits

ROOT = str(Path(__file__).resolve().parents[4])
WRITE_THEN_DIE = """
import os, signal, sys
from pathlib import Path
from cvrag_desktop.index.edge.store import IndexStore
from tests.unit.index.edge.test_edge_engine import random_corpus
rows, payloads = random_corpus()
s = IndexStore(Path(sys.argv[1]))
s.replace(list(payloads), rows, payloads)
s.delete_candidate("c5")
print("written", flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # no flush, no close
"""
HOLD_SHARD = """
import sys
from pathlib import Path
from cvrag_desktop.index.edge.engine import EdgeIndex
e = EdgeIndex(Path(sys.argv[1]))  # the shard only, without the app's folder lock
print("held", flush=True)
sys.stdin.read()
"""


def _run(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120, cwd=ROOT)


@pytest.mark.skipif(os.name == "nt", reason="SIGKILL")
def test_killed_writer_loses_nothing_it_wrote(tmp_path):
    """The WAL brings back every point of a process killed before any flush."""
    out = _run(WRITE_THEN_DIE, str(tmp_path / "idx"))
    assert out.returncode == -signal.SIGKILL and "written" in out.stdout, out.stderr
    rows, payloads = random_corpus()
    live = [r for r in rows if r.candidate_id != "c5"]
    s = IndexStore(tmp_path / "idx")
    try:
        assert s.count() == len(live)
        ref = EdgeIndex(tmp_path / "ref")
        ref.replace(list(payloads), live, {c: p for c, p in payloads.items() if c != "c5"})
        for seed in range(3):
            q = query(rows, seed, "dense")
            same_hits(s.ranked(q, None, 10, WEIGHTS), ref.ranked(q, None, 10, WEIGHTS))
        ref.close()
    finally:
        s.close()


@pytest.mark.skipif(os.name == "nt", reason="SIGKILL")
def test_killed_during_indexing_reconcile_restores_the_counts(catalog):
    paths = app_paths()
    code = (
        "import os, signal\nfrom cvrag_desktop.catalog.db import Catalog\nfrom cvrag_desktop.config import "
        "Settings, app_paths\nfrom cvrag_desktop.index.service import SearchService\np = app_paths()\n"
        "svc = SearchService(Catalog(p.catalog_db), p, Settings())\nsvc.index_candidates(['cand_ana', 'cand_ben'])\n"
        "print('half', flush=True)\nos.kill(os.getpid(), signal.SIGKILL)\n")
    out = _run(code)
    assert "half" in out.stdout, out.stderr
    from cvrag_desktop.index.service import SearchService

    svc = SearchService(catalog, paths, Settings())
    try:
        assert {r["candidate_id"] for r in svc.store.scroll(["candidate_id"])} == {"cand_ana", "cand_ben"}
        assert svc.reconcile()["candidates_indexed"] == 2
        assert svc.store.count() == catalog.query("SELECT COUNT(*) AS n FROM chunks")[0]["n"]
    finally:
        svc.close()


def test_shard_held_without_the_folder_lock_is_index_locked(tmp_path):
    """Edge's own lock error (a plain Exception '...WouldBlock') becomes IndexLocked."""
    holder = subprocess.Popen([sys.executable, "-c", HOLD_SHARD, str(tmp_path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(IndexLocked, match="open in another"):
            IndexStore(tmp_path)
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    s = IndexStore(tmp_path)  # released with the holder
    s.close()


def _flip_byte(path: Path, at: int) -> None:
    with path.open("r+b") as fh:
        fh.seek(at)
        b = fh.read(1)
        fh.seek(at)
        fh.write(bytes([b[0] ^ 0x5A]))


def _damage(index_dir: Path, how: str) -> None:
    seg = next((index_dir / SHARD_DIR / "segments").iterdir())
    if how == "newer":
        (seg / "version.info").write_text("99.0.0")
    elif how == "older":
        (seg / "version.info").write_text("0.0.1")
    elif how == "segment":
        (seg / "segment.json").write_bytes(b"\x00garbage")
    elif how == "config":  # garbage in place of the shard's configuration
        (index_dir / SHARD_DIR / "edge_config.json").write_bytes(os.urandom(300))
    elif how == "truncated":  # a segment's vector file cut short
        f = seg / "vector_storage-dense" / "vectors" / "chunk_0.mmap"
        with f.open("r+b") as fh:
            fh.truncate(f.stat().st_size // 3)
    elif how == "flipped":  # one byte of a stored dense vector changed, size unchanged
        _flip_byte(seg / "vector_storage-dense" / "vectors" / "chunk_0.mmap", 1000)
    elif how == "flipped-sparse":
        _flip_byte(seg / "vector_storage-bm25" / "store" / "page_0.dat", 200)
    else:
        for f in (index_dir / SHARD_DIR / "wal").iterdir():
            f.write_bytes(os.urandom(4096))


@pytest.mark.parametrize("how", ["newer", "older", "segment", "config", "truncated", "flipped", "flipped-sparse",
                                 "wal"])
def test_unreadable_shard_is_rebuilt_from_the_catalog(service, catalog, how, caplog):
    n = service.store.count()
    index_dir = service.paths.index_dir
    service.close()
    _damage(index_dir, how)
    from cvrag_desktop.index.service import SearchService

    svc = SearchService(catalog, app_paths(), Settings())
    try:
        before = catalog.query("SELECT candidate_id, name FROM candidates ORDER BY candidate_id")
        assert svc.store.count() == 0
        assert "is damaged" in caplog.text and "rebuilt from the catalog" in caplog.text
        assert "damaged" in svc.status()["repaired"]
        assert (index_dir / (SHARD_DIR + ".damaged")).is_dir()  # moved aside, not deleted
        assert svc.reconcile()["candidates_indexed"] == 4
        assert svc.store.count() == n
        assert svc.search("Kafka", k=1)[0]["candidate_id"] == "cand_ana"
        assert catalog.query("SELECT candidate_id, name FROM candidates ORDER BY candidate_id") == before
        assert len(before) == 4  # nothing lost in the catalog
    finally:
        svc.close()
        store.damaged_dirs.clear()
    again = SearchService(catalog, app_paths(), Settings())  # the rebuilt shard was sealed at close: it opens
    try:
        assert again.store.count() == n
        assert "damaged" in again.status()["repaired"]  # the recorded notice, shown by cvrag doctor
    finally:
        again.close()


def test_clean_close_seals_and_an_intact_shard_passes(tmp_path):
    rows, payloads = random_corpus()
    e = EdgeIndex(tmp_path)
    e.replace(list(payloads), rows, payloads)
    e.close()
    assert (tmp_path / edge_files.SEAL_NAME).exists()
    assert edge_files.check_seal(tmp_path, tmp_path / SHARD_DIR) is None
    e = EdgeIndex(tmp_path)  # opening drops the seal: the files change from here on
    assert not (tmp_path / edge_files.SEAL_NAME).exists()
    assert e.count() == len(rows)
    e.close()
    _flip_byte(next((tmp_path / SHARD_DIR / "segments").iterdir()) / "vector_storage-dense" / "vectors" /
               "chunk_0.mmap", 64)
    assert "changed after it was closed" in edge_files.check_seal(tmp_path, tmp_path / SHARD_DIR)


LEGACY_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE candidates (candidate_id TEXT PRIMARY KEY, payload TEXT NOT NULL);
CREATE TABLE chunks (chunk_id TEXT PRIMARY KEY, candidate_id TEXT NOT NULL, section TEXT NOT NULL,
    digest TEXT NOT NULL, dense BLOB NOT NULL, terms BLOB NOT NULL, weights BLOB NOT NULL);
"""


def _legacy_index(folder: Path) -> tuple[list, dict]:
    """An index folder as the previous engine (SQLite + numpy) left it."""
    rows, payloads = random_corpus()
    folder.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(folder / edge_files.LEGACY_DB)
    conn.executescript(LEGACY_SCHEMA)
    conn.execute("INSERT INTO meta VALUES ('model', 'fingerprint-1')")
    conn.executemany("INSERT INTO candidates VALUES (?, ?)", [(c, json.dumps(p)) for c, p in payloads.items()])
    conn.executemany("INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?)", [
        (r.chunk_id, r.candidate_id, r.section, r.digest, r.dense.astype(np.float16).tobytes(),
         r.terms.astype(np.uint32).tobytes(), r.weights.astype(np.float32).tobytes()) for r in rows])
    conn.commit()
    conn.close()
    return rows, payloads


def test_previous_engine_is_migrated_without_re_embedding(tmp_path, monkeypatch):
    rows, payloads = _legacy_index(tmp_path)
    real = edge_files.legacy_rows
    calls = {"n": 0}

    def interrupted(folder, batch=512):
        for part in real(folder, batch=16):
            calls["n"] += 1
            if calls["n"] == 3:
                raise KeyboardInterrupt("power cut")
            yield part

    monkeypatch.setattr(edge_files, "legacy_rows", interrupted)
    with pytest.raises(KeyboardInterrupt):
        IndexStore(tmp_path)
    assert (tmp_path / edge_files.LEGACY_DB).exists(), "an interrupted migration keeps the old files"
    monkeypatch.setattr(edge_files, "legacy_rows", real)
    s = IndexStore(tmp_path)  # resumes
    try:
        assert not (tmp_path / edge_files.LEGACY_DB).exists()
        assert s.count() == len(rows)
        assert s.client.meta("model") == "fingerprint-1"
        known = s.known_vectors([r.digest for r in rows])
        assert set(known) == {r.digest for r in rows}
        assert np.allclose(known[rows[0].digest][0], rows[0].dense, atol=1e-3)
        ref = EdgeIndex(tmp_path / "ref")
        ref.replace(list(payloads), rows, payloads)
        for seed in range(3):
            same_hits(s.ranked(query(rows, seed), None, 10, WEIGHTS), ref.ranked(query(rows, seed), None, 10, WEIGHTS))
        ref.close()
    finally:
        s.close()


def test_search_goes_on_during_a_rewrite_and_a_killed_swap_is_recovered(tmp_path):
    """Searches run while the shard is rewritten; a rewrite killed between its renames loses nothing."""
    import threading

    rows, payloads = random_corpus()
    e = EdgeIndex(tmp_path)
    e.replace(list(payloads), rows, payloads)
    want = e.ranked(query(rows, 0), None, 10, WEIGHTS)
    t = threading.Thread(target=e.compact)
    t.start()
    seen = 0
    while t.is_alive() or not seen:
        same_hits(e.ranked(query(rows, 0), None, 10, WEIGHTS), want)
        seen += 1
    t.join()
    e.close()
    (tmp_path / SHARD_DIR).rename(tmp_path / (SHARD_DIR + ".old"))  # as if killed between the two renames
    again = EdgeIndex(tmp_path)
    try:
        assert again.count() == len(rows)
    finally:
        again.close()
