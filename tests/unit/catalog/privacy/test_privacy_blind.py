"""Blind screening core: pseudonyms, redaction of rows/details/CSV/answers, the reveal log."""

from __future__ import annotations

import re
import sqlite3

import pytest

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.privacy import blind
from cvrag_desktop.catalog.store import schema as catalog_db
from cvrag_desktop.errors import NotFound
from tests.support.people_docs import ANA_OLD, BEN, add_document

ROW = {"id": "abc123", "name": "Ana Ruiz", "emails": ["ana.ruiz@ruizmail.net"], "phones": ["+34 600 111 222"],
       "links": ["linkedin.com/in/anaruiz"], "location": "Calle Mayor 5, Madrid", "current_title": "Developer",
       "skills": ["Python"], "source_path": "/cvs/Ana_Ruiz_CV.pdf", "file_name": "Ana_Ruiz_CV.pdf",
       "stored_path": "/lib/x.pdf"}


def test_pseudonym_is_stable_short_and_distinct():
    assert blind.pseudonym("abc123") == blind.pseudonym("abc123")
    assert re.fullmatch(r"Candidate [0-9A-F]{4}-[0-9A-F]{4}", blind.pseudonym("abc123"))
    # a library-sized set of people gets as many pseudonyms (four hex digits: 5 shared ones among 1,000 ids)
    assert len({blind.pseudonym(f"doc-{i}") for i in range(2000)}) == 2000


def test_redact_row_hides_every_identifying_field_and_keeps_the_rest():
    out = blind.redact_row(ROW)
    assert out["name"] == blind.pseudonym("abc123")
    assert out["emails"] == [] and out["phones"] == [] and out["links"] == [] and out["location"] is None
    assert out["source_path"] == blind.HIDDEN and out["file_name"] == blind.HIDDEN
    assert out["current_title"] == "Developer" and out["skills"] == ["Python"] and out["stored_path"] == "/lib/x.pdf"
    flat = repr(out)
    for secret in ("Ana", "Ruiz", "ruizmail", "600", "Mayor", "anaruiz"):
        assert secret not in flat
    assert ROW["name"] == "Ana Ruiz"  # the input is not changed


def test_redact_text_removes_strings_phones_in_any_spacing_and_labelled_cues():
    text = ("Ana Ruiz, call +34600111222 or write to ana.ruiz@ruizmail.net. Lives at Calle Mayor 5, Madrid.\n"
            "Date of birth: 01/02/1990\nNationality: Spanish\nEstado civil: casada\nAge - 34\nPython developer")
    out = blind.redact_text(text, blind.identifiers(ROW))
    for secret in ("Ana", "Ruiz", "600111222", "ruizmail", "Mayor", "1990", "Spanish", "casada", "34\n"):
        assert secret not in out
    assert "Date of birth: [hidden]" in out and "Python developer" in out


def test_redact_detail_drops_contact_chunks_and_keeps_boxes_without_values():
    detail = {**ROW, "summary": "Ana Ruiz is a Python developer.", "headline": "Ana Ruiz — Developer",
              "experiences": [{"title": "Dev", "bullets": ["Mentored by nobody; reach me at +34 600 111 222"]}],
              "chunks": [{"section": "contact", "text": "Ana Ruiz +34 600 111 222", "header": ""},
                         {"section": "experience", "text": "Ana Ruiz built Python tools", "header": "Ana Ruiz"}],
              "provenance": [{"field": "name", "value": "Ana Ruiz", "page": 0, "bbox": [10, 10, 90, 20]},
                             {"field": "emails", "value": "ana.ruiz@ruizmail.net", "page": 0, "bbox": [1, 2, 3, 4]},
                             {"field": "skills", "value": "Python", "page": 1, "bbox": [5, 5, 9, 9]},
                             {"field": "phones", "value": "+34 600 111 222", "page": None, "bbox": None}]}
    out = blind.redact_detail(detail)
    flat = repr(out)
    for secret in ("Ana", "Ruiz", "ruizmail", "600 111"):
        assert secret not in flat
    assert [c["section"] for c in out["chunks"]] == ["experience"]
    assert out["provenance"][2]["value"] == "Python"
    assert blind.redaction_boxes(out["provenance"]) == [(0, (10.0, 10.0, 90.0, 20.0)), (0, (1.0, 2.0, 3.0, 4.0))]


def test_redact_detail_reaches_the_roles_and_degrees_own_fields():
    """A job in the candidate's home town, or a company named after them, does not give them away."""
    home = {**ROW, "location": "Villarrubia"}
    detail = {**home, "experiences": [{"title": "Owner", "company": "Ruiz Consulting", "location": "Villarrubia",
                                       "bullets": []},
                                      {"title": "Dev", "company": "Acme", "location": "Berlin", "bullets": []}],
              "education": [{"degree": "BSc", "institution": "Villarrubia College"}]}
    out = blind.redact_detail(detail)
    assert "Villarrubia" not in repr(out) and "Ruiz" not in repr(out)
    assert out["experiences"][1] == {"title": "Dev", "company": "Acme", "location": "Berlin", "bullets": []}
    assert out["education"][0]["degree"] == "BSc"


