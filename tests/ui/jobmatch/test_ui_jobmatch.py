"""Job-description matching: ranked candidates, requirement × candidate matrix, met cells open their evidence."""

from __future__ import annotations

JD = """Senior backend engineer
Requirements: Python, Kafka, 5+ years of experience, fluent English.
Nice to have: Docker"""


def test_job_match_matrix_and_evidence(chat_window, qtbot):
    dlg = chat_window.match_action.trigger() or chat_window.chat.job_dialog
    assert dlg is not None and dlg.isVisible()
    dlg.jd.setPlainText(JD)
    dlg.match_btn.click()
    qtbot.waitUntil(lambda: dlg.result is not None, timeout=60_000)
    cands = dlg.result["candidates"]
    headers = [dlg.table.horizontalHeaderItem(i).text() for i in range(dlg.table.columnCount())]
    assert headers[:4] == ["Candidate", "Score", "Met", "Flags"]
    assert {"Python", "Kafka", "5+ years", "English", "Docker (nice)"} <= set(headers)
    assert dlg.table.rowCount() == len(cands) > 1
    scores = [c["score"] for c in cands]
    assert scores == sorted(scores, reverse=True)
    marks = {dlg.table.item(r, c).text() for r in range(dlg.table.rowCount()) for c in range(4, dlg.table.columnCount())}
    assert "✓ met" in marks and marks <= {"✓ met", "✗ not met", "? unknown"}
    r, c = next((r, c) for r in range(dlg.table.rowCount()) for c in range(4, dlg.table.columnCount())
                if dlg.table.item(r, c).text() == "✓ met")
    ev = dlg.table.item(r, c).data(256)
    assert ev["candidate_id"] == cands[r]["candidate_id"]
    dlg.open_cell(r, c)
    stored = chat_window.services.people.get_candidate(ev["candidate_id"])["stored_path"]
    qtbot.waitUntil(lambda: dlg.preview.path == stored and dlg.preview.image is not None
                    and dlg.preview.page == (ev["page"] or 0), timeout=30_000)
    assert dlg.preview.highlight_rect is not None
    dlg.close()


def test_job_match_ends_in_a_shortlist_and_a_csv(chat_window, qtbot, tmp_path):
    import csv

    from cvrag_desktop.assistant.jobmatch.export import unread_requirements

    dlg = chat_window.match_job()
    assert not dlg.export_btn.isEnabled() and not dlg.shortlist_btn.isEnabled()
    dlg.jd.setPlainText(JD + ", German")
    dlg.match_btn.click()
    qtbot.waitUntil(lambda: dlg.result is not None, timeout=60_000)
    cands = dlg.result["candidates"]
    # a requirement the rules could not read is listed, not dropped silently
    headers = [dlg.table.horizontalHeaderItem(i).text() for i in range(dlg.table.columnCount())]
    if not any("German" in h for h in headers):
        assert "German" in dlg.unread and "German" in dlg.message.text()
    assert unread_requirements("Nice to have: Docker, Klingon", ["Docker"]) == ["Klingon"]
    # shortlist of the top 3, with the score as the note
    dlg.top_n.setValue(3)
    with qtbot.waitSignal(dlg.shortlisted, timeout=10_000) as made:
        dlg.shortlist_btn.click()
    name, added = made.args
    assert name.startswith("Match: Senior backend engineer") and added == 3
    store = chat_window.services.shortlists
    sl = next(s for s in store.list() if s.name == name)
    notes = store.notes(sl.shortlist_id)
    assert set(notes) == {c["candidate_id"] for c in cands[:3]}
    assert all(n.startswith("Job match: score ") for n in notes.values())
    bar = chat_window.candidates.shortlists
    qtbot.waitUntil(lambda: any(name in bar.combo.itemText(i) for i in range(bar.combo.count())), timeout=10_000)
    # the matrix as CSV
    out = tmp_path / "match.csv"
    with qtbot.waitSignal(dlg.exported, timeout=10_000) as done:
        dlg.export_matrix(out)
    assert done.args[1] == len(cands)
    with open(out, encoding="utf-8-sig", newline="") as fh:
        table = list(csv.reader(fh))
    assert table[0][:4] == ["Rank", "Candidate", "Score", "Met"] and table[0][-1] == "Candidate id"
    assert [r[-1] for r in table[1:]] == [c["candidate_id"] for c in cands]
    assert {v for r in table[1:] for v in r[4:-1]} <= {"met", "not met", "unknown", "not checked"}
    assert [h for h in table[0] if h.startswith("Not interpreted: ")] == [f"Not interpreted: {u}" for u in dlg.unread]
    dlg.close()


