"""Forget reaches every copy (issue 22): repair leftovers, moved and copied homes, a kill right after.

Every check greps every file of the whole data home (catalog and its WAL, backups, set-aside
copies, the index shard and its WAL, threads, logs) for the person's name, e-mail, a unique CV
line and id, in raw lower-cased bytes; the library copy (a compressed PDF) is checked by name.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.app.library import LibraryOps
from cvrag_desktop.cli.entry import main
from tests.support.fault_cvs import EMAIL, NAME, PHRASE, write_corpus
from tests.unit.catalog.compliance.test_compliance_forget import grep_home


def _ingest(folder: Path) -> tuple[str, Path]:
    """Import the corpus in the current home; returns the target's id and library copy."""
    write_corpus(folder)
    svc = App()
    try:
        assert svc.library.ingest([folder], use_llm=False, workers=1).ingested == 3
        cid = next(r["id"] for r in svc.people.list_candidates() if r["name"] == NAME)
        return cid, Path(svc.people.get_candidate(cid)["stored_path"])
    finally:
        svc.close()


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


def _names() -> list[str]:
    svc = App()
    try:
        return sorted(r["name"] for r in svc.people.list_candidates())
    finally:
        svc.close()


def _digests(home: Path) -> dict[str, str]:
    return {str(p.relative_to(home)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(home.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("how", ["healthy", "garbage"])
def test_forget_after_a_catalog_rebuild_leaves_nothing(capsys, tmp_path, _isolated_home, how):
    home = _isolated_home
    cid, stored = _ingest(tmp_path / "in")
    db = home / "data" / "catalog.sqlite3"
    if how == "garbage":  # really damaged: the set-aside copy cannot be cleaned by SQL
        data = db.read_bytes()
        db.write_bytes(os.urandom(8192) + data[8192:])
    code, out, _err = _run(capsys, "doctor", "--rebuild-catalog")
    word = "damaged" if how == "garbage" else "previous"  # a sound catalog rebuilt on request is not "damaged"
    assert code == 0 and f"the {word} catalog is kept as" in out, out
    aside = list((home / "data").glob(f"catalog.{word}-*"))
    assert aside and grep_home(home, [NAME]).get(NAME), "the repair keeps a copy naming the person"
    code, out, _err = _run(capsys, "doctor", "--json")
    assert json.loads(out)["leftovers"]["items"][0]["kind"] == f"{word} catalog"

    code, out, _err = _run(capsys, "candidates", "delete", cid)
    assert code == 0, out
    assert "set-aside copies" in out, out
    assert not stored.exists()
    assert grep_home(home, [NAME, EMAIL, PHRASE, cid]) == {}, "still on disk after forgetting"
    assert len(_names()) == 2
    if how == "healthy":  # cleaned, not thrown away: the other people's rows are still in it
        kept = sqlite3.connect(next(p for p in aside if p.name.endswith(".sqlite3")))
        assert kept.execute("SELECT COUNT(*) FROM candidates").fetchone()[0] == 2
        kept.close()


def test_forget_after_a_damaged_shard_was_set_aside(capsys, tmp_path, _isolated_home):
    home = _isolated_home
    cid, _stored = _ingest(tmp_path / "in")
    shard = home / "data" / "index" / "shard"
    (next((shard / "segments").iterdir()) / "segment.json").write_bytes(os.urandom(4096))
    code, out, _err = _run(capsys, "search", "Kafka", "--json")
    assert code == 0 and json.loads(out)
    assert (home / "data" / "index" / "shard.damaged").is_dir()
    assert grep_home(home / "data" / "index", [EMAIL]), "the damaged shard holds the person"
    svc = App()  # the GUI's path: services.delete_person
    svc.people.delete_person(cid)
    assert not svc.last_forget["pending"], svc.last_forget
    assert "index/shard.damaged" in svc.last_forget["leftovers"]["removed"]
    svc.close()
    assert grep_home(home, [NAME, EMAIL, PHRASE, cid]) == {}
    assert len(_names()) == 2


def _make_legacy(data_dir: Path) -> None:
    """Turn the catalog into one from before schema 7: absolute library paths."""
    conn = sqlite3.connect(data_dir / "catalog.sqlite3")
    conn.execute("UPDATE files SET stored_path = ? || '/' || stored_path WHERE stored_path IS NOT NULL",
                 (str(data_dir),))
    conn.execute("UPDATE meta SET value = '6' WHERE key = 'schema_version'")
    conn.commit()
    assert conn.execute("SELECT stored_path FROM files LIMIT 1").fetchone()[0].startswith(str(data_dir))
    conn.close()


@pytest.mark.parametrize("how,legacy", [("move", False), ("copy", False), ("move", True), ("copy", True)])
def test_forget_in_a_moved_or_copied_home(capsys, tmp_path, _isolated_home, monkeypatch, how, legacy):
    original = _isolated_home
    cid, stored = _ingest(tmp_path / "in")
    if legacy:
        _make_legacy(original / "data")
    other = tmp_path / "elsewhere" / "home"
    other.parent.mkdir()
    (shutil.move if how == "move" else shutil.copytree)(str(original), str(other))
    before = _digests(original) if how == "copy" else {}
    monkeypatch.setenv("CVRAG_HOME", str(other))

    code, out, _err = _run(capsys, "candidates", "delete", cid)
    assert code == 0, out
    assert "not removed" not in out, out
    assert not (other / "data" / "library" / stored.name).exists(), "the CV must leave this home's library"
    assert len(list((other / "data" / "library").iterdir())) == 2
    assert grep_home(other, [NAME, EMAIL, PHRASE, cid]) == {}
    assert len(_names()) == 2
    svc = App()
    rows = svc.catalog.query("SELECT stored_path FROM files WHERE stored_path IS NOT NULL")
    assert rows and all(r[0].startswith("library/") for r in rows), [r[0] for r in rows]
    assert all(Path(r["stored_path"]).parent == other / "data" / "library" for r in svc.people.list_candidates())
    svc.close()
    if how == "copy":
        assert _digests(original) == before, "forgetting in a copy must not touch the original home"
        assert (original / "data" / "library" / stored.name).exists()


def test_forget_never_deletes_a_file_outside_the_home(tmp_path, _isolated_home):
    cid, stored = _ingest(tmp_path / "in")
    outside = tmp_path / "not-the-library" / stored.name
    outside.parent.mkdir()
    shutil.copy(stored, outside)
    svc = App()
    with svc.catalog.transaction() as c:  # a row pointing outside the home (hand-edited, or another tool)
        c.execute("UPDATE files SET stored_path = ? WHERE candidate_id = ?", (str(outside), cid))
    report = svc.people.delete_candidate(cid)
    svc.close()
    assert report["refused"] == [str(outside)]
    assert outside.exists(), "a file outside the data home is never deleted"


def test_interrupted_rebuild_is_reported_and_continued(capsys, tmp_path, _isolated_home, monkeypatch):
    home = _isolated_home
    _ingest(tmp_path / "in")
    db = home / "data" / "catalog.sqlite3"
    db.write_bytes(os.urandom(8192) + db.read_bytes()[8192:])
    library = sorted((home / "data" / "library").iterdir())
    real_ingest = LibraryOps.ingest

    def dies_after_one(self, inputs, **kwargs):  # the process is killed after the first file
        real_ingest(self, library[:1], **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(LibraryOps, "ingest", dies_after_one)
    svc = App()
    with pytest.raises(KeyboardInterrupt):
        svc.library.rebuild_catalog()
    svc.close()
    monkeypatch.setattr(LibraryOps, "ingest", real_ingest)
    assert len(list((home / "data").glob("catalog.damaged-*.sqlite3"))) == 1

    code, out, err = _run(capsys, "candidates", "list")
    assert code == 0 and "INCOMPLETE" in err and "1 of 3" in err, err
    code, out, _err = _run(capsys, "doctor", "--json")
    assert "INCOMPLETE" in json.loads(out)["catalog_rebuild"]

    code, out, err = _run(capsys, "doctor", "--rebuild-catalog")
    assert code == 0, out + err
    assert "continued the interrupted rebuild" in out, out
    assert len(list((home / "data").glob("catalog.damaged-*.sqlite3"))) == 1, "no second copy of the data"
    assert len(_names()) == 3
    code, out, err = _run(capsys, "candidates", "list")
    assert "INCOMPLETE" not in err
    code, out, _err = _run(capsys, "doctor", "--json")
    assert json.loads(out)["catalog_rebuild"] == "none in progress"


def test_leftovers_expire_and_can_be_purged_now(capsys, tmp_path, _isolated_home):
    from cvrag_desktop.catalog.compliance.leftovers import RETENTION_DAYS, find_leftovers, purge_leftovers

    home = _isolated_home
    _ingest(tmp_path / "in")
    assert _run(capsys, "doctor", "--rebuild-catalog")[0] == 0
    data = home / "data"
    stale = data / "library" / ".incoming-999999999-abc.tmp"  # a killed import's temp copy (no such pid)
    stale.write_bytes(b"%PDF-1.4 partial")
    kinds = sorted(x.kind for x in find_leftovers(data))
    assert kinds == ["previous catalog", "unfinished import copy"], kinds
    item = next(x for x in find_leftovers(data) if x.kind == "previous catalog")
    assert purge_leftovers(data, now=item.set_aside_at + (RETENTION_DAYS - 1) * 86400) == []
    assert item.path.exists(), "not expired yet"
    gone = purge_leftovers(data, now=item.set_aside_at + (RETENTION_DAYS + 1) * 86400)
    assert item.path in [g.path for g in gone]
    assert _run(capsys, "doctor", "--rebuild-catalog")[0] == 0  # a fresh leftover
    stale.write_bytes(b"%PDF-1.4 partial")
    code, out, _err = _run(capsys, "doctor", "--purge-leftovers")
    assert code == 0 and "removed 2 set-aside copies" in out, out
    assert find_leftovers(data) == []


KILL_AFTER_FORGET = """
import os, signal, sys
from cvrag_desktop.app.assembly import App
from cvrag_desktop.app.library import LibraryOps
svc = App()
svc.index  # opened like the desktop app has it
report = svc.people.delete_candidate(sys.argv[1])
print(report["pending"], flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # no close, no flush
"""


def test_kill_right_after_forget_leaves_nothing_in_the_index_wal(tmp_path, _isolated_home):
    """Forget rewrites the shard with its live points (a fresh WAL) before it returns: safe to kill."""
    home = _isolated_home
    cid, _stored = _ingest(tmp_path / "in")
    assert grep_home(home / "data" / "index", [cid]), "the shard names the candidate before"
    proc = subprocess.run([sys.executable, "-c", KILL_AFTER_FORGET, cid], capture_output=True, text=True,
                          env=os.environ.copy(), timeout=300)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr
    assert (home / "data" / "index" / "shard" / "wal").is_dir()
    assert grep_home(home, [NAME, EMAIL, PHRASE, cid]) == {}
    svc = App()
    assert cid not in {h["candidate_id"] for h in svc.search.search("Kafka ledger reconciliation", k=20)}
    assert len(svc.people.list_candidates()) == 2
    svc.close()
