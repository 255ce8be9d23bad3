"""Damaged, read-only and full stores: a typed message (never a traceback) and nothing lost."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from cvrag_desktop.cli import main
from cvrag_desktop.services import Services
from tests.unit.faults.cvs import write_corpus, write_cv

COMMANDS = [["candidates", "list"], ["doctor"], ["search", "Kafka"], ["reindex"], ["people", "list"]]


@pytest.fixture
def imported(tmp_path):
    """A home with three imported CVs; returns (folder, counts before)."""
    folder = tmp_path / "in"
    write_corpus(folder)
    svc = Services()
    report = svc.ingest([folder], use_llm=False, workers=1)
    assert report.ingested == 3
    counts = svc.catalog.counts()
    svc.close()
    return folder, counts


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


def _counts() -> dict:
    svc = Services()
    try:
        return svc.catalog.counts()
    finally:
        svc.close()


def _damage(db: Path, how: str) -> None:
    data = db.read_bytes()
    if how == "truncated":
        db.write_bytes(data[: len(data) // 3])
    elif how == "zeroed":
        db.write_bytes(b"")
    else:  # garbage over the header and the first pages
        db.write_bytes(os.urandom(8192) + data[8192:])


@pytest.mark.parametrize("how", ["truncated", "zeroed", "garbage"])
def test_damaged_catalog_is_reported_and_rebuilt_from_the_library(capsys, imported, how):
    folder, before = imported
    svc = Services()
    db, library = svc.paths.catalog_db, svc.paths.library_dir
    n_library = len(list(library.iterdir()))
    _damage(db, how)
    for argv in [*COMMANDS, ["ingest", str(folder)], ["forget", "--failed"]]:
        code, out, err = run(capsys, *argv)
        assert code == 2, (argv, out, err)
        assert "rebuild-catalog" in err, err
        assert ("damaged" in err) if how != "zeroed" else ("empty" in err), err
    assert len(list(library.iterdir())) == n_library, "no CV file may be lost"
    print(f"\ncatalog {how}: {err.strip()}")
    code, out, err = run(capsys, "doctor", "--rebuild-catalog")
    assert code == 0, err
    after = _counts()
    assert after["candidates"] == before["candidates"] == 3
    assert after["chunks"] == before["chunks"]
    code, out, _ = run(capsys, "search", "Kafka", "--json")
    assert code == 0 and json.loads(out)


def test_damaged_index_is_rebuilt_from_the_catalog(capsys, imported):
    _folder, before = imported
    shard = Services().paths.index_dir / "shard"  # the Qdrant Edge shard (cvrag_desktop/index/edge_store.py)
    segment = next((shard / "segments").iterdir())
    (segment / "segment.json").write_bytes(os.urandom(4096))
    code, out, err = run(capsys, "search", "Kafka", "--json")
    assert code == 0, err
    assert json.loads(out), "the rebuilt index answers"
    for wal in (shard / "wal").iterdir():
        wal.write_bytes(b"garbage" * 100)
    code, out, err = run(capsys, "reindex", "--json")
    assert code == 0, err
    assert json.loads(out)["candidates"] == 3
    assert _counts() == before


def test_full_disk_is_a_typed_error_and_loses_nothing(capsys, imported, tmp_path, monkeypatch):
    """ENOSPC injected through SQLite itself: the catalog may not grow by one more page."""
    _folder, before = imported
    from cvrag_desktop.catalog.db import Catalog

    real_init = Catalog.__init__

    def full_init(self, *a, **kw):
        real_init(self, *a, **kw)
        pages = self._conn.execute("PRAGMA page_count").fetchone()[0]
        self._conn.execute(f"PRAGMA max_page_count={pages}")

    monkeypatch.setattr(Catalog, "__init__", full_init)
    more = tmp_path / "more"
    for i in range(4):
        write_cv(more, f"extra_{i}", f"Extra Person{i} Numbered", f"extra{i}@example.org",
                 f"Shipped the {i}th generation of the widget pipeline with flair and care")
    code, out, err = run(capsys, "ingest", str(more))
    assert code in (0, 2)
    text = out + err
    assert "full" in text.lower(), text
    print(f"\ndisk full: {text.strip()[:400]}")
    monkeypatch.setattr(Catalog, "__init__", real_init)
    after = _counts()
    assert after["candidates"] == before["candidates"] and after["chunks"] == before["chunks"]


def test_two_processes_one_index(capsys, imported):
    """Another process holds the index: search says so; listing and the catalog are unaffected."""
    from tests.unit.faults.test_forget import HOLD_INDEX

    _folder, before = imported
    index_dir = Services().paths.index_dir
    holder = subprocess.Popen([sys.executable, "-c", HOLD_INDEX, str(index_dir)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        assert holder.stdout.readline().strip() == "held"
        code, out, err = run(capsys, "search", "Kafka")
        assert code == 2 and "another CV RAG window or process" in err, err
        message = err.strip()
        code, out, err = run(capsys, "candidates", "list", "--json")
        assert code == 0 and len(json.loads(out)) == 3
        print(f"\ntwo processes: {message}")
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    assert _counts() == before


@pytest.mark.skipif(not shutil.which("setpriv") or os.geteuid() != 0, reason="needs root to drop to nobody")
def test_read_only_home_reads_work_and_writes_are_refused(tmp_path, monkeypatch):
    base = Path(tempfile.mkdtemp(prefix="cvrag-ro-"))
    try:
        home = base / "home"
        monkeypatch.setenv("CVRAG_HOME", str(home))
        folder = base / "in"
        write_corpus(folder)
        svc = Services()
        assert svc.ingest([folder], use_llm=False, workers=1).ingested == 3
        before = svc.catalog.counts()
        svc.close()
        for p in [base, *base.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)  # nobody may read, not write
        env = {**os.environ, "CVRAG_HOME": str(home), "HOME": str(base), "PYTHONDONTWRITEBYTECODE": "1"}

        def cvrag(*argv):
            return subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable,
                                   "-m", "cvrag_desktop.cli", *argv], capture_output=True, text=True, env=env,
                                  cwd=str(Path(__file__).resolve().parents[3]), timeout=300)

        listed = cvrag("candidates", "list", "--json")
        assert listed.returncode == 0, listed.stderr
        assert len(json.loads(listed.stdout)) == 3
        searched = cvrag("search", "Kafka", "--json")
        assert searched.returncode == 0, searched.stderr
        assert json.loads(searched.stdout), "search works on a read-only home"
        for argv in (["ingest", str(folder)], ["forget", "--failed"]):
            r = cvrag(*argv)
            assert "Traceback" not in r.stdout + r.stderr, r.stderr
            assert r.returncode == 2 and "read-only" in r.stderr, (argv, r.stdout, r.stderr)
        print(f"\nread-only home: {r.stderr.strip()}")
        assert _counts() == before
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_damaged_thread_store_is_set_aside(capsys, imported):
    """Garbage in the conversation store: `ask` still answers; the damaged file is kept aside."""
    _folder, before = imported
    data_dir = Services().paths.data_dir
    (data_dir / "threads.sqlite3").write_bytes(os.urandom(16384))
    code, out, err = run(capsys, "ask", "Who knows Kafka?", "--no-llm", "--json")
    assert code == 0, err
    assert json.loads(out)["answer"]
    assert list(data_dir.glob("threads.damaged-*.sqlite3"))
    assert _counts() == before
