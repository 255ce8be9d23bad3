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

from cvrag_desktop.app.assembly import App
from cvrag_desktop.cli.entry import main
from tests.support.fault_cvs import NAME, write_corpus, write_cv

COMMANDS = [["candidates", "list"], ["doctor"], ["search", "Kafka"], ["reindex"], ["people", "list"]]


@pytest.fixture
def imported(tmp_path):
    """A home with three imported CVs; returns (folder, counts before)."""
    folder = tmp_path / "in"
    write_corpus(folder)
    svc = App()
    report = svc.library.ingest([folder], use_llm=False, workers=1)
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
    svc = App()
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
    svc = App()
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
    shard = App().paths.index_dir / "shard"  # the Qdrant Edge shard (cvrag_desktop/index/edge/engine.py)
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


def test_index_running_out_of_room_during_an_import(capsys, imported, tmp_path, monkeypatch):
    """The index may not grow mid-import: exit 2 says how many CVs wait; the next start indexes them."""
    from cvrag_desktop.catalog.store.disk_space import disk_full
    from cvrag_desktop.index.edge import store

    real_room = store._room

    def no_room(index_dir, what, level="grow"):
        if level == "grow":
            raise disk_full(index_dir, what, 256)
        real_room(index_dir, what, level)

    monkeypatch.setattr(store, "_room", no_room)
    more = tmp_path / "more"
    for i in range(2):
        write_cv(more, f"late_{i}", f"Late Person{i} Numbered", f"late{i}@example.org", f"Tuned the {i}th kiln array")
    code, _out, err = run(capsys, "ingest", str(more), "--no-llm")
    assert code == 2 and "is full" in err and "2 CV(s) were imported, 2 of them are not searchable yet" in err, err
    monkeypatch.setattr(store, "_room", real_room)  # space freed: the next start reconciles
    svc = App()
    try:
        assert svc.catalog.counts()["candidates"] == 5
        assert svc.index.store.count() == svc.catalog.counts()["chunks"]
    finally:
        svc.close()


def test_two_processes_one_index(capsys, imported):
    """Another process holds the index: search says so; listing and the catalog are unaffected."""
    from tests.unit.catalog.compliance.test_compliance_forget import HOLD_INDEX

    _folder, before = imported
    index_dir = App().paths.index_dir
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


NOBODY = pytest.mark.skipif(not shutil.which("setpriv") or os.geteuid() != 0, reason="needs root to drop to nobody")


def _json(r: dict):
    return json.loads(r["out"])


# Every `cvrag` command line on a read-only home: ("read", argv, check of the result) works and says what it
# could not save on stderr as a note; ("write", argv, None) exits 2 saying "read-only". {out} is a folder
# outside the home that anyone may write to; {target}, {other}, {third}, {thread}, {folder}, {jd} come from the home.
READ_ONLY_RUNS = [
    ("read", ["candidates", "list", "--json"], lambda r, f: len(_json(r)) == 3),
    ("read", ["candidates", "show", "{target}", "--json"], lambda r, f: _json(r)["name"] == NAME),
    ("read", ["people"], lambda r, f: "(2 people, 3 documents)" in r["out"]),
    ("read", ["people", "list", "--json"], lambda r, f: sorted(p["documents"] for p in _json(r)) == [1, 2]),
    ("read", ["people", "show", "{other}", "--json"], lambda r, f: len(_json(r)) == 2),
    ("read", ["people", "export-subject", "{target}", "--out", "{out}/subject.zip", "--json"],
     lambda r, f: _json(r)["documents"] == 1 and Path(_json(r)["path"]).is_file()),
    ("read", ["screen", "{target}", "--json"], lambda r, f: next(iter(_json(r).values()))["status"] == "new"),
    ("read", ["search", "Kafka", "--json"], lambda r, f: NAME in {h.get("candidate_name") for h in _json(r)}),
    ("read", ["search", "--skill", "Kafka", "--json"], lambda r, f: len({h["candidate_id"] for h in _json(r)}) == 3),
    ("read", ["ask", "Who knows Kafka?", "--no-llm", "--json"],
     lambda r, f: _json(r)["answer"] and "not saved" in r["err"]),
    ("read", ["ask", "And Docker?", "--thread", "{thread}", "--no-llm"], lambda r, f: f"(thread {f['thread']})" in r["out"]),
    ("read", ["match", "--jd", "{jd}", "--no-llm", "--json"], lambda r, f: len(_json(r)["candidates"]) == 2),
    ("read", ["match", "--jd", "{jd}", "--no-llm", "--csv", "{out}/match.csv"],
     lambda r, f: (Path(f["out"]) / "match.csv").is_file()),
    ("read", ["matches", "--json"], lambda r, f: len(_json(r)) == 1),
    ("read", ["matches", "--open", "1", "--json"], lambda r, f: len(_json(r)["result"]["candidates"]) == 2),
    ("read", ["matches", "--open", "1", "--csv", "{out}/saved.csv"], lambda r, f: (Path(f["out"]) / "saved.csv").is_file()),
    ("read", ["explain", "match", "1", "--rank", "1", "--json"], lambda r, f: _json(r)["rank"] == 1),
    ("read", ["explain", "search", "Kafka", "--rank", "1", "--json"], lambda r, f: _json(r)["rank"] == 1),
    ("read", ["explain", "search", "Kafka", "--rank", "1", "--export", "{out}/why.html"],
     lambda r, f: (Path(f["out"]) / "why.html").is_file()),
    ("read", ["doctor", "--json"], lambda r, f: _json(r)["counts"]["candidates"] == 3 and "read_only" in _json(r)
     and len(_json(r)["leftovers"]["items"]) == 1),
    ("read", ["diagnostics", "--out", "{out}/diag.zip"], lambda r, f: (Path(f["out"]) / "diag.zip").is_file()),
    ("read", ["export", "{out}/all.csv", "--json"],
     lambda r, f: _json(r)["exported"] == 3 and "not recorded in the audit trail" in r["err"]),
    ("read", ["export", "{out}/blind.csv", "--blind", "--json"], lambda r, f: _json(r)["exported"] == 3),
    ("read", ["retention", "status", "--json"], lambda r, f: len(_json(r)["people"]) == 2),
    ("read", ["retention", "due", "--json"], lambda r, f: _json(r) == []),
    ("read", ["retention", "purge"], lambda r, f: "nobody is due" in r["out"]),
    ("read", ["audit", "verify", "--json"], lambda r, f: _json(r)["ok"]),
    ("read", ["audit", "list", "--json"], lambda r, f: {"job_match.save", "chat.answer"} <= {e["action"] for e in _json(r)}),
    ("read", ["audit", "export", "--out", "{out}/audit.csv", "--json"], lambda r, f: _json(r)["exported"] >= 2),
    ("read", ["audit", "retention", "--json"], lambda r, f: _json(r)["retention_days"] > 0),
    ("read", ["generate", "--count", "1", "--out", "{out}/gen", "--no-llm", "--json"],
     lambda r, f: len(_json(r)["generated"]) == 1),
    ("read", ["eval", "--generated", "{out}/gen", "--json"], lambda r, f: bool(_json(r))),
    ("write", ["ingest", "{folder}", "--no-llm"], None),
    ("write", ["demo", "{folder}"], None),
    ("write", ["candidates", "delete", "{target}"], None),
    ("write", ["people", "merge", "{target}", "{other}"], None),
    ("write", ["people", "split", "{third}"], None),
    ("write", ["people", "forget", "{target}"], None),
    ("write", ["people", "forget-document", "{target}"], None),
    ("write", ["screen", "{target}", "--status", "interview"], None),
    ("write", ["screen", "{target}", "--tag", "kafka", "--note", "call back"], None),
    ("write", ["forget", "--failed"], None),
    ("write", ["reindex"], None),
    ("write", ["match", "--jd", "{jd}", "--no-llm", "--save"], None),
    ("write", ["doctor", "--rebuild-catalog"], None),
    ("write", ["doctor", "--backup"], None),
    ("write", ["doctor", "--purge-leftovers"], None),
    ("write", ["retention", "purge", "--confirm"], None),
    ("write", ["retention", "set", "--preset", "DE"], None),
    ("write", ["retention", "consent", "{target}", "--until", "2030-01-01"], None),
    ("write", ["audit", "retention", "--days", "400"], None),
]


