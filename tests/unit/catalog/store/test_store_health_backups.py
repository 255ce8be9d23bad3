"""Catalog backups: SQLite online backup before a migration and daily, last N kept, restorable."""

from __future__ import annotations

import sqlite3

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.store import health
from tests.support.people_docs import ANA_OLD, BEN, add_document


def test_backup_before_migration_and_rotation(tmp_path):
    db = tmp_path / "catalog.sqlite3"
    cat = Catalog(db)
    add_document(cat, "a1", ANA_OLD)
    add_document(cat, "b1", BEN)
    cat._conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")  # pretend an old catalog
    cat.close()
    cat = Catalog(db)  # migrates: a backup first
    names = [p.name for p in health.list_backups(db)]
    assert any("before-v" in n for n in names), names
    for i in range(health.BACKUPS_KEPT + 3):
        assert cat.backup_now(f"t{i}") is not None
    backups = health.list_backups(db)
    assert len(backups) == health.BACKUPS_KEPT
    restored = sqlite3.connect(str(backups[0]))
    assert restored.execute("SELECT COUNT(*) FROM candidates").fetchone()[0] == 2
    assert restored.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    restored.close()
    cat.close()


def test_daily_backup_only_when_due_and_not_for_an_empty_catalog(tmp_path):
    db = tmp_path / "catalog.sqlite3"
    Catalog(db).close()
    assert health.list_backups(db) == []  # nothing to protect yet
    cat = Catalog(db)
    add_document(cat, "a1", ANA_OLD)
    cat.close()
    Catalog(db).close()
    assert len(health.list_backups(db)) == 1
    Catalog(db).close()
    assert len(health.list_backups(db)) == 1  # not due again today
