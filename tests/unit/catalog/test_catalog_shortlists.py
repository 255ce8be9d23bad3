"""Shortlists: CRUD, notes, uniqueness, cascade on forget, persistence."""

from __future__ import annotations

import pytest

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.shortlists import ShortlistStore
from cvrag_desktop.domain import NormalizedCV
from cvrag_desktop.errors import InvalidInput, NotFound


def _add_candidate(cat: Catalog, cid: str, name: str) -> None:
    file_id = cat.upsert_file(sha=cid * 4, original_path=f"/cv/{cid}.pdf", file_name=f"{cid}.pdf", size=1,
                              status="queued")
    cat.save_candidate(cid, cid * 4, NormalizedCV(name=name), [], file_id)


@pytest.fixture
def cat(tmp_path):
    c = Catalog(tmp_path / "catalog.sqlite3")
    for cid, name in (("a1", "Ana"), ("b2", "Bo"), ("c3", "Cy")):
        _add_candidate(c, cid, name)
    yield c
    c.close()


def test_create_add_note_remove(cat):
    store = ShortlistStore(cat)
    s = store.create("  Backend   hires ")
    assert s.name == "Backend hires" and s.size == 0
    assert store.add(s.shortlist_id, ["a1", "b2"], note="strong Kafka") == 2
    assert store.add(s.shortlist_id, "a1") == 0  # already there: kept
    store.set_note(s.shortlist_id, "b2", "call Monday")
    items = store.items(s.shortlist_id)
    assert [(i.candidate_id, i.name, i.note) for i in items] == [("a1", "Ana", "strong Kafka"),
                                                                 ("b2", "Bo", "call Monday")]
    assert store.get(s.shortlist_id).size == 2
    assert store.remove(s.shortlist_id, "a1") == 1
    assert store.notes(s.shortlist_id) == {"b2": "call Monday"}
    assert [m.name for m in store.memberships("b2")] == ["Backend hires"]


def test_names_unique_and_validated(cat):
    store = ShortlistStore(cat)
    a = store.create("Data")
    with pytest.raises(InvalidInput):
        store.create("data")
    with pytest.raises(InvalidInput):
        store.create("   ")
    with pytest.raises(InvalidInput):
        store.create("x" * 200)
    b = store.create("Frontend")
    with pytest.raises(InvalidInput):
        store.rename(b.shortlist_id, "DATA")
    assert store.rename(a.shortlist_id, "Data 2026").name == "Data 2026"
    assert [s.name for s in store.list()] == ["Data 2026", "Frontend"]


def test_unknown_ids(cat):
    store = ShortlistStore(cat)
    s = store.create("X")
    with pytest.raises(NotFound):
        store.add(s.shortlist_id, "nope")
    with pytest.raises(NotFound):
        store.add(999, "a1")
    with pytest.raises(NotFound):
        store.set_note(s.shortlist_id, "c3", "not on the list")
    with pytest.raises(NotFound):
        store.delete(999)


def test_forget_candidate_cascades_and_delete_keeps_candidates(cat):
    store = ShortlistStore(cat)
    s = store.create("Y")
    store.add(s.shortlist_id, ["a1", "c3"])
    cat.delete_candidate("a1")
    assert [i.candidate_id for i in store.items(s.shortlist_id)] == ["c3"]
    store.delete(s.shortlist_id)
    assert store.list() == []
    assert cat.candidate("c3") is not None


def test_persists_across_connections(tmp_path):
    path = tmp_path / "cat.sqlite3"
    c1 = Catalog(path)
    _add_candidate(c1, "a1", "Ana")
    s = ShortlistStore(c1).create("Keep")
    ShortlistStore(c1).add(s.shortlist_id, "a1", note="ñ 漢字")
    c1.close()
    c2 = Catalog(path)
    assert ShortlistStore(c2).notes(s.shortlist_id) == {"a1": "ñ 漢字"}
    c2.close()
