"""Eleven ways to tamper with the audit trail of a data home; each is detected (docs/compliance.md's table).

The trail is written through the application (``App``), so its head is anchored in the
catalog and the settings as in use; each case tampers with the files directly while the
application is closed, then opens the home again (the open prunes, as in use) and asks
``audit verify`` (the facade, and the CLI for some: exit 1).
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.catalog.compliance.audit import AUDIT_FILE, canonical, link_hash
from cvrag_desktop.cli.entry import main
from cvrag_desktop.config import AUDIT_ANCHOR_KEY, read_audit_anchor
from tests.support.people_docs import BEN, add_document

OLD = "2020-01-01T00:00:00.000000+00:00"


@pytest.fixture
def home():
    """A home with one document and seven audited changes (entries 1..7); closed for tampering."""
    svc = App()
    add_document(svc.catalog, "b1", BEN, svc.paths.data_dir / "library")
    for rating in range(1, 6):
        svc.screening.set_screening(["b1"], rating=rating)
    svc.screening.set_screening(["b1"], status="screening")
    svc.screening.set_screening(["b1"], note="ask about SQL")
    assert svc.compliance.audit_verify() == {"ok": True, "entries": 7, "first_broken": None}
    paths = svc.paths
    svc.close()
    return paths


def audit_sql(paths, *statements) -> None:
    conn = sqlite3.connect(str(paths.data_dir / AUDIT_FILE))
    with conn:
        for sql, *params in statements:
            conn.execute(sql, *params)
    conn.close()


def rows(paths) -> list[tuple]:
    conn = sqlite3.connect(str(paths.data_dir / AUDIT_FILE))
    out = conn.execute("SELECT * FROM audit_log ORDER BY seq").fetchall()
    conn.close()
    return out


def rehash_from(paths, seq: int, change=lambda r: r) -> None:
    """Rewrite entries from ``seq`` on consistently (``change`` edits a row, hashes recomputed), head too."""
    all_rows = rows(paths)
    prev = next((r[7] for r in all_rows if r[0] == seq - 1), "0" * 64)
    stmts = []
    for r in all_rows:
        if r[0] < seq:
            continue
        s, at, actor, action, person, details = change(r)[:6]
        h = link_hash(prev, canonical(s, at, actor, action, person, json.loads(details)))
        stmts.append(("UPDATE audit_log SET at=?, actor=?, action=?, person=?, details=?, prev=?, hash=? WHERE seq=?",
                      (at, actor, action, person, details, prev, h, s)))
        prev, last = h, s
    stmts.append(("UPDATE audit_meta SET value = ? WHERE key = 'head'", (f"{last}:{prev}",)))
    audit_sql(paths, *stmts)


def verify(paths) -> dict:
    svc = App(paths)
    try:
        return svc.compliance.audit_verify()
    finally:
        svc.close()


def broken(paths, seq: int | None, *words: str) -> dict:
    report = verify(paths)
    assert not report["ok"], report
    if seq is not None:
        assert report["first_broken"]["seq"] == seq, report
    assert all(w in report["first_broken"]["reason"] for w in words), report
    return report


# 1
def test_an_edited_field_is_detected(home):
    audit_sql(home, ("UPDATE audit_log SET details = ? WHERE seq = 6", ('{"from":"new","to":"hired"}',)))
    broken(home, 6, "changed")


# 2
def test_an_edited_hash_is_detected(home):
    audit_sql(home, ("UPDATE audit_log SET hash = ? WHERE seq = 4", ("f" * 64,)))
    broken(home, 4, "changed")


# 3
def test_a_deleted_middle_entry_is_detected(home):
    audit_sql(home, ("DELETE FROM audit_log WHERE seq = 3",))
    broken(home, 3, "missing")


# 4
def test_a_truncated_tail_is_detected_by_the_anchors_even_with_the_inner_head_fixed(home, capsys):
    last_kept = rows(home)[4]
    audit_sql(home, ("DELETE FROM audit_log WHERE seq > 5",),
              ("UPDATE audit_meta SET value = ? WHERE key = 'head'", (f"5:{last_kept[7]}",)))
    broken(home, 6, "cut off")
    assert main(["audit", "verify"]) == 1
    assert "BROKEN at entry 6" in capsys.readouterr().out


# 5
def test_deleted_oldest_entries_are_detected_even_posing_as_a_prune(home):
    second = rows(home)[1]
    audit_sql(home, ("DELETE FROM audit_log WHERE seq <= 2",),
              ("INSERT OR REPLACE INTO audit_meta(key, value) VALUES ('anchor_seq', '2')",),
              ("INSERT OR REPLACE INTO audit_meta(key, value) VALUES ('anchor_hash', ?)", (second[7],)))
    broken(home, 2, "no prune")


# 6
def test_reordered_entries_are_detected(home):
    r = {x[0]: x for x in rows(home)}
    audit_sql(home, *[("UPDATE audit_log SET at=?, actor=?, action=?, person=?, details=?, prev=?, hash=? WHERE seq=?",
                       (*r[b][1:], a)) for a, b in ((3, 4), (4, 3))])
    broken(home, 3, "does not follow")


# 7
def test_a_forged_entry_appended_with_a_valid_hash_is_detected_by_the_anchors(home, capsys):
    last = rows(home)[-1]
    body = canonical(8, last[1], "intruder", "screening.status", last[4], {"from": "screening", "to": "hired"})
    h = link_hash(last[7], body)
    audit_sql(home, ("INSERT INTO audit_log VALUES (?,?,?,?,?,?,?,?)",
                     (8, last[1], "intruder", "screening.status", last[4], '{"from": "screening", "to": "hired"}',
                      last[7], h)),
              ("UPDATE audit_meta SET value = ? WHERE key = 'head'", (f"8:{h}",)))
    broken(home, 8, "not written by the application")
    assert main(["audit", "verify", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["first_broken"]["seq"] == 8
    svc = App(home)
    svc.screening.set_screening(["b1"], rating=2)  # the application's next entry does not cover it up
    assert svc.compliance.audit_verify()["first_broken"]["seq"] == 8
    svc.close()


# 8
def test_a_backdated_entry_is_detected_and_not_pruned(home):
    for seq in (1, 4):  # the oldest entry (prune would look at it) and one in the middle
        audit_sql(home, ("UPDATE audit_log SET at = ? WHERE seq = ?", (OLD, seq)))
    broken(home, 1, "changed")
    assert [r[0] for r in rows(home)] == list(range(1, 8))  # the open pruned nothing: the evidence stays
    report = broken(home, 1, "changed")
    assert report["entries"] == 7


# 9
def test_a_whole_chain_rewritten_consistently_is_detected_by_the_anchors(home):
    def forge(r):
        details = json.loads(r[5])
        if "to" in details and details["to"] == "screening":
            details["to"] = "rejected"
        return (r[0], r[1], r[2], r[3], r[4], json.dumps(details, sort_keys=True))

    rehash_from(home, 1, forge)
    broken(home, 7, "rewritten")


# 10
def test_an_anchor_replaced_in_one_place_only_is_detected(home):
    conn = sqlite3.connect(str(home.data_dir / "catalog.sqlite3"))
    with conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'audit_anchor'", (f"7:{'a' * 64}",))
    conn.close()
    broken(home, 7, "the catalog")


def test_a_rewritten_chain_with_the_catalog_anchor_moved_along_is_caught_by_the_settings_one(home):
    rehash_from(home, 5, lambda r: (*r[:2], "intruder", *r[3:6]))
    head = rows(home)[-1]
    conn = sqlite3.connect(str(home.data_dir / "catalog.sqlite3"))
    with conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'audit_anchor'", (f"7:{head[7]}",))
    conn.close()
    broken(home, 7, "the settings")


# 11
def test_a_deleted_audit_file_is_detected_and_stays_detected_after_new_entries(home, capsys):
    for suffix in ("", "-wal", "-shm"):
        (home.data_dir / (AUDIT_FILE + suffix)).unlink(missing_ok=True)
    broken(home, 1, "deleted or replaced")
    svc = App(home)
    for rating in range(1, 5):  # the application goes on; the anchors keep the evidence
        svc.screening.set_screening(["b1"], rating=rating)
    assert not svc.compliance.audit_verify()["ok"]
    svc.close()
    assert main(["audit", "verify"]) == 1
    assert "BROKEN" in capsys.readouterr().out


def test_an_untouched_home_stays_anchored_in_both_places(home):
    head = rows(home)[-1]
    conn = sqlite3.connect(str(home.data_dir / AUDIT_FILE))
    trail = conn.execute("SELECT value FROM audit_meta WHERE key = 'trail_id'").fetchone()[0]
    anchor = f"{trail}:7:{head[7]}"
    conn.close()
    assert read_audit_anchor(home.settings_file) == anchor  # "<trail id>:<seq>:<hash>"
    conn = sqlite3.connect(str(home.data_dir / "catalog.sqlite3"))
    assert conn.execute("SELECT value FROM meta WHERE key = 'audit_anchor'").fetchone()[0] == anchor
    conn.close()
    assert verify(home)["ok"]


def test_a_catalog_without_its_anchor_is_not_a_break_and_gets_it_back(home):
    """A catalog rebuilt from the library starts without the anchor: the settings one still holds."""
    conn = sqlite3.connect(str(home.data_dir / "catalog.sqlite3"))
    with conn:
        conn.execute("DELETE FROM meta WHERE key = 'audit_anchor'")
    conn.close()
    svc = App(home)
    assert svc.compliance.audit_verify()["ok"]
    svc.screening.set_screening(["b1"], rating=1)
    assert svc.catalog.query("SELECT value FROM meta WHERE key = 'audit_anchor'")[0][0].split(":")[1] == "8"
    assert svc.compliance.audit_verify()["ok"]
    svc.close()


def test_saving_settings_keeps_the_anchor(home):
    from cvrag_desktop.config import load_settings

    svc = App(home)
    anchor = read_audit_anchor(home.settings_file)
    settings = load_settings(home).model_copy(update={"llm_enabled": False})  # a ranking setting: audited
    svc.health.save_settings(settings)
    now = json.loads(home.settings_file.read_text(encoding="utf-8"))
    assert now["llm_enabled"] is False and now[AUDIT_ANCHOR_KEY] != anchor and now[AUDIT_ANCHOR_KEY].split(":")[1] == "8"
    assert svc.compliance.audit_verify()["ok"]
    svc.close()
