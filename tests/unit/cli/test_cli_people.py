"""``cvrag people``: list (JSON and table), show, merge, split, forget; typed errors, never a traceback."""

from __future__ import annotations

import json

import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.cli.entry import main
from tests.support.people_docs import ANA_NEW, ANA_OLD, ANA_OTHER, BEN, add_document


@pytest.fixture
def library():
    svc = App()
    lib = svc.paths.data_dir / "library"
    stored = {cid: add_document(svc.catalog, cid, cv, lib)
              for cid, cv in (("a1", ANA_OLD), ("a2", ANA_NEW), ("a3", ANA_OTHER), ("b1", BEN))}
    svc.close()
    return stored


def run(capsys, *args) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_people_list_table_and_json(capsys, library):
    code, out, _ = run(capsys, "people")
    assert code == 0 and "2 documents" in out and "(3 people, 4 documents)" in out
    code, out, _ = run(capsys, "people", "list", "--json")
    rows = {r["id"]: r for r in json.loads(out)}
    assert rows["a2"]["documents"] == 2 and rows["a2"]["document_ids"] == ["a2", "a1"]
    for key in ("person_id", "label", "display", "name", "current_title", "current_company", "emails"):
        assert key in rows["a2"]


def test_people_show_merge_split_forget(capsys, library):
    code, out, _ = run(capsys, "people", "show", "a1")
    assert code == 0 and "a1.pdf" in out and "a2.pdf" in out
    code, out, _ = run(capsys, "people", "merge", "a3", "b1", "--json")
    assert code == 0 and sorted(json.loads(out)["documents"]) == ["a3", "b1"]
    code, out, _ = run(capsys, "people", "split", "a1")
    assert code == 0 and "split a1 out" in out
    code, out, _ = run(capsys, "people", "--json")
    assert len(json.loads(out)) == 3  # {a2}, {a1}, {a3, b1}
    code, out, _ = run(capsys, "people", "forget", "b1", "--json")
    assert code == 0 and sorted(json.loads(out)["deleted"]) == ["a3", "b1"]
    assert not library["a3"].exists() and not library["b1"].exists()
    code, out, _ = run(capsys, "people", "forget-document", "a1")
    assert code == 0 and not library["a1"].exists()
    code, out, _ = run(capsys, "people", "--json")
    assert [r["id"] for r in json.loads(out)] == ["a2"]


def test_people_errors_are_clear(capsys, library):
    code, out, _ = run(capsys, "people", "split", "b1", "--json")
    assert code == 2 and json.loads(out)["status"] == "invalid_input"
    code, _, err = run(capsys, "people", "merge", "a1")
    assert code == 2 and "two or more" in err
    code, _, err = run(capsys, "people", "show", "nope")
    assert code == 2 and "No person or document" in err and "Traceback" not in err
    code, _, err = run(capsys, "people", "merge", "a1", "a2")
    assert code == 2 and "at least two different people" in err
