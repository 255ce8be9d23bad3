"""Screening per person (status, tags, rating, note) and saved searches in the catalog:
migration, round trip through a restart, person semantics, forget (catalog and backups), export."""

from __future__ import annotations

import csv
import json
import sqlite3

import pytest

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.screening import Screening, ScreeningStore, export_people_csv
from cvrag_desktop.catalog.store import schema as catalog_db
from cvrag_desktop.errors import InvalidInput, NotFound
from tests.support.people_docs import ANA_NEW, ANA_OLD, BEN, add_document


def test_migration_adds_screening_to_a_version_2_catalog(tmp_path):
    path = tmp_path / "v2.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(catalog_db.SCHEMA + catalog_db.PERSON_LINKS)
    conn.execute("INSERT INTO meta VALUES ('schema_version', '2')")
    conn.commit()
    conn.close()
    cat = Catalog(path)
    assert cat.schema_version() == catalog_db.SCHEMA_VERSION >= 3
    assert ScreeningStore(cat).states({"x": ["x"]}) == {"x": Screening()}
    assert ScreeningStore(cat).saved_searches() == []


def test_round_trip_through_restart_and_person_semantics(tmp_path):
    path = tmp_path / "c.sqlite3"
    cat = Catalog(path)
    store = ScreeningStore(cat)
    store.update({"a1": ["a1"]}, status="screening", rating=4, note="Strong Go", tags=["backend", " Remote  ok "])
    store.update({"b1": ["b1"]}, status="Interview")
    cat.close()
    cat = Catalog(path)
    store = ScreeningStore(cat)
    # a newer document of the same person (a2) inherits the state of the older one
    states = store.states({"a2": ["a2", "a1"], "b1": ["b1"], "c1": ["c1"]})
    assert states["a2"].status == "screening" and states["a2"].rating == 4
    assert states["a2"].tags == ["backend", "Remote ok"] and states["a2"].note == "Strong Go"
    assert states["b1"].status == "interview" and states["c1"] == Screening()
    # bulk tag: each person keeps its own other tags; the person's documents all get the state
    store.update({"a2": ["a2", "a1"], "b1": ["b1"]}, add_tags=["Q4", "backend"], remove_tags=["REMOTE OK"])
    states = store.states({"a2": ["a2"], "a1": ["a1"], "b1": ["b1"]})
    assert states["a2"].tags == states["a1"].tags == ["backend", "Q4"]
    assert states["b1"].tags == ["Q4", "backend"] and states["b1"].status == "interview"
    store.update({"b1": ["b1"]}, rating=None)
    assert store.states({"b1": ["b1"]})["b1"].rating is None
    assert store.all_tags()[:2] == ["backend", "Q4"]


@pytest.mark.parametrize("change", [{"status": "maybe"}, {"rating": 6}, {"rating": "x"}, {"tags": ["x" * 41]},
                                    {"note": "n" * 4001}])
def test_invalid_changes_are_refused(tmp_path, change):
    store = ScreeningStore(Catalog(tmp_path / "c.sqlite3"))
    with pytest.raises(InvalidInput):
        store.update({"a": ["a"]}, **change)
    assert store.states({"a": ["a"]})["a"] == Screening()


def test_saved_searches(tmp_path):
    store = ScreeningStore(Catalog(tmp_path / "c.sqlite3"))
    store.save_search("  Go  backend ", "golang kafka", {"skills": {"Go", "Kafka"}, "min_years": 3.0})
    store.save_search("Nurses", "", {"language": "Spanish"})
    assert [s.name for s in store.saved_searches()] == ["Go backend", "Nurses"]
    go = store.saved_searches()[0]
    assert go.query == "golang kafka" and go.filters == {"skills": ["Go", "Kafka"], "min_years": 3.0}
    store.delete_search("Nurses")
    with pytest.raises(NotFound):
        store.delete_search("Nurses")
    with pytest.raises(InvalidInput):
        store.save_search(" ", "x", {})


@pytest.fixture
def services(_isolated_home):
    """A services session in this test's fresh CVRAG_HOME."""
    from cvrag_desktop.app.assembly import App

    svc = App()
    yield svc
    svc.close()


def test_forget_removes_the_state_from_catalog_and_backups(services):
    lib = services.paths.library_dir
    for cid, cv in (("a1", ANA_OLD), ("a2", ANA_NEW), ("b1", BEN)):
        add_document(services.catalog, cid, cv, lib)
    services.screening.set_screening(["a1"], status="offer", note="Ana: ask about notice period", add_tags=["senior"])
    services.screening.set_screening(["b1"], status="rejected")
    assert services.screening.screening_of(["a2"])["a2"]["status"] == "offer"
    backup = services.catalog.backup_now("test")
    services.people.delete_person("a2")  # both of Ana's documents
    assert [r[0] for r in services.catalog.query("SELECT candidate_id FROM screening")] == ["b1"]
    with sqlite3.connect(backup) as conn:
        assert [r[0] for r in conn.execute("SELECT candidate_id FROM screening")] == ["b1"]
    with pytest.raises(NotFound):
        services.screening.set_screening(["a1"], status="new")


def test_export_adds_screening_columns(tmp_path):
    rows = [{"id": "a2", "name": "Ana Ruiz", "skills": ["Go"]}, {"id": "b1", "name": "Ben Okafor"}]
    states = {"a2": Screening("interview", 5, ["backend", "Q4"], "=cmd|' /C calc'!A0", 1.0)}
    out = tmp_path / "people.csv"
    assert export_people_csv(rows, out, {"a2": "shortlist note"}, states) == 2
    with open(out, encoding="utf-8-sig", newline="") as fh:
        table = list(csv.reader(fh))
    assert table[0][:6] == ["Name", "Note", "Status", "Rating", "Tags", "Screening note"]
    assert table[1][:6] == ["Ana Ruiz", "shortlist note", "Interview", "5", "backend; Q4", "'=cmd|' /C calc'!A0"]
    assert table[2][:6] == ["Ben Okafor", "", "New", "", "", ""]


def test_cli_screen(services, capsys):
    from cvrag_desktop.cli.entry import main

    add_document(services.catalog, "a1", ANA_OLD)
    add_document(services.catalog, "a2", ANA_NEW)
    services.close()
    assert main(["screen", "a1", "--status", "interview", "--rating", "4", "--tag", "backend", "--note", "Call"]) == 0
    assert "interview" in capsys.readouterr().out
    assert main(["screen", "a2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["a2"] == {**out["a2"], "status": "interview", "rating": 4, "tags": ["backend"], "note": "Call"}
    assert main(["screen", "a2", "--status", "maybe"]) == 2
    assert "Unknown status" in capsys.readouterr().err
