"""The audit trail: the chain detects tampering, references are pseudonymous and die with a forget."""

from __future__ import annotations

import csv
import itertools
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from cvrag_desktop.catalog.compliance.audit import AUDIT_FILE, MIN_RETENTION_DAYS, AuditLog
from cvrag_desktop.catalog.compliance.audit_events import export_audit_csv
from cvrag_desktop.errors import InvalidInput


def _log(tmp_path, n: int = 5) -> AuditLog:
    tmp_path.mkdir(parents=True, exist_ok=True)
    log = AuditLog(tmp_path / AUDIT_FILE)
    for i in range(n):
        log.record("screening.status", [f"doc{i}"], {"from": "new", "to": "screening"}, actor="tester")
    return log


def _raw(log: AuditLog, sql: str, params=()) -> None:
    conn = sqlite3.connect(str(log.path))
    with conn:
        conn.execute(sql, params)
    conn.close()


def test_an_untouched_chain_verifies(tmp_path):
    log = _log(tmp_path)
    assert log.verify() == {"ok": True, "entries": 5, "first_broken": None}
    entries = log.entries()
    assert [e.seq for e in entries] == [1, 2, 3, 4, 5]
    assert all(e.prev == p.hash for p, e in itertools.pairwise(entries))


def test_a_changed_entry_is_the_first_broken_link(tmp_path):
    log = _log(tmp_path)
    _raw(log, "UPDATE audit_log SET details = ? WHERE seq = 3", ('{"from":"new","to":"rejected"}',))
    report = log.verify()
    assert not report["ok"] and report["first_broken"]["seq"] == 3
    assert "changed" in report["first_broken"]["reason"]


def test_a_changed_actor_or_time_is_detected(tmp_path):
    log = _log(tmp_path)
    _raw(log, "UPDATE audit_log SET actor = 'someone else' WHERE seq = 2")
    assert log.verify()["first_broken"]["seq"] == 2
    log2 = _log(tmp_path / "b")
    _raw(log2, "UPDATE audit_log SET at = '2020-01-01T00:00:00.000000+00:00' WHERE seq = 4")
    assert log2.verify()["first_broken"]["seq"] == 4


def test_a_deleted_entry_is_detected(tmp_path):
    log = _log(tmp_path)
    _raw(log, "DELETE FROM audit_log WHERE seq = 2")
    report = log.verify()
    assert not report["ok"] and report["first_broken"]["seq"] == 2
    assert "missing" in report["first_broken"]["reason"]


def test_a_deleted_last_entry_is_detected(tmp_path):
    log = _log(tmp_path)
    _raw(log, "DELETE FROM audit_log WHERE seq = 5")
    report = log.verify()
    assert not report["ok"] and "cut off" in report["first_broken"]["reason"]


def test_reordered_entries_are_detected(tmp_path):
    log = _log(tmp_path)
    conn = sqlite3.connect(str(log.path))
    rows = {r[0]: r[1:] for r in conn.execute("SELECT * FROM audit_log WHERE seq IN (2, 3)")}
    with conn:  # swap the two entries' contents (each keeps its own hash, so the links no longer follow)
        for seq, other in ((2, 3), (3, 2)):
            conn.execute("UPDATE audit_log SET at=?, actor=?, action=?, person=?, details=?, prev=?, hash=? "
                         "WHERE seq=?", (*rows[other], seq))
    conn.close()
    report = log.verify()
    assert not report["ok"] and report["first_broken"]["seq"] == 2


def test_a_rewritten_entry_with_a_fresh_hash_breaks_the_next_link(tmp_path):
    from cvrag_desktop.catalog.compliance.audit import canonical, link_hash

    log = _log(tmp_path)
    e = log.entries()[2]
    forged = {"from": "new", "to": "hired"}
    new_hash = link_hash(e.prev, canonical(e.seq, e.at, e.actor, e.action, e.person, forged))
    _raw(log, "UPDATE audit_log SET details = ?, hash = ? WHERE seq = 3",
         ('{"from": "new", "to": "hired"}', new_hash))
    assert log.verify()["first_broken"]["seq"] == 4


