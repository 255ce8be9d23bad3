"""Each audited action of the facade (GUI and CLI alike) writes exactly one audit entry per person."""

from __future__ import annotations

import json
import os

import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.catalog.compliance.audit import AUDIT_FILE
from cvrag_desktop.config import load_settings
from tests.support.people_docs import ANA_NEW, ANA_OLD, BEN, add_document


@pytest.fixture
def svc():
    s = App()
    lib = s.paths.data_dir / "library"
    for cid, cv in (("a1", ANA_OLD), ("a2", ANA_NEW), ("b1", BEN)):
        add_document(s.catalog, cid, cv, lib)
    yield s
    s.close()


def new_entries(svc, before: int) -> list[dict]:
    return svc.compliance.audit_entries()[before:]


def one(svc, action, fn) -> dict:
    """Run ``fn`` and return the single entry it wrote (asserting its action)."""
    n = len(svc.compliance.audit_entries())
    fn()
    got = new_entries(svc, n)
    assert [e["action"] for e in got] == [action], got
    return got[0]


def test_screening_changes_write_one_entry_each(svc):
    e = one(svc, "screening.status", lambda: svc.screening.set_screening(["a2"], status="interview"))
    assert {k: e["details"][k] for k in ("from", "to")} == {"from": "new", "to": "interview"}
    assert e["person"].startswith("P-") and e["details"]["documents"][0].startswith("P-")  # both documents
    assert one(svc, "screening.rating", lambda: svc.screening.set_screening(["b1"], rating=4))["details"]["to"] == 4
    e = one(svc, "screening.tags", lambda: svc.screening.set_screening(["b1"], add_tags=["senior"]))
    assert e["details"]["tags_now"] == 1 and "senior" not in json.dumps(e)
    e = one(svc, "screening.note", lambda: svc.screening.set_screening(["b1"], note="Strong SQL, call back"))
    assert e["details"] == {"chars": 21, "cleared": False}
    assert "call back" not in json.dumps(svc.compliance.audit_entries())
    n = len(svc.compliance.audit_entries())
    svc.screening.set_screening(["b1"], rating=4)  # no change, no entry
    assert new_entries(svc, n) == []
    svc.screening.set_screening(["a2", "b1"], status="rejected")  # a bulk change: one entry per person
    assert [e["action"] for e in new_entries(svc, n)] == ["screening.status"] * 2


def test_shortlist_changes_are_audited_without_note_text(svc):
    sl = svc.shortlists.create("Backend")
    e = one(svc, "shortlist.add", lambda: svc.shortlists.add(sl.shortlist_id, ["b1"], note="secret remark"))
    assert e["details"]["shortlist_id"] == sl.shortlist_id
    one(svc, "shortlist.note", lambda: svc.shortlists.set_note(sl.shortlist_id, "b1", "another remark"))
    one(svc, "shortlist.remove", lambda: svc.shortlists.remove(sl.shortlist_id, ["b1"]))
    svc.shortlists.add(sl.shortlist_id, ["b1"])
    e = one(svc, "shortlist.delete", lambda: svc.shortlists.delete(sl.shortlist_id))
    assert e["details"]["removed"] == 1
    assert "remark" not in json.dumps(svc.compliance.audit_entries())


def test_blind_reveal_keeps_the_reason_without_the_persons_name(svc):
    e = one(svc, "blind.reveal", lambda: svc.blind.reveal_candidate("b1", reason="call Ben Okafor for interview"))
    assert "Okafor" not in e["details"]["reason"] and "interview" in e["details"]["reason"]
    one(svc, "settings.blind_mode", lambda: svc.blind.set_blind(True))