def test_saved_match_reopens_then_shortlist_and_csv(chat_window, qtbot, tmp_path):
    import csv

    dlg = chat_window.match_job()
    dlg.jd.setPlainText(JD + ", Klingon")
    dlg.match_btn.click()
    qtbot.waitUntil(lambda: dlg.result is not None, timeout=60_000)
    live = dlg.result
    with qtbot.waitSignal(dlg.saved, timeout=10_000) as got:
        dlg.save_btn.click()
    mid = got.args[0]["match_id"]
    assert got.args[0]["title"] == "Senior backend engineer"
    dlg.close()
    chat_window.chat.job_dialog = None  # a fresh dialog, as after a restart
    dlg = chat_window.match_job()
    qtbot.waitUntil(lambda: dlg.saved_combo.count() == 1, timeout=10_000)
    dlg.jd.clear()
    with qtbot.waitSignal(dlg.opened, timeout=10_000):
        dlg.open_saved()
    assert dlg.jd.toPlainText().startswith("Senior backend engineer")
    assert [c["candidate_id"] for c in dlg.result["candidates"]] == [c["candidate_id"] for c in live["candidates"]]
    assert "Klingon" in dlg.unread and "Not interpreted" in dlg.message.text()
    dlg.top_n.setValue(2)
    with qtbot.waitSignal(dlg.shortlisted, timeout=10_000) as made:
        dlg.shortlist_btn.click()
    store = chat_window.services.shortlists
    sl = next(s for s in store.list() if s.name == made.args[0])
    assert set(store.notes(sl.shortlist_id)) == {c["candidate_id"] for c in live["candidates"][:2]}
    out = tmp_path / "saved.csv"
    with qtbot.waitSignal(dlg.exported, timeout=10_000):
        dlg.export_matrix(out)
    with open(out, encoding="utf-8-sig", newline="") as fh:
        table = list(csv.reader(fh))
    assert "Not interpreted: Klingon" in table[0] and len(table) - 1 == len(live["candidates"])
    assert chat_window.services.jobs.open_match(mid)["result"]["unread"] == dlg.unread
    # delete asks first: refused keeps it, confirmed removes it (the shortlist made from it stays)
    dlg.confirm = lambda *_a: False
    dlg.delete_saved()
    assert chat_window.services.jobs.list_matches() and dlg.saved_combo.count() == 1
    dlg.confirm = lambda *_a: True
    dlg.delete_saved()
    qtbot.waitUntil(lambda: dlg.saved_combo.count() == 0, timeout=10_000)
    assert chat_window.services.jobs.list_matches() == [] and any(s.name == made.args[0] for s in store.list())
    dlg.close()


def test_blind_mode_hides_identities_in_the_match(chat_window, qtbot, tmp_path):
    """Blind screening reaches the job match: pseudonyms in the matrix and its CSV, no name in a quote
    or tooltip, black boxes over the identity in the evidence preview; switching off shows names again."""
    import csv

    from cvrag_desktop.catalog.privacy.blind import identifiers, pseudonym

    svc = chat_window.services
    people = svc.people.list_people(with_documents=True)
    secrets = {s for p in people for d in (p.get("document_rows") or [p]) for s in identifiers(d) if len(s) >= 4}
    dlg = chat_window.match_job()
    chat_window.blind.set_enabled(True)
    dlg.jd.setPlainText(JD)
    dlg.match_btn.click()
    qtbot.waitUntil(lambda: dlg.result is not None and not chat_window.runner.busy("jobmatch"), timeout=60_000)
    cands = dlg.result["candidates"]
    assert cands and all(c.get("name") for c in cands)  # the raw result keeps the names (saved as is)
    texts = [dlg.table.item(r, c).text() + " " + (dlg.table.item(r, c).toolTip() or "")
             for r in range(dlg.table.rowCount()) for c in range(dlg.table.columnCount()) if dlg.table.item(r, c)]
    shown = "\n".join(texts)
    leaks = [s for s in secrets if s.casefold() in shown.casefold()]
    assert leaks == []
    assert [dlg.table.item(r, 0).text() for r in range(len(cands))] == [pseudonym(c["person_id"]) for c in cands]
    out = tmp_path / "blind-match.csv"
    with qtbot.waitSignal(dlg.exported, timeout=10_000):
        dlg.export_matrix(out)
    with open(out, encoding="utf-8-sig", newline="") as fh:
        table = list(csv.reader(fh))
    assert [r[1] for r in table[1:]] == [pseudonym(c["person_id"]) for c in cands]
    assert [s for s in secrets if s.casefold() in out.read_text(encoding="utf-8-sig").casefold()] == []
    # the evidence preview: the identity is boxed over
    r = next(r for r in range(dlg.table.rowCount()))
    with qtbot.waitSignal(dlg.preview.rendered, timeout=30_000):
        dlg.open_cell(r, 0)
    record = svc.people.get_candidate(cands[r]["candidate_id"])
    named = [p for p in record.get("provenance") or [] if p.get("field") == "name" and p.get("bbox")]
    assert not named or dlg.preview.redactions
    # off again: the names are back
    chat_window.blind.set_enabled(False)
    qtbot.waitUntil(lambda: dlg.table.item(0, 0).text() == cands[0]["name"], timeout=30_000)
    dlg.close()
