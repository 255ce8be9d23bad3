"""Why this rank (issue 23) in the GUI: the job match's Flags column (a flag, nobody removed), the
"Why this rank" dialog for a match row and for a ranked-search row (requirements with cited lines,
a citation opening the preview, the candidate-facing export), and a rejection's optional reason."""

from __future__ import annotations

from cvrag_desktop.ui.dialogs.rank_explain_dialog import LINE_COL
from cvrag_desktop.ui.panes.candidate_explain import can_explain, explain_current
from cvrag_desktop.ui.shell.main_window import CANDIDATES
from cvrag_desktop.ui.widgets.reason_dialog import RejectReasonDialog, compose_reason

JD = """Senior backend engineer
Requirements: Python, Kafka, 5+ years of experience, fluent English.
Nice to have: Docker"""


def _cited_row(why) -> int:
    return next(r for r in range(why.table.rowCount()) if why.evidence_at(r))


def test_flags_column_and_why_this_rank_of_a_match_row(chat_window, qtbot, tmp_path):
    dlg = chat_window.match_job()
    dlg.jd.setPlainText(JD)
    dlg.match_btn.click()
    qtbot.waitUntil(lambda: dlg.result is not None, timeout=60_000)
    cands = dlg.result["candidates"]
    assert dlg.table.horizontalHeaderItem(3).text() == "Flags" and dlg.table.rowCount() == len(cands)
    for r, c in enumerate(cands):  # a missed must-have is a flag on the row; the row stays
        flag = dlg.table.item(r, 3).text()
        assert flag == ("⚑ " + ", ".join(c["must_missed"]) if c["must_missed"] else "")
        if flag:
            assert "not a rejection" in dlg.table.item(r, 3).toolTip()
    assert any(c["must_missed"] for c in cands)
    statuses = chat_window.services.screening.screening_of([c["candidate_id"] for c in cands])
    assert {s["status"] for s in statuses.values()} == {"new"}  # nobody rejected by the match
    assert not dlg.why_btn.isEnabled()
    dlg.table.setCurrentCell(0, 0)
    assert dlg.why_btn.isEnabled()
    dlg.why_btn.click()
    qtbot.waitUntil(lambda: dlg.explain_dialog is not None and dlg.explain_dialog.isVisible(), timeout=30_000)
    why = dlg.explain_dialog
    expl = why.explanation
    assert expl["candidate_id"] == cands[0]["candidate_id"] and expl["rank"] == 1
    assert why.headline.text().startswith("Ranked 1 of") and "10 points" in why.rule.text()
    assert why.table.rowCount() == len(cands[0]["cells"])
    results = {why.table.item(r, 0).text(): why.table.item(r, 2).text() for r in range(why.table.rowCount())}
    assert set(results) == {cell["requirement"] for cell in cands[0]["cells"]}
    assert all(v[0] in "✓✗?" for v in results.values())
    # a cited line opens the match's preview at it
    r = _cited_row(why)
    ev = why.evidence_at(r)
    assert ev["line"] in why.table.item(r, LINE_COL).text()
    with qtbot.waitSignal(dlg.preview.rendered, timeout=30_000):
        why.open_row(r)
    stored = chat_window.services.people.get_candidate(ev["candidate_id"])["stored_path"]
    assert dlg.preview.path == stored and dlg.preview.page == ev["page"] - 1
    # the candidate-facing export: their own name, nobody else's
    out = tmp_path / "why.html"
    with qtbot.waitSignal(why.exported, timeout=10_000):
        why.export(out)
    text = out.read_text(encoding="utf-8")
    assert cands[0]["name"] in text and "Ranked 1 of" in text
    assert [c["name"] for c in cands[1:] if c["name"] and c["name"] != cands[0]["name"] and c["name"] in text] == []
    assert chat_window.services.compliance.audit_entries(action="export.explanation")
    # a double-click on a row's name explains that row
    dlg.explain_dialog = None
    dlg._double_clicked(1, 0)
    qtbot.waitUntil(lambda: dlg.explain_dialog is not None, timeout=30_000)
    assert dlg.explain_dialog.explanation["rank"] == 2
    dlg.close()