def test_people_merge_split_and_exports(svc, tmp_path):
    one(svc, "people.split", lambda: svc.people.split_document("a1"))
    one(svc, "people.merge", lambda: svc.people.merge_people(["a1", "a2"]))
    rows = svc.people.list_people()
    e = one(svc, "export.people", lambda: svc.screening.export_people_csv(rows, tmp_path / "p.csv", None, {}))
    assert e["details"]["rows"] == 2 and len(e["details"]["ranking"]) == 2
    e = one(svc, "export.candidates", lambda: svc.screening.export_candidates_csv(svc.people.list_candidates(), tmp_path / "c.csv",
                                                                        blind=True))
    assert e["details"]["blind"] is True


def test_saved_matches_and_settings(svc):
    result = {"requirements": {"must_have_skills": ["SQL"]}, "mode": "deterministic",
              "candidates": [{"candidate_id": "b1", "cells": []}], "evidence": {}}
    saved = {}
    e = one(svc, "job_match.save", lambda: saved.update(svc.jobs.save_match(result, "Analyst with SQL")))
    assert e["details"]["match_id"] == saved["match_id"] and len(e["details"]["ranking"]) == 1
    one(svc, "job_match.delete", lambda: svc.jobs.delete_match(saved["match_id"]))
    settings = load_settings(svc.paths).model_copy(update={"llm_enabled": False})
    e = one(svc, "settings.change", lambda: svc.health.save_settings(settings))
    assert e["details"]["changed"] == ["llm_enabled"]


def test_forget_is_audited_and_leaves_no_raw_id_in_the_audit_store(svc):
    from tests.support.people_docs import make_cv

    cid = "zq-person-kept-nowhere"  # not hex: cannot turn up inside a hash or a reference by chance
    add_document(svc.catalog, cid, make_cv("Ulrike Zwanenburg", ["ulrike.zw@example.org"]),
                 svc.paths.data_dir / "library")
    svc.screening.set_screening([cid], status="screening")
    svc.blind.reveal_candidate(cid, reason="call Ulrike Zwanenburg")
    ref = svc.compliance.person_refs(cid)[0]
    e = one(svc, "forget", lambda: svc.people.delete_person(cid))
    assert e["person"] == ref and e["details"]["documents_forgotten"] == 1
    assert svc.audit.known_refs([cid]) == []
    assert svc.compliance.audit_verify()["ok"]
    svc.close()
    folder = svc.paths.data_dir
    for name in os.listdir(folder):
        if name.startswith(AUDIT_FILE):
            data = (folder / name).read_bytes()
            for needle in (cid.encode(), b"Ulrike", b"Zwanenburg", b"ulrike.zw@example.org"):
                assert needle not in data, (name, needle)


def test_job_match_run_is_audited(tmp_path):
    from tests.support.fault_cvs import write_corpus

    s = App()
    try:
        s.library.ingest([write_corpus(tmp_path / "in")[0].parent], use_llm=False, workers=1)
        e = one(s, "job_match.run", lambda: s.assistant.match_jd("Backend engineer. Must have: Kafka, Python.",
                                                                  use_llm=False))
        assert e["details"]["shown"] == len(e["details"]["ranking"]) >= 1
        assert e["details"]["mode"] == "deterministic" and len(e["details"]["description"]) == 16
        e = one(s, "chat.answer", lambda: s.assistant.ask("Who knows Kafka?", use_llm=False))
        assert e["details"]["status"] == "answered" and e["details"]["ranking"]
        assert all(r.startswith("P-") for r in e["details"]["ranking"])
        assert "Kafka" not in json.dumps(e)  # the question is not kept
    finally:
        s.close()


def test_an_unwritable_audit_store_never_stops_a_forget(svc, monkeypatch):
    from cvrag_desktop.catalog.compliance.audit import AuditLog
    from cvrag_desktop.errors import DiskFull

    def full(*_a, **_k):
        raise DiskFull("The disk is full.")

    monkeypatch.setattr(AuditLog, "record_many", full)
    report = svc.people.delete_candidate("b1")
    assert svc.catalog.candidate("b1") is None and "could not record" in report["audit_error"]
