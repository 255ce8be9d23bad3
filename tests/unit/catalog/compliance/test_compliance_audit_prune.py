"""Pruning the audit trail: only from a verified chain, only the oldest entries in sequence, recorded in the chain."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from cvrag_desktop.catalog.compliance.audit import AUDIT_FILE, AuditLog

NOW = datetime(2026, 12, 1, tzinfo=UTC)
OLD = NOW - timedelta(days=400)


def _raw(log: AuditLog, sql: str, params=()) -> None:
    conn = sqlite3.connect(str(log.path))
    with conn:
        conn.execute(sql, params)
    conn.close()


def test_the_oldest_entries_go_in_sequence_and_the_prune_says_up_to_which_hash(tmp_path):
    log = AuditLog(tmp_path / AUDIT_FILE)
    for i in range(3):
        log.record("screening.note", [f"d{i}"], {"chars": 3}, at=OLD + timedelta(minutes=i))
    log.record("screening.note", ["d9"], {"chars": 3}, at=NOW)
    third = log.entries()[2]
    assert log.prune(NOW) == 3
    kept = log.entries()
    assert [e.action for e in kept] == ["screening.note", "audit.prune"]
    assert {k: kept[1].details[k] for k in ("removed", "up_to_seq", "up_to_hash")} == \
        {"removed": 3, "up_to_seq": 3, "up_to_hash": third.hash}
    assert log.verify()["ok"]
    assert log.prune(NOW) == 0


def test_an_old_time_after_a_recent_one_takes_nothing_with_it(tmp_path):
    """A (verified) old time further on does not prune the recent entries before it, nor itself."""
    log = AuditLog(tmp_path / AUDIT_FILE)
    log.record("screening.note", ["a"], {"chars": 1}, at=OLD)
    log.record("screening.note", ["b"], {"chars": 1}, at=NOW)
    log.record("screening.note", ["c"], {"chars": 1}, at=OLD)  # (a clock set back, say)
    assert log.prune(NOW) == 1
    assert [e.seq for e in log.entries()] == [2, 3, 4]
    assert log.verify()["ok"]


def test_a_backdated_entry_breaks_the_chain_and_nothing_is_pruned(tmp_path):
    """The issue's probe: one entry's time set to 2020 without its hash; the prune must not trust it."""
    log = AuditLog(tmp_path / AUDIT_FILE)
    for i in range(5):
        log.record("screening.rating", [f"d{i}"], {"to": i}, at=NOW - timedelta(days=5 - i))
    for seq in (1, 3):
        _raw(log, "UPDATE audit_log SET at = '2020-01-01T00:00:00.000000+00:00' WHERE seq = ?", (seq,))
    assert log.prune(NOW) == 0
    assert [e.seq for e in log.entries()] == [1, 2, 3, 4, 5]
    report = log.verify()
    assert not report["ok"] and report["first_broken"]["seq"] == 1


def test_a_prune_waits_a_day_past_the_retention(tmp_path):
    """The full check runs when there is a day's worth to prune, not at every open."""
    log = AuditLog(tmp_path / AUDIT_FILE)
    log.record("screening.note", ["a"], {"chars": 1}, at=NOW - timedelta(days=365, hours=12))
    log.record("screening.note", ["b"], {"chars": 1}, at=NOW)
    assert log.prune(NOW) == 0
    assert log.prune(NOW + timedelta(days=1)) == 1
