"""People through the application layer (app.people): list_people, documents, merge, split, forget (rows and library copies)."""

from __future__ import annotations

import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.errors import InvalidInput, NotFound
from tests.support.people_docs import ANA_NEW, ANA_OLD, ANA_OTHER, BEN, add_document


@pytest.fixture
def svc():
    s = App()
    lib = s.paths.data_dir / "library"
    s.stored = {cid: add_document(s.catalog, cid, cv, lib)
                for cid, cv in (("a1", ANA_OLD), ("a2", ANA_NEW), ("a3", ANA_OTHER), ("b1", BEN))}
    yield s
    s.close()


def by_id(rows):
    return {r["id"]: r for r in rows}


def test_list_people_one_row_per_person_newest_fields_first(svc):
    rows = by_id(svc.people.list_people())
    assert set(rows) == {"a2", "a3", "b1"}
    ana = rows["a2"]
    assert ana["documents"] == 2 and ana["document_ids"] == ["a2", "a1"]
    assert ana["name"] == "Dr. Ana Ruiz" and ana["current_company"] == "Contoso"
    assert ana["label"] == "Dr. Ana Ruiz · Lead Developer · Contoso"
    # namesakes are shown apart by their label; a unique name by the name
    assert ana["namesakes"] == 1 and ana["display"] == ana["label"]
    assert rows["a3"]["display"] == "Ana Ruiz · Nurse · City Hospital"
    assert rows["b1"]["display"] == "Ben Okafor" and rows["b1"]["documents"] == 1
    full = by_id(svc.people.list_people(with_documents=True))
    assert [d["id"] for d in full["a2"]["document_rows"]] == ["a2", "a1"]


def test_person_documents_by_any_document_id(svc):
    docs = svc.people.person_documents("a1")
    assert [d["id"] for d in docs] == ["a2", "a1"] and docs[0]["primary"] and not docs[1]["primary"]
    assert docs[1]["file_name"] == "a1.pdf" and docs[1]["stored_path"] == str(svc.stored["a1"])
    assert docs[0]["newest_date"] == "2023-02"
    with pytest.raises(NotFound):
        svc.people.person_documents("nope")


def test_merge_and_split_survive_reopen(svc):
    result = svc.people.merge_people(["a3", "b1"])
    assert sorted(result["documents"]) == ["a3", "b1"]
    with pytest.raises(InvalidInput):
        svc.people.merge_people(["a1", "a2"])  # already one person
    svc.people.split_document("a1")
    home = svc.paths
    svc.close()
    again = App(home)
    try:
        rows = by_id(again.people.list_people())
        assert len(rows) == 3 and {"a1", "a2"} <= set(rows)
        assert rows["a1"]["documents"] == 1 and rows["a2"]["documents"] == 1
        assert sorted(d["id"] for d in again.people.person_documents("b1")) == ["a3", "b1"]
        with pytest.raises(InvalidInput):
            again.people.split_document("a1")  # already alone
        # merging back wins over the earlier split
        again.people.merge_people(["a1", "a2"])
        assert [d["id"] for d in again.people.person_documents("a1")] == ["a2", "a1"]
    finally:
        again.close()


def test_split_keeps_the_rest_together(svc):
    svc.people.merge_people(["a2", "a3"])  # a1, a2 (rule) + a3 (merge)
    assert len(svc.people.person_documents("a1")) == 3
    svc.people.split_document("a2")
    assert sorted(d["id"] for d in svc.people.person_documents("a1")) == ["a1", "a3"]
    assert [d["id"] for d in svc.people.person_documents("a2")] == ["a2"]


def test_forget_document_and_person_remove_rows_and_library_copies(svc):
    assert all(p.exists() for p in svc.stored.values())
    svc.people.delete_candidate("a1")  # one document of Ana
    assert not svc.stored["a1"].exists() and svc.stored["a2"].exists()
    assert by_id(svc.people.list_people())["a2"]["documents"] == 1
    deleted = svc.people.delete_person("a3")
    assert deleted == ["a3"] and not svc.stored["a3"].exists()
    svc.people.merge_people(["a2", "b1"])
    assert sorted(svc.people.delete_person("b1")) == ["a2", "b1"]
    assert svc.people.list_people() == [] and svc.catalog.counts()["candidates"] == 0
    assert not any(p.exists() for p in svc.stored.values())
    assert svc.catalog.person_links() == []
    with pytest.raises(NotFound):
        svc.people.delete_person("a2")


def test_chat_people_index_picks_the_same_primary_document_when_two_copies_tie(svc):
    """Two identical documents of one person: only the import time tells which is newer; the chat's
    people index and the browser's list must agree on it."""
    import time

    from cvrag_desktop.assistant.facts.people import PeopleIndex
    from cvrag_desktop.assistant.facts.store import CatalogFacts

    time.sleep(0.01)
    add_document(svc.catalog, "0b", BEN)  # a second copy of the same CV, imported later (its id sorts first)
    listed = {r["id"]: r["document_ids"] for r in svc.people.list_people()}
    chat = {pid: list(p.documents) for pid, p in PeopleIndex(CatalogFacts(svc.catalog)).refresh().people.items()}
    assert chat == listed
    assert listed.get("0b") == ["0b", "b1"]
