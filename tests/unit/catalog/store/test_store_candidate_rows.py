"""Confidence survives the catalog: stored with provenance and beside the record, read by services
and the CLI; catalogs and records from before confidence still open, with nothing marked."""

from __future__ import annotations

import csv
import json
import sqlite3

from cvrag_desktop.app.assembly import App
from cvrag_desktop.catalog.csv_export import export_candidates_csv
from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.privacy.blind import redact_detail, redact_row
from cvrag_desktop.catalog.store import schema as catalog_db
from cvrag_desktop.cli.entry import main
from cvrag_desktop.domain import LOW_CONFIDENCE
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document
from tests.support.confidence_docs import doubtful_cv, write_page
from tests.support.people_docs import add_document, make_cv


def test_a_read_cv_round_trips_through_catalog_and_services(tmp_path):
    cv, _ = normalize_document(extract_document(write_page(tmp_path / "in")))
    svc = App()
    add_document(svc.catalog, "q1", cv)
    stored = {r["field"]: r for r in svc.catalog.query(
        "SELECT field, confidence, reason FROM provenance WHERE candidate_id = 'q1'")}
    assert stored["experiences[1].company"]["confidence"] < LOW_CONFIDENCE
    assert stored["experiences[1].company"]["reason"].startswith("employer: ")
    assert stored["emails"]["confidence"] is None  # e-mails are not scored
    rec = svc.people.get_candidate("q1")
    assert rec["confidence"]["experiences[1].title"]["low"] is True
    assert rec["confidence"]["name"] == {"score": 1.0, "low": False, "reason": ""}
    row = svc.people.list_candidates()[0]
    assert set(row["confidence"]) == {"name", "current_title", "current_company"}
    assert not any(c["low"] for c in row["confidence"].values())  # the current role is the well-read one
    person = svc.people.list_people(with_documents=True)[0]
    assert person["confidence"] == row["confidence"] and person["document_rows"][0]["confidence"] == row["confidence"]
    svc.close()


def test_a_low_current_title_is_flagged_in_rows_and_exported_clean(tmp_path):
    svc = App()
    add_document(svc.catalog, "d1", doubtful_cv())
    row = svc.people.list_candidates()[0]
    assert row["confidence"]["current_title"] == {"score": 0.45, "low": True,
                                                  "reason": "title: no job-title vocabulary"}
    assert row["current_title"] == "Zephyr Tinkerer"  # the value itself is untouched
    out = tmp_path / "x.csv"
    export_candidates_csv(svc.people.list_candidates(), out)
    with out.open(encoding="utf-8-sig") as f:
        exported = list(csv.DictReader(f))
    assert exported[0]["Current title"] == "Zephyr Tinkerer" and "?" not in exported[0]["Current title"]
    svc.close()


def test_blind_rows_do_not_mark_the_pseudonym(tmp_path):
    svc = App()
    cv = doubtful_cv(title_score=0.9)
    cv = cv.model_copy(update={"provenance": [p.model_copy(update={"confidence": 0.2}) if p.field == "name" else p
                                              for p in cv.provenance]})
    add_document(svc.catalog, "d1", cv)
    row = svc.people.list_candidates()[0]
    assert row["confidence"]["name"]["low"] is True
    assert "name" not in redact_row(row)["confidence"]
    assert "name" not in redact_detail(svc.people.get_candidate("d1"))["confidence"]
    svc.close()


def test_a_version_5_catalog_migrates_and_its_old_rows_show_no_marks(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(catalog_db.SCHEMA)  # provenance with its seven columns, no confidence anywhere
    for step in (2, 3, 4, 5):
        catalog_db.MIGRATIONS[step](conn)
    conn.execute("INSERT INTO meta VALUES ('schema_version', '5')")
    old = make_cv("Ada Quill", roles=[("Developer", "Northwind", "2020-01", None)])
    record = json.loads(old.model_dump_json())
    record["provenance"] = [{"field": "name", "value": "Ada Quill", "page": 0, "bbox": [1, 2, 3, 4],
                             "char_start": 0, "char_end": 9}]  # the keys a round-5 record had
    conn.execute("INSERT INTO files(sha256, original_path, file_name, status, created_at) "
                 "VALUES ('ab', '/cvs/a.pdf', 'a.pdf', 'done', 1.0)")
    conn.execute("INSERT INTO candidates(candidate_id, file_sha256, name, emails, phones, skills, degrees, "
                 "institutions, companies, languages, record, created_at) VALUES ('a1', 'ab', 'Ada Quill', '[]', "
                 "'[]', '[]', '[]', '[]', '[]', '[]', ?, 1.0)", (json.dumps(record),))
    conn.execute("INSERT INTO provenance VALUES ('a1', 'name', 'Ada Quill', 0, '[1, 2, 3, 4]', 0, 9)")
    conn.commit()
    conn.close()
    cat = Catalog(path)
    assert cat.schema_version() == catalog_db.SCHEMA_VERSION >= 6
    assert cat.candidate("a1")["confidence"] == {} and cat.person_rows()[0]["confidence"] == {}
    assert cat.query("SELECT confidence FROM provenance")[0][0] is None
    add_document(cat, "b2", doubtful_cv())  # a new row next to the old one
    assert cat.candidate("b2")["confidence"]["current_title"]["low"] is True
    cat.close()
    again = Catalog(path)  # opening twice does not add the columns twice
    assert again.schema_version() == catalog_db.SCHEMA_VERSION
    again.close()


def test_cli_marks_low_values_and_json_carries_the_map(capsys):
    svc = App()
    add_document(svc.catalog, "d1", doubtful_cv())
    add_document(svc.catalog, "d2", doubtful_cv(name="Lena Hartwig", title="Backend Engineer", title_score=0.9))
    svc.close()
    assert main(["candidates", "list"]) == 0
    out = capsys.readouterr().out
    line_low = next(ln for ln in out.splitlines() if ln.startswith("Ivo Brandt"))
    line_ok = next(ln for ln in out.splitlines() if ln.startswith("Lena Hartwig"))
    assert "Zephyr Tinkerer ?" in line_low and "?" not in line_ok
    assert "? = low confidence" in out
    assert main(["candidates", "list", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["d1"]["confidence"]["current_title"]["low"] is True and rows["d1"]["current_title"] == "Zephyr Tinkerer"
    assert main(["candidates", "show", "d1"]) == 0
    shown = capsys.readouterr().out
    assert "[? check: title: no job-title vocabulary]" in shown
    assert main(["candidates", "show", "d1", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["confidence"]["experiences[0].title"] == {"score": 0.45, "low": True,
                                                         "reason": "title: no job-title vocabulary"}
    assert main(["people", "list"]) == 0
    assert "Zephyr Tinkerer ?" in capsys.readouterr().out
