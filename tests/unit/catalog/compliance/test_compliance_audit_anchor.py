"""The audit anchors in normal use: a restored catalog backup, a fresh data folder beside an old config
folder and a crash between the trail's commit and its anchors are notes, not breaks (docs/compliance.md)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.catalog.compliance import audit_anchor
from cvrag_desktop.catalog.compliance.audit import AUDIT_FILE, audit_for
from cvrag_desktop.catalog.compliance.audit_chain import canonical, link_hash
from cvrag_desktop.config import read_audit_anchor, write_audit_anchor
from tests.support.people_docs import BEN, add_document


def _rate(svc, times: int) -> None:
    for rating in range(1, times + 1):
        svc.screening.set_screening(["b1"], rating=rating)


@pytest.fixture
def home():
    """A home with one document and three audited changes; closed."""
    svc = App()
    add_document(svc.catalog, "b1", BEN, svc.paths.data_dir / "library")
    _rate(svc, 3)
    paths = svc.paths
    svc.close()
    return paths


def _catalog_anchor(paths) -> str | None:
    conn = sqlite3.connect(str(paths.data_dir / "catalog.sqlite3"))
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'audit_anchor'").fetchone()
    finally:
        conn.close()
    return row[0] if row else None


def _set_catalog_anchor(paths, value: str) -> None:
    conn = sqlite3.connect(str(paths.data_dir / "catalog.sqlite3"))
    with conn:
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('audit_anchor', ?)", (value,))
    conn.close()


def _seq(anchor: str) -> int:
    return int(anchor.split(":")[-2])


def test_a_restored_catalog_copy_is_a_note_is_re_anchored_and_prune_still_works(home):
    copy = home.data_dir / "copy-of-catalog.sqlite3"
    shutil.copyfile(home.data_dir / "catalog.sqlite3", copy)  # (a copy made by hand, with its anchor: entry 3)
    svc = App(home)
    _rate(svc, 2)
    svc.close()
    shutil.copyfile(copy, home.data_dir / "catalog.sqlite3")  # restored the way the store's hint says: copied over
    svc = App(home)
    report = svc.compliance.audit_verify()
    assert report["ok"] and report["first_broken"] is None, report
    assert any("restored" in n for n in report["notes"]), report
    _rate(svc, 1)
    assert svc.compliance.audit_verify() == {"ok": True, "entries": 6, "first_broken": None}
    assert _seq(svc.catalog.query("SELECT value FROM meta WHERE key = 'audit_anchor'")[0][0]) == 6
    assert audit_for(svc.catalog).prune(datetime.now(UTC) + timedelta(days=400)) == 6
    assert svc.compliance.audit_verify()["ok"]
    svc.close()


def test_a_catalog_backup_carries_no_anchor(home):
    svc = App(home)
    backup = svc.catalog.backup_now()
    svc.close()
    conn = sqlite3.connect(str(backup))
    assert conn.execute("SELECT value FROM meta WHERE key = 'audit_anchor'").fetchone() is None
    conn.close()
    assert _catalog_anchor(home) is not None  # (the live catalog keeps its own)


def test_a_restored_catalog_does_not_hide_a_chain_rewritten_with_the_settings_anchor(home):
    """The catalog anchor that was not rewritten (an older one) must match the chain where it points."""
    old = _catalog_anchor(home)
    svc = App(home)
    _rate(svc, 2)
    svc.close()
    conn = sqlite3.connect(str(home.data_dir / AUDIT_FILE))
    with conn:  # the whole chain rewritten (every hash changed), the inner head and the settings anchor too
        prev = "0" * 64
        for r in conn.execute("SELECT * FROM audit_log ORDER BY seq").fetchall():
            h = link_hash(prev, canonical(r[0], r[1], "intruder", r[3], r[4], json.loads(r[5])))
            conn.execute("UPDATE audit_log SET actor='intruder', prev=?, hash=? WHERE seq=?", (prev, h, r[0]))
            prev, last = h, r[0]
        conn.execute("UPDATE audit_meta SET value = ? WHERE key = 'head'", (f"{last}:{prev}",))
        trail = conn.execute("SELECT value FROM audit_meta WHERE key = 'trail_id'").fetchone()
    conn.close()
    write_audit_anchor(home.settings_file, f"{trail[0]}:{last}:{prev}" if trail else f"{last}:{prev}")
    _set_catalog_anchor(home, old)  # (as if an old catalog were restored)
    svc = App(home)
    report = svc.compliance.audit_verify()
    svc.close()
    assert not report["ok"] and "the catalog" in report["first_broken"]["reason"], report


def test_a_fresh_data_folder_with_the_old_config_folder_is_intact(home):
    old = read_audit_anchor(home.settings_file)
    shutil.rmtree(home.data_dir)
    svc = App(home)
    report = svc.compliance.audit_verify()
    assert report["ok"], report
    assert any("another trail" in n for n in report["notes"]), report
    add_document(svc.catalog, "b1", BEN, svc.paths.data_dir / "library")
    _rate(svc, 1)
    assert svc.compliance.audit_verify() == {"ok": True, "entries": 1, "first_broken": None}
    assert read_audit_anchor(home.settings_file) not in (None, old)
    svc.close()


def test_anchors_one_append_behind_after_a_crash_past_the_commit_are_a_note(home):
    catalog_before, settings_before = _catalog_anchor(home), read_audit_anchor(home.settings_file)
    svc = App(home)
    _rate(svc, 1)  # committed; then the application "stops" before its anchors are written:
    svc.close()
    _set_catalog_anchor(home, catalog_before)
    write_audit_anchor(home.settings_file, settings_before)
    svc = App(home)
    report = svc.compliance.audit_verify()
    assert report["ok"], report
    assert any("not anchored" in n for n in report["notes"]), report
    svc.screening.set_screening(["b1"], rating=5)
    assert svc.compliance.audit_verify() == {"ok": True, "entries": 5, "first_broken": None}
    assert _seq(read_audit_anchor(home.settings_file)) == 5
    svc.close()


def test_anchors_are_written_after_the_trail_commits(home, monkeypatch):
    """A crash (an error) while writing the anchors leaves the committed entry and an intact trail."""
    svc = App(home)

    def crash(self, value):
        raise OSError("disk gone")

    monkeypatch.setattr(audit_anchor.SettingsAnchor, "write", crash)
    _rate(svc, 1)
    monkeypatch.undo()
    report = svc.compliance.audit_verify()
    assert report["ok"] and report["entries"] == 4 and "the settings" in report["notes"][0], report
    assert _seq(read_audit_anchor(home.settings_file)) == 3
    svc.screening.set_screening(["b1"], rating=5)
    assert svc.compliance.audit_verify() == {"ok": True, "entries": 5, "first_broken": None}
    assert _seq(read_audit_anchor(home.settings_file)) == 5
    svc.close()


def test_the_command_line_shows_the_note_of_a_restored_catalog(home, capsys):
    from cvrag_desktop.cli.entry import main

    copy = home.data_dir / "copy-of-catalog.sqlite3"
    shutil.copyfile(home.data_dir / "catalog.sqlite3", copy)
    svc = App(home)
    _rate(svc, 2)
    svc.close()
    shutil.copyfile(copy, home.data_dir / "catalog.sqlite3")
    capsys.readouterr()
    assert main(["audit", "verify"]) == 0
    out = capsys.readouterr().out
    assert "audit trail intact" in out and "note:" in out and "restored" in out
