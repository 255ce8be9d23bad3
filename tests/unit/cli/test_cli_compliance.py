"""``cvrag audit``: verify names the first broken link, list filters, export writes CSV."""

from __future__ import annotations

import csv
import json
import sqlite3

from cvrag_desktop.app.assembly import App
from cvrag_desktop.cli.entry import main
from tests.support.people_docs import BEN, add_document


def _home_with_entries():
    svc = App()
    add_document(svc.catalog, "b1", BEN, svc.paths.data_dir / "library")
    svc.screening.set_screening(["b1"], status="screening")
    svc.screening.set_screening(["b1"], rating=3)
    svc.screening.set_screening(["b1"], status="interview")
    path = svc.audit.path
    svc.close()
    return path


def test_audit_verify_list_and_export(tmp_path, capsys):
    _home_with_entries()
    assert main(["audit", "verify"]) == 0
    assert "intact: 3 entries" in capsys.readouterr().out
    assert main(["audit", "list", "--action", "screening.status", "--person", "b1", "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert [e["details"]["to"] for e in entries] == ["screening", "interview"]
    assert main(["audit", "list", "--since", "not a date"]) == 2
    assert "--since wants a date" in capsys.readouterr().err
    out = tmp_path / "trail.csv"
    assert main(["audit", "export", "--out", str(out)]) == 0
    with open(out, encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh))
    assert len(rows) == 4 and rows[0][0] == "seq"
    assert "exported 3 entries" in capsys.readouterr().out
    assert main(["audit", "list", "--action", "audit.export", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 1  # the export is itself audited


def test_audit_verify_reports_the_first_broken_link(capsys):
    path = _home_with_entries()
    conn = sqlite3.connect(str(path))
    with conn:
        conn.execute("UPDATE audit_log SET details = '{\"from\":\"new\",\"to\":\"hired\"}' WHERE seq = 1")
    conn.close()
    assert main(["audit", "verify"]) == 1
    assert "BROKEN at entry 1" in capsys.readouterr().out
    assert main(["audit", "verify", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["first_broken"]["seq"] == 1


def test_audit_retention_floor(capsys):
    assert main(["audit", "retention", "--days", "30"]) == 2
    assert "at least 183 days" in capsys.readouterr().err
    assert main(["audit", "retention", "--days", "200"]) == 0
    assert "kept 200 days" in capsys.readouterr().out
    assert main(["audit", "retention", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"retention_days": 200}
