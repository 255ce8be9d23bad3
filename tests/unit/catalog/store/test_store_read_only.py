"""Reading a store of a read-only folder: nothing is written beside it, changes still in its log are seen."""

from __future__ import annotations

import shutil
import sqlite3

from cvrag_desktop.catalog.store.read_only import add_note, connect_read_only, memory_copy, take_notes


def _wal_db_with_pending_log(folder):
    """A WAL database whose last row is only in its -wal (copied while the writer was still open)."""
    src = folder / "src"
    src.mkdir()
    conn = sqlite3.connect(str(src / "s.sqlite3"), isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE t (v TEXT)")
    conn.execute("INSERT INTO t VALUES ('in the log only')")
    home = folder / "home"
    home.mkdir()
    for name in ("s.sqlite3", "s.sqlite3-wal"):
        shutil.copyfile(src / name, home / name)
    conn.close()
    return home / "s.sqlite3"


def test_pending_log_is_read_and_nothing_written_beside(tmp_path):
    db = _wal_db_with_pending_log(tmp_path)
    before = {p.name: p.read_bytes() for p in db.parent.iterdir()}
    conn = connect_read_only(db)
    assert conn.execute("SELECT v FROM t").fetchall() == [("in the log only",)]
    conn.close()
    assert {p.name: p.read_bytes() for p in db.parent.iterdir()} == before, "no -shm, nothing checkpointed"


def test_clean_file_opens_immutable_and_a_missing_one_is_empty(tmp_path):
    db = tmp_path / "c.sqlite3"
    with sqlite3.connect(str(db)) as conn:
        conn.execute("CREATE TABLE t (v TEXT)")
        conn.execute("INSERT INTO t VALUES ('x')")
    conn.close()
    ro = connect_read_only(db)
    assert ro.execute("SELECT count(*) FROM t").fetchone() == (1,)
    ro.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.sqlite3"]
    empty = memory_copy(tmp_path / "absent.sqlite3")
    assert empty.execute("SELECT count(*) FROM sqlite_master").fetchone() == (0,)
    assert not (tmp_path / "absent.sqlite3").exists()


def test_notes_are_said_once():
    take_notes()
    add_note("not saved")
    add_note("not saved")
    assert take_notes() == ["not saved"]
    assert take_notes() == []
