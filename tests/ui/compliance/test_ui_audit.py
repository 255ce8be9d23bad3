"""File ▸ Audit trail…: the read-only viewer lists, filters, checks the chain and exports."""

from __future__ import annotations

import csv
import sqlite3

from tests.support.people_docs import ANA_NEW, BEN, add_document


def _screened(services) -> None:
    for cid, cv in (("a1", ANA_NEW), ("b1", BEN)):
        add_document(services.catalog, cid, cv, services.paths.data_dir / "library")
    services.screening.set_screening(["a1"], status="screening")
    services.screening.set_screening(["b1"], status="interview", rating=5)
    sl = services.shortlists.create("Pool")
    services.shortlists.add(sl.shortlist_id, ["b1"])


def test_audit_viewer_lists_filters_verifies_and_exports(window, services, qtbot, tmp_path):
    _screened(services)
    dlg = window.open_audit()
    qtbot.waitUntil(lambda: dlg.entries is not None and dlg.verified is not None, timeout=30_000)
    assert dlg.table.rowCount() == 4
    assert [dlg.table.item(r, 3).text() for r in range(4)] == ["screening.status", "screening.status",
                                                              "screening.rating", "shortlist.add"]
    assert "Ben" not in " ".join(dlg.table.item(r, c).text() for r in range(4) for c in range(6))
    assert dlg.chain.text().startswith("Chain intact: 4 entries")
    dlg.person.setText("b1")
    dlg.action.setCurrentText("screening.")
    dlg.entries = None
    dlg.apply_btn.click()
    qtbot.waitUntil(lambda: dlg.entries is not None, timeout=30_000)
    assert [dlg.table.item(r, 3).text() for r in range(dlg.table.rowCount())] == ["screening.status",
                                                                                 "screening.rating"]
    out = tmp_path / "trail.csv"
    dlg.export(out)
    qtbot.waitUntil(lambda: out.exists(), timeout=30_000)
    with open(out, encoding="utf-8-sig", newline="") as fh:
        assert len(list(csv.reader(fh))) == 3
    conn = sqlite3.connect(str(services.audit.path))
    with conn:
        conn.execute("UPDATE audit_log SET actor = 'someone else' WHERE seq = 2")
    conn.close()
    dlg.verified = None
    dlg.verify_btn.click()
    qtbot.waitUntil(lambda: dlg.verified is not None, timeout=30_000)
    assert dlg.chain.text().startswith("Chain BROKEN at entry 2")
    dlg.close()
