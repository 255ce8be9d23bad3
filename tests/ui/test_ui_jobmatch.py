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
    assert headers[:3] == ["Candidate", "Score", "Met"]
    assert {"Python", "Kafka", "5+ years", "English", "Docker (nice)"} <= set(headers)
    assert dlg.table.rowCount() == len(cands) > 1
    scores = [c["score"] for c in cands]
    assert scores == sorted(scores, reverse=True)
    marks = {dlg.table.item(r, c).text() for r in range(dlg.table.rowCount()) for c in range(3, dlg.table.columnCount())}
    assert "✓ met" in marks and marks <= {"✓ met", "✗ not met", "? unknown"}
    r, c = next((r, c) for r in range(dlg.table.rowCount()) for c in range(3, dlg.table.columnCount())
                if dlg.table.item(r, c).text() == "✓ met")
    ev = dlg.table.item(r, c).data(256)
    assert ev["candidate_id"] == cands[r]["candidate_id"]
    dlg.open_cell(r, c)
    stored = chat_window.services.get_candidate(ev["candidate_id"])["stored_path"]
    qtbot.waitUntil(lambda: dlg.preview.path == stored and dlg.preview.image is not None
                    and dlg.preview.page == (ev["page"] or 0), timeout=30_000)
    assert dlg.preview.highlight_rect is not None
    dlg.close()
