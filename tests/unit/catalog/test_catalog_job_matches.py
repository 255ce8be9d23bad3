"""Saved job matches: save / list / open / delete, the v4 → v5 migration, and forgetting a candidate."""

from __future__ import annotations

import json
import sqlite3

import pytest

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.job_matches import JobMatchStore
from cvrag_desktop.catalog.store import schema as catalog_db
from cvrag_desktop.domain import Chunk
from cvrag_desktop.errors import InvalidInput, NotFound
from tests.support.people_docs import ANA_NEW, ANA_OLD, BEN, add_document

JD = "Position: Backend developer\nRequirements: Python, Go\nNice to have: German, Klingon"


def add_cv(catalog, cid: str, cv, library) -> None:
    """A document whose one chunk prints the name and the skills (so a met skill has evidence)."""
    add_document(catalog, cid, cv, library)
    sha = (cid * 64)[:64]
    fid = catalog.file_by_sha(sha)["file_id"]
    text = f"{cv.name}\nSkills: {', '.join(cv.skills)}"
    chunk = Chunk(chunk_id=f"{cid}-0", candidate_id=cid, section="skills", ordinal=0, text=text, header="")
    catalog.save_candidate(cid, sha, cv, [chunk], fid)


@pytest.fixture
def services(_isolated_home):
    """A services session in this test's fresh CVRAG_HOME, with Ana (two documents) and Ben."""
    from cvrag_desktop.app.assembly import App

    svc = App()
    lib = svc.paths.library_dir
    for cid, cv in (("a1", ANA_OLD), ("a2", ANA_NEW), ("b1", BEN)):
        add_cv(svc.catalog, cid, cv, lib)
    yield svc
    svc.close()


def _result(services) -> dict:
    return services.assistant.match_jd(JD, use_llm=False)


def test_match_rows_are_people_and_unread_requirements_are_listed(services):
    result = _result(services)
    ids = [c["candidate_id"] for c in result["candidates"]]
    assert sorted(ids) == ["a2", "b1"]  # Ana's two CVs make one row: her best-matching document
    ana = next(c for c in result["candidates"] if c["candidate_id"] == "a2")
    assert ana["person_id"] == "a2" and ana["documents"] == 2
    assert ids[0] == "a2"  # Python and Go met beats Ben's nothing
    assert result["unread"] == ["German", "Klingon"]


def test_save_list_open_delete(services):
    result = _result(services)
    saved = services.jobs.save_match(result, JD)
    assert saved["title"] == "Backend developer" and saved["candidates"] == 2 and saved["not_interpreted"] == 2
    other = services.jobs.save_match(result, JD, title="  Second   try ")
    assert [m["match_id"] for m in services.jobs.list_matches()] == [other["match_id"], saved["match_id"]]
    assert services.jobs.list_matches()[0]["title"] == "Second try"
    opened = services.jobs.open_match(saved["match_id"])
    assert opened["jd_text"] == JD and opened["used_llm"] is False and opened["title"] == "Backend developer"
    got = opened["result"]
    assert [c["candidate_id"] for c in got["candidates"]] == [c["candidate_id"] for c in result["candidates"]]
    assert got["candidates"][0]["cells"] == result["candidates"][0]["cells"]
    assert got["evidence"] == result["evidence"] and got["evidence"]
    assert got["unread"] == ["German", "Klingon"] and got["requirements"] == result["requirements"]
    services.jobs.delete_match(saved["match_id"])
    assert [m["match_id"] for m in services.jobs.list_matches()] == [other["match_id"]]
    with pytest.raises(NotFound):
        services.jobs.open_match(saved["match_id"])
    with pytest.raises(NotFound):
        services.jobs.delete_match(saved["match_id"])
    with pytest.raises(InvalidInput):
        services.jobs.open_match("abc")
    with pytest.raises(InvalidInput):
        services.jobs.save_match(result, "   ")
    assert services.catalog.query("SELECT COUNT(*) FROM job_match_rows WHERE match_id = ?",
                                  (saved["match_id"],))[0][0] == 0


def test_forget_removes_the_candidate_from_every_saved_match_and_backup(services):
    result = _result(services)
    first = services.jobs.save_match(result, JD)["match_id"]
    second = services.jobs.save_match(result, JD, title="again")["match_id"]
    backup = services.catalog.backup_now("test")
    services.people.delete_person("a2")  # both of Ana's documents
    for mid in (first, second):
        got = services.jobs.open_match(mid)["result"]
        assert [c["candidate_id"] for c in got["candidates"]] == ["b1"]
        flat = json.dumps(got, ensure_ascii=False)
        assert "Ana" not in flat and "Ruiz" not in flat and "a2-0" not in flat
        assert all(ev["candidate_id"] != "a2" for ev in got["evidence"].values())
    assert services.jobs.list_matches()[0]["candidates"] == 1
    with sqlite3.connect(backup) as conn:
        assert {r[0] for r in conn.execute("SELECT candidate_id FROM job_match_rows")} == {"b1"}
        assert not [r for r in conn.execute("SELECT evidence FROM job_match_evidence") if "Ana" in r[0]]


def test_migration_adds_saved_matches_to_a_version_4_catalog(tmp_path):
    from cvrag_desktop.catalog.privacy.blind import BLIND_SCHEMA
    from cvrag_desktop.catalog.screening import SCREENING_SCHEMA

    path = tmp_path / "v4.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(catalog_db.SCHEMA + catalog_db.PERSON_LINKS + SCREENING_SCHEMA + BLIND_SCHEMA)
    conn.execute("ALTER TABLE candidates ADD COLUMN grouping TEXT")  # added by the v2 step
    conn.execute("INSERT INTO meta VALUES ('schema_version', '4')")
    conn.commit()
    conn.close()
    cat = Catalog(path)
    try:
        assert cat.schema_version() == catalog_db.SCHEMA_VERSION >= 5
        store = JobMatchStore(cat)
        assert store.list() == []
        add_document(cat, "b1", BEN)
        row = {"candidate_id": "b1", "name": "Ben Okafor", "score": 0, "met": 0, "total": 1,
               "cells": [{"requirement": "Python", "kind": "skill", "must": True, "status": "not_met",
                          "evidence_id": ""}]}
        saved = store.save({"candidates": [row], "requirements": {}, "unread": ["Klingon"]}, "Python developer")
        assert saved["title"] == "Python developer" and saved["candidates"] == 1
        cat.delete_candidate("b1")  # the trigger works on a migrated catalog too
        assert store.get(saved["match_id"])["result"]["candidates"] == []
    finally:
        cat.close()


def test_default_title_is_the_stated_title_else_the_first_line():
    """A saved match without a title is named from its description (catalog code, no assistant import)."""
    from cvrag_desktop.catalog.job_matches import default_title

    assert default_title("## We are hiring\nPuesto: Ingeniera de datos\nPython") == "Ingeniera de datos"
    assert default_title("\n\n  Senior   Go engineer  \nRequirements: Go") == "Senior Go engineer"
    assert default_title("   ") == "Job description"
    assert len(default_title("Role: " + "x" * 300)) == 80