@pytest.fixture(scope="module")
def read_only_runs():
    """Every command of READ_ONLY_RUNS run as nobody on a read-only home: (home facts, results by argv)."""
    from tests.support.read_only_home import build_home, lock_down, run_as_nobody, tree_digest

    base = Path(tempfile.mkdtemp(prefix="cvrag-ro-"))  # (pytest's tmp folders are closed to nobody)
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("CVRAG_HOME", str(base / "home"))
            facts = build_home(base)
        out = base / "out"
        lock_down(base, [out])
        facts["out"] = str(out)
        facts["before"] = tree_digest(base / "home")
        runs = [[a.format(**facts) for a in argv] for _, argv, _ in READ_ONLY_RUNS]
        results = run_as_nobody(base, runs)
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("CVRAG_HOME", str(base / "home"))
            facts["after_counts"] = _counts()
        yield facts, {tuple(r["argv"]): r for r in results}
    finally:
        shutil.rmtree(base, ignore_errors=True)


@NOBODY
@pytest.mark.parametrize(("kind", "argv", "check"), READ_ONLY_RUNS, ids=[" ".join(a) for _, a, _ in READ_ONLY_RUNS])
def test_read_only_home_reads_work_and_writes_are_refused(read_only_runs, kind, argv, check):
    """A home nobody may write: every command works or exits 2 saying "read-only"; not one byte of it changes."""
    facts, results = read_only_runs
    r = results[tuple(a.format(**facts) for a in argv)]
    text = r["out"] + r["err"]
    assert "Traceback" not in text and "unexpected error" not in text, text
    if kind == "read":
        assert r["code"] == 0, (argv, r["out"][-2000:], r["err"][-2000:])
        assert "error" not in r["err"].lower(), r["err"]  # what it could not save is a note
        assert check(r, facts), (argv, r["out"][-2000:])
    else:
        assert r["code"] == 2 and "read-only" in r["err"], (argv, r["out"][-2000:], r["err"][-2000:])
    assert r["digest"] == facts["before"], f"{argv} changed the home"
    assert facts["after_counts"] == facts["counts"]


def test_damaged_thread_store_is_set_aside(capsys, imported):
    """Garbage in the conversation store: `ask` still answers; the damaged file is kept aside."""
    _folder, before = imported
    data_dir = App().paths.data_dir
    (data_dir / "threads.sqlite3").write_bytes(os.urandom(16384))
    code, out, err = run(capsys, "ask", "Who knows Kafka?", "--no-llm", "--json")
    assert code == 0, err
    assert json.loads(out)["answer"]
    assert list(data_dir.glob("threads.damaged-*.sqlite3"))
    assert _counts() == before