def test_redact_answer_uses_the_pseudonym_for_names_and_hides_contacts():
    other = {"id": "zzz", "name": "Ben Okafor", "emails": ["ben@example.net"], "phones": []}
    text = "Ana Ruiz (ana.ruiz@ruizmail.net) and Ben know Python; Ana leads. [E1: Ana Ruiz, experience]"
    out = blind.redact_answer(text, [ROW, other])
    assert "Ana" not in out and "Ruiz" not in out and "Ben" not in out and "ruizmail" not in out
    assert out.count(blind.pseudonym("abc123")) == 3 and blind.pseudonym("zzz") in out


def test_setting_and_reveal_log_round_trip_and_go_with_the_document(tmp_path):
    cat = Catalog(tmp_path / "c.sqlite3")
    add_document(cat, "a1", ANA_OLD)
    add_document(cat, "b1", BEN)
    store = blind.BlindStore(cat)
    assert store.enabled() is False
    store.set_enabled(True)
    cat.close()
    cat = Catalog(tmp_path / "c.sqlite3")
    store = blind.BlindStore(cat)
    assert store.enabled() is True
    r = store.reveal("a1", by="recruiter1", reason="interview booked")
    store.reveal("b1", by="recruiter2")
    log = store.reveals()
    assert [(x.candidate_id, x.revealed_by) for x in log] == [("a1", "recruiter1"), ("b1", "recruiter2")]
    assert log[0].reason == "interview booked" and log[0].revealed_at == pytest.approx(r.revealed_at)
    assert [x.candidate_id for x in store.reveals("b1")] == ["b1"]
    cat.delete_candidate("a1")
    assert [x.candidate_id for x in store.reveals()] == ["b1"]


def test_migration_adds_the_reveal_log_to_a_version_3_catalog(tmp_path):
    from cvrag_desktop.catalog.screening import SCREENING_SCHEMA

    path = tmp_path / "v3.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(catalog_db.SCHEMA + catalog_db.PERSON_LINKS + SCREENING_SCHEMA)
    conn.execute("INSERT INTO meta VALUES ('schema_version', '3')")
    conn.commit()
    conn.close()
    cat = Catalog(path)
    assert cat.schema_version() == catalog_db.SCHEMA_VERSION >= 4
    assert blind.BlindStore(cat).reveals() == []


def test_services_reveal_records_who_and_rejects_unknown_ids(tmp_path, monkeypatch):
    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.config import app_paths

    monkeypatch.setenv("CVRAG_HOME", str(tmp_path / "home"))
    svc = App(app_paths())
    try:
        add_document(svc.catalog, "a1", ANA_OLD)
        assert svc.blind.set_blind(True) is True
        out = svc.blind.reveal_candidate("a1", by="lead")
        assert out["name"] == "Ana Ruiz" and out["revealed_by"] == "lead"
        assert [(r.candidate_id, r.revealed_by) for r in svc.blind.reveals()] == [("a1", "lead")]
        with pytest.raises(NotFound):
            svc.blind.reveal_candidate("nope")
    finally:
        svc.close()


def test_blind_csv_export_and_cli_flag(tmp_path, capsys):
    import csv
    import json

    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.catalog.csv_export import export_candidates_csv
    from cvrag_desktop.cli.entry import main

    rows = [dict(ROW)]
    export_candidates_csv(rows, tmp_path / "plain.csv", notes={"abc123": "Ana Ruiz said yes"})
    export_candidates_csv(rows, tmp_path / "blind.csv", notes={"abc123": "Ana Ruiz said yes"}, blind=True)
    plain = (tmp_path / "plain.csv").read_text(encoding="utf-8-sig")
    blind_text = (tmp_path / "blind.csv").read_text(encoding="utf-8-sig")
    assert "Ana Ruiz" in plain and "ruizmail" in plain
    for secret in ("Ana", "Ruiz", "ruizmail", "600 111", "Mayor"):
        assert secret not in blind_text
    table = list(csv.reader(blind_text.splitlines()))
    assert table[1][0] == blind.pseudonym("abc123") and "said yes" in table[1][1] and "Python" in table[1]

    svc = App()
    add_document(svc.catalog, "a1", ANA_OLD)
    svc.close()
    assert main(["export", str(tmp_path / "cli.csv"), "--blind", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res == {"exported": 1, "path": str(tmp_path / "cli.csv"), "blind": True}
    text = (tmp_path / "cli.csv").read_text(encoding="utf-8-sig")
    assert blind.pseudonym("a1") in text and "Ana" not in text and "ruizmail" not in text
    assert main(["export", str(tmp_path / "open.csv")]) == 0
    assert "Ana Ruiz" in (tmp_path / "open.csv").read_text(encoding="utf-8-sig")