def test_why_this_rank_in_blind_mode_names_nobody(chat_window, qtbot, tmp_path):
    """Blind screening: the dialog (and its export) show the pseudonym, no name or contact in a cited line."""
    from cvrag_desktop.catalog.privacy.blind import identifiers, row_pseudonym

    svc = chat_window.services
    people = svc.people.list_people(with_documents=True)
    secrets = {s for p in people for d in (p.get("document_rows") or [p]) for s in identifiers(d) if len(s) >= 4}
    dlg = chat_window.match_job()
    chat_window.blind.set_enabled(True)
    dlg.jd.setPlainText(JD)
    dlg.match_btn.click()
    qtbot.waitUntil(lambda: dlg.result is not None and not chat_window.runner.busy("jobmatch"), timeout=60_000)
    dlg.explain_row(0)
    qtbot.waitUntil(lambda: dlg.explain_dialog is not None, timeout=30_000)
    why = dlg.explain_dialog
    assert why.explanation["name"] == row_pseudonym(dlg.result["candidates"][0])
    shown = "\n".join([why.windowTitle(), why.headline.text(), why.flags.text()]
                      + [why.table.item(r, c).text() for r in range(why.table.rowCount())
                         for c in range(why.table.columnCount())])
    assert [s for s in secrets if s.casefold() in shown.casefold()] == []
    files = {d.get("file_name") for p in people for d in (p.get("document_rows") or [p]) if d.get("file_name")}
    assert [f for f in files if f in shown] == []  # file names often carry the name
    out = tmp_path / "why.txt"
    with qtbot.waitSignal(why.exported, timeout=10_000):
        why.export(out)
    assert [s for s in secrets if s.casefold() in out.read_text(encoding="utf-8").casefold()] == []
    dlg.close()


def test_why_this_rank_of_a_ranked_search_row(chat_window, qtbot):
    chat_window.show_pane(CANDIDATES)
    pane = chat_window.candidates
    svc = chat_window.services
    qtbot.waitUntil(lambda: pane.model.rowCount() == len(svc.people.list_people()), timeout=30_000)
    skill = next(s for r in pane.model.rows() for s in r["skills"] if len(s) > 3)
    with qtbot.waitSignal(pane.search_done, timeout=60_000):
        pane.search.setText(skill)
    shown = pane.proxy.visible_ids()
    assert shown and pane.ranked
    pane.select_candidate(shown[0])
    qtbot.waitUntil(lambda: pane.current_id == shown[0], timeout=10_000)
    assert can_explain(pane)
    explain_current(pane)
    qtbot.waitUntil(lambda: getattr(pane, "explain_dialog", None) is not None, timeout=60_000)
    why = pane.explain_dialog
    expl = why.explanation
    assert expl["kind"] == "search" and expl["person_id"] == shown[0] and expl["rank"] == 1
    assert why.table.item(0, 1).text() == "search word" and "reciprocal rank fusion" in why.rule.text()
    if any(why.evidence_at(r) for r in range(why.table.rowCount())):
        with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
            why.open_row(_cited_row(why))
    why.close()


def test_a_rejection_asks_an_optional_reason(people_window, qtbot):
    pane = people_window.candidates
    svc = people_window.services
    editor = pane.screening_editor
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        pane.select_candidate("b1")
    asked: list[int] = []
    pane.ask_reason = lambda n: asked.append(n) or None  # cancelled: the status stays
    editor.status.setCurrentIndex(editor.status.findData("rejected"))
    editor.save()
    assert asked == [1] and editor.status.currentData() == "new"
    assert svc.screening.screening_of(["b1"])["b1"]["status"] == "new"
    pane.ask_reason = lambda n: compose_reason("position_filled", "hired internally")
    editor.status.setCurrentIndex(editor.status.findData("rejected"))
    with qtbot.waitSignal(pane.screening_saved, timeout=10_000):
        editor.save()
    state = svc.screening.screening_of(["b1"])["b1"]
    assert state["status"] == "rejected" and state["reason"] == "Position filled: hired internally"
    assert editor.status.toolTip() == "Rejected: Position filled: hired internally"  # the reason is shown
    entry = svc.compliance.audit_entries(action="screening.status")[-1]
    assert entry["details"]["reason"] == "position_filled" and "internally" not in str(entry)
    # the dialog itself: preset + words, words alone, nothing
    dlg = RejectReasonDialog(2)
    qtbot.addWidget(dlg)
    assert dlg.reason() == ""
    dlg.details.setText("  no  work permit ")
    assert dlg.reason() == "no work permit"
    dlg.preset.setCurrentIndex(dlg.preset.findData("requirements_not_met"))
    assert dlg.reason() == "Requirements not met: no work permit"