def test_entries_hold_references_never_raw_ids(tmp_path):
    log = _log(tmp_path, 1)
    e = log.record("shortlist.add", ["docA", "docB"], {"ranking": ["docC"], "shortlist_id": 1})
    assert e.person.startswith("P-") and "docA" not in str(e.as_dict())
    assert all(r.startswith("P-") for r in e.details["ranking"] + e.details["documents"])
    assert log.refs(["docA"]) == [e.person]  # stable per document
    assert log.entries(refs=log.known_refs(["docC"])) == [e]  # found by a reference in the details too


def test_forgotten_references_leave_the_chain_whole(tmp_path):
    log = _log(tmp_path, 3)
    ref = log.known_refs(["doc1"])[0]
    assert log.forget_subjects(["doc1"]) == 1
    assert log.known_refs(["doc1"]) == []
    assert log.verify()["ok"]
    assert log.entries()[1].person == ref  # the token stays, tied to nobody
    log.close()
    for f in tmp_path.iterdir():
        assert b"doc1" not in f.read_bytes(), f


def test_retention_prunes_old_entries_and_keeps_the_chain_verifiable(tmp_path):
    log = AuditLog(tmp_path / AUDIT_FILE)
    old = datetime.now(UTC) - timedelta(days=400)
    for i in range(3):
        log.record("screening.note", [f"d{i}"], {"chars": 3}, at=old + timedelta(minutes=i))
    log.record("screening.note", ["d9"], {"chars": 3})
    assert log.retention_days() >= MIN_RETENTION_DAYS
    assert log.prune() == 3
    assert log.entries()[-1].details["up_to_seq"] == 3  # the prune is an entry: how many, up to which
    actions = [e.action for e in log.entries()]
    assert actions == ["screening.note", "audit.prune"]
    assert log.verify()["ok"]
    _raw(log, "DELETE FROM audit_log WHERE seq = (SELECT MIN(seq) FROM audit_log)")
    assert not log.verify()["ok"]  # the anchor still pins where the kept chain starts


def test_retention_has_a_floor_of_six_months(tmp_path):
    log = AuditLog(tmp_path / AUDIT_FILE)
    with pytest.raises(InvalidInput):
        log.set_retention_days(30)
    assert log.set_retention_days(400) == 400
    assert log.retention_days() == 400
    assert log.entries(action="audit.retention")[0].details == {"days": 400, "before": 365}


def test_filters_by_time_and_action(tmp_path):
    log = AuditLog(tmp_path / AUDIT_FILE)
    log.record("screening.status", ["a"], at=datetime(2026, 1, 1, tzinfo=UTC))
    log.record("shortlist.add", ["a"], at=datetime(2026, 6, 1, tzinfo=UTC))
    log.record("screening.rating", ["b"], at=datetime(2026, 7, 1, tzinfo=UTC))
    assert [e.action for e in log.entries(since="2026-05-01")] == ["shortlist.add", "screening.rating"]
    assert [e.action for e in log.entries(action="screening.")] == ["screening.status", "screening.rating"]
    assert [e.action for e in log.entries(action="shortlist.add")] == ["shortlist.add"]


def test_csv_export_makes_formulas_inert(tmp_path):
    log = AuditLog(tmp_path / AUDIT_FILE)
    log.record("blind.reveal", ["a"], {"reason": "=HYPERLINK(\"http://x\")"}, actor="@evil")
    n = export_audit_csv(log.entries(), tmp_path / "audit.csv")
    with open(tmp_path / "audit.csv", encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh))
    assert n == 1 and rows[0][:4] == ["seq", "at", "actor", "action"]
    assert rows[1][2] == "'@evil"
    assert rows[1][6].startswith("{")  # JSON details start with a brace: nothing to neutralise


def test_two_writers_on_one_file_keep_one_chain(tmp_path):
    """The GUI and a CLI command appending to the same trail interleave into one verifiable chain."""
    a, b = AuditLog(tmp_path / AUDIT_FILE), AuditLog(tmp_path / AUDIT_FILE)
    for i in range(10):
        (a if i % 2 else b).record("screening.rating", [f"d{i}"], {"to": 3})
    assert a.verify() == {"ok": True, "entries": 10, "first_broken": None}
    assert [e.seq for e in b.entries()] == list(range(1, 11))
    assert a.refs(["d3"]) == b.refs(["d3"])  # one reference per document, whoever wrote first
