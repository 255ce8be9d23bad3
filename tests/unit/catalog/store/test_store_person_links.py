"""The recruiter's merges and splits in the catalog: migration, persistence, cleanup on delete."""

from __future__ import annotations

import sqlite3

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.store import schema as catalog_db
from tests.support.people_docs import ANA_NEW, ANA_OLD, BEN, add_document


def test_migration_adds_links_to_a_version_1_catalog(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(catalog_db.SCHEMA)  # the round-1 schema (no person_links)
    conn.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    record = ANA_NEW.model_dump_json()
    conn.execute("INSERT INTO candidates VALUES ('a2', 'sha', 'Dr. Ana Ruiz', '[]', '[]', NULL, NULL, NULL, '[]', "
                 "'[]', '[]', '[]', '[]', NULL, ?, 1.0)", (record,))
    conn.commit()
    conn.close()
    cat = Catalog(path)
    assert cat.schema_version() == catalog_db.SCHEMA_VERSION
    assert cat.person_links() == [] and cat.links_version() == 0
    row = cat.person_rows()[0]  # the stored record's grouping fields were filled in
    assert row["roles"] == [["Lead Developer", "Contoso", "2023-02", None, True],
                            ["Developer", "Northwind", "2018-01", "2023-01", False]]
    assert row["n_education"] == 0
    cat.set_person_links(same=[("b", "a")])
    assert cat.person_links() == [("a", "b", "same")] and cat.links_version() == 1
    cat.close()
    again = Catalog(path)
    assert again.schema_version() == catalog_db.SCHEMA_VERSION and again.person_links() == [("a", "b", "same")]


def test_one_decision_per_pair_and_clear(tmp_path):
    cat = Catalog(tmp_path / "c.sqlite3")
    cat.set_person_links(same=[("a", "b"), ("a", "c")])
    cat.set_person_links(apart=[("b", "a")])
    assert sorted(cat.person_links()) == [("a", "b", "apart"), ("a", "c", "same")]
    cat.set_person_links(clear=["a"])
    assert cat.person_links() == []


def test_delete_keeps_the_rest_of_a_merge_and_drops_the_documents_links(tmp_path):
    cat = Catalog(tmp_path / "c.sqlite3")
    for cid, cv in (("a1", ANA_OLD), ("a2", ANA_NEW), ("b1", BEN)):
        add_document(cat, cid, cv)
    cat.set_person_links(same=[("a1", "a2"), ("a1", "b1")])  # a1 is the merge's anchor
    before = cat.links_version()
    cat.delete_candidate("a1")
    assert cat.person_links() == [("a2", "b1", "same")]
    assert cat.links_version() > before


def test_reimport_of_a_document_keeps_its_links(tmp_path):
    cat = Catalog(tmp_path / "c.sqlite3")
    add_document(cat, "a1", ANA_OLD)
    add_document(cat, "b1", BEN)
    cat.set_person_links(same=[("a1", "b1")])
    add_document(cat, "a1", ANA_OLD)  # re-parse replaces the candidate row
    assert cat.person_links() == [("a1", "b1", "same")]
