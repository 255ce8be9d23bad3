"""Retention: presets with their source, clocks from last activity, consent, and a purge that forgets only the due."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.catalog.compliance.retention import NOT_LEGAL_ADVICE, PRESETS
from cvrag_desktop.cli.entry import main
from cvrag_desktop.errors import InvalidInput
from tests.support.home_grep import grep_data_home
from tests.support.people_docs import ANA_NEW, BEN, add_document


@pytest.fixture
def svc():
    s = App()
    for cid, cv in (("a1", ANA_NEW), ("b1", BEN)):
        add_document(s.catalog, cid, cv, s.paths.data_dir / "library")
    yield s
    s.close()


def test_presets_name_their_source_and_say_they_are_not_legal_advice(svc):
    assert {"DE", "AT", "FR", "NL", "NL-consent", "UK"} <= set(PRESETS)
    assert PRESETS["NL"][0] == 28 and PRESETS["AT"][0] == 214 and PRESETS["FR"][0] == 730
    assert svc.compliance.retention.policy().days is None
    assert svc.compliance.retention_due(3650) == []  # no period chosen: nobody is due
    p = svc.compliance.set_retention("de")
    assert (p["preset"], p["days"]) == ("DE", 183) and "Germany" in p["source"] and p["notice"] == NOT_LEGAL_ADVICE
    assert svc.compliance.set_retention("custom", 90)["days"] == 90
    with pytest.raises(InvalidInput):
        svc.compliance.set_retention("custom")
    with pytest.raises(InvalidInput):
        svc.compliance.set_retention("XX", 10)
    assert [e["details"]["days"] for e in svc.compliance.audit_entries(action="settings.retention")] == [183, 90]


def test_clock_runs_from_last_activity_and_consent_extends_it(svc):
    svc.compliance.set_retention("custom", 30)
    now = datetime.now(UTC)
    status = {c["person_id"]: c for c in svc.compliance.retention_status(now)["people"]}
    assert 29 <= status["b1"]["days_left"] <= 30
    assert sorted(c["person_id"] for c in svc.compliance.retention_due(31, now)) == ["a1", "b1"]
    assert svc.compliance.retention_due(10, now) == []
    until = (now + timedelta(days=200)).date().isoformat()
    svc.compliance.set_consent("b1", until)
    later = now + timedelta(days=60)
    assert [c["person_id"] for c in svc.compliance.retention_due(0, later)] == ["a1"]
    b = {c["person_id"]: c for c in svc.compliance.retention_status(later)["people"]}["b1"]
    assert b["consent_until"] == until and b["due"][:10] > until
    svc.screening.set_screening(["a1"], status="hired")  # an employee now: never on the list
    assert [c["person_id"] for c in svc.compliance.retention_due(0, later + timedelta(days=400))] == ["b1"]
    with pytest.raises(InvalidInput):
        svc.compliance.set_consent("b1", "2001-01-01")
    with pytest.raises(InvalidInput):
        svc.compliance.set_consent("b1", "next week")
    assert svc.compliance.set_consent("b1", None)["consent_until"] is None


def test_a_screening_change_restarts_the_clock(svc):
    svc.compliance.set_retention("custom", 30)
    old = time.time() - 40 * 86400
    with svc.catalog.transaction() as c:
        c.execute("UPDATE candidates SET created_at = ?", (old,))
    assert {c["person_id"] for c in svc.compliance.retention_due(0)} == {"a1", "b1"}
    svc.screening.set_screening(["b1"], rating=3)
    assert {c["person_id"] for c in svc.compliance.retention_due(0)} == {"a1"}


def test_purge_removes_what_a_grep_finds_for_the_purged_and_nothing_of_the_others(tmp_path, _isolated_home):
    from tests.support.fault_cvs import EMAIL, NAME, OTHERS, PHRASE, write_corpus

    s = App()
    s.library.ingest([write_corpus(tmp_path / "in")[0].parent], use_llm=False, workers=1)
    people = {p["name"]: p["id"] for p in s.people.list_people()}
    target, kept, hired = people[NAME], people[OTHERS[0][0]], people[OTHERS[1][0]]
    s.compliance.set_retention("custom", 30)
    now = datetime.now(UTC)
    s.compliance.set_consent(kept, (now + timedelta(days=365)).date().isoformat())
    s.screening.set_screening([hired], status="hired")
    sl = s.shortlists.create("Pool")
    s.shortlists.add(sl.shortlist_id, [target, kept], note="both interesting")
    s.screening.set_screening([target], note=f"{NAME} prefers mornings")
    s.assistant.ask(f"What did {NAME} ({EMAIL}) do?", use_llm=False)
    s.assistant.ask(f"What does {OTHERS[0][0]} do?", use_llm=False)
    s.catalog.backup_now("test")
    later = now + timedelta(days=45)
    assert [c["person_id"] for c in s.compliance.retention_due(0, later)] == [target]
    with pytest.raises(InvalidInput):
        s.compliance.retention_purge([kept], later)  # not due: refused, nothing forgotten
    needles = [NAME, EMAIL, PHRASE]
    before = grep_data_home(s.paths.data_dir, needles)
    assert before["rows"], "the grep found nothing before the purge: the test would prove nothing"
    others_before = grep_data_home(s.paths.data_dir, [OTHERS[0][0], OTHERS[0][1], OTHERS[1][0], OTHERS[1][1]])

    report = s.compliance.retention_purge([target], later)
    assert report["purged"] == 1 and report["documents"] == 1 and not report["pending"]
    s.close()

    after = grep_data_home(s.paths.data_dir, [*needles, target])
    assert after == {"rows": [], "files": []}, f"still there after the purge: {after['files']} " \
                                               f"{[(f, t) for f, t, _r in after['rows']]}"
    others_after = grep_data_home(s.paths.data_dir, [OTHERS[0][0], OTHERS[0][1], OTHERS[1][0], OTHERS[1][1]])
    kinds = sorted({(f, t) for f, t, _r in others_before["rows"]})
    assert sorted({(f, t) for f, t, _r in others_after["rows"]}) == kinds  # every kind of record of the others stays
    assert len(others_after["rows"]) == len(others_before["rows"])
    s = App()
    assert {p["id"] for p in s.people.list_people()} == {kept, hired}
    purge = s.compliance.audit_entries(action="retention.")
    assert [e["action"] for e in purge] == ["retention.consent", "retention.purge", "retention.purge_batch"]
    assert purge[2]["details"]["people"] == 1 and s.compliance.audit_verify()["ok"]
    s.close()
    print(f"\nretention purge: {len(before['rows'])} rows + {len(before['files'])} files named the purged person "
          f"before, 0 after; the others' {len(others_before['rows'])} rows all kept")


def test_cli_retention_purge_needs_confirmation(svc, capsys):
    svc.compliance.set_retention("custom", 30)
    with svc.catalog.transaction() as c:
        c.execute("UPDATE candidates SET created_at = ? WHERE candidate_id = 'b1'", (time.time() - 40 * 86400,))
    svc.close()
    assert main(["retention", "status"]) == 0
    out = capsys.readouterr().out
    assert "custom" in out and "not legal advice" in out and "(2 people)" in out
    assert main(["retention", "due", "--days", "0", "--json"]) == 0
    assert [c["person_id"] for c in json.loads(capsys.readouterr().out)] == ["b1"]
    assert main(["retention", "purge"]) == 2
    assert "nothing was deleted" in capsys.readouterr().out
    again = App()
    assert {p["id"] for p in again.people.list_people()} == {"a1", "b1"}
    again.close()
    assert main(["retention", "purge", "--confirm"]) == 0
    assert "purged 1 people" in capsys.readouterr().out
    again = App()
    assert {p["id"] for p in again.people.list_people()} == {"a1"}
    again.close()
    assert main(["retention", "consent", "a1", "--until", "1999-01-01"]) == 2
    assert "in the past" in capsys.readouterr().err
    assert main(["retention", "set", "--preset", "NL", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["days"] == 28
