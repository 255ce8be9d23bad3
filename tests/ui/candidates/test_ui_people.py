"""One person, many documents in the browser: "2 documents", the documents list, merge, split, forget."""

from __future__ import annotations

from cvrag_desktop.ui.models.candidates import DOCS_COL, NAME_COL


def _cell(pane, person_id: str, col: int, role=0):
    for r in range(pane.proxy.rowCount()):
        idx = pane.proxy.index(r, 0)
        if pane.proxy.data(idx, pane.model.IdRole) == person_id:
            return pane.proxy.data(pane.proxy.index(r, col), role)
    return None


def _select(pane, qtbot, candidate_id: str) -> None:
    pane.select_candidate(candidate_id)
    person = pane.model.person_of(candidate_id)
    qtbot.waitUntil(lambda: pane.detail.record is not None and pane.detail.record.get("id") == person, timeout=30_000)


def test_one_row_per_person_with_documents_count(people_window, qtbot):
    pane = people_window.candidates
    assert _cell(pane, "a2", DOCS_COL) == "2 documents"
    assert _cell(pane, "b1", DOCS_COL) == "1 document"
    assert _cell(pane, "a2", NAME_COL) == "Dr. Ana Ruiz"  # the newest document's facts
    # namesakes told apart: the tooltip carries name · title · company
    assert _cell(pane, "a3", NAME_COL, 3).startswith("Ana Ruiz · Nurse · City Hospital")
    assert "2 documents" in _cell(pane, "a2", NAME_COL, 3)
    assert "2 people" not in pane.count_label.text() and pane.count_label.text() == "3 candidates"


def test_detail_lists_documents_and_each_opens_in_preview(people_window, qtbot):
    pane = people_window.candidates
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        _select(pane, qtbot, "a1")  # an older document selects its person
    assert pane.detail.record["id"] == "a2"
    qtbot.waitUntil(lambda: len(pane.detail.documents) == 2, timeout=30_000)
    html = pane.detail.toHtml()
    assert "2 documents" in html and "a1.pdf" in html and "a2.pdf" in html
    assert pane.preview.path == str(people_window.stored["a2"])
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        pane.detail.anchorClicked.emit(__import__("PySide6.QtCore").QtCore.QUrl("doc:a1"))
    assert pane.preview.path == str(people_window.stored["a1"])


def test_search_and_shortlists_match_any_document(people_window, qtbot):
    pane = people_window.candidates
    pane.proxy.set_filters(restrict_ids={"a1"})  # a search hit on the older CV
    assert pane.proxy.visible_ids() == ["a2"]
    pane.proxy.set_filters(restrict_ids=None, shortlist_ids={"a1", "b1"})
    assert sorted(pane.proxy.visible_ids()) == ["a2", "b1"]
    pane.proxy.set_filters(shortlist_ids=None)
    pane.facets.employer.setText("Contoso")  # facets read the newest document's fields
    assert pane.proxy.visible_ids() == ["a2"]
    pane.facets.reset()
    pane.proxy.set_filters(text="ana ruiz northwind developer")
    assert pane.proxy.visible_ids() == ["a2"]


def test_merge_split_and_forget(people_window, qtbot, monkeypatch):
    pane = people_window.candidates
    svc = people_window.services
    monkeypatch.setattr(pane, "confirm", lambda title, text: True)
    # merge the namesake into Ana: select two rows
    monkeypatch.setattr(pane, "selected_ids", lambda: ["a2", "a3"])
    pane.merge_selected()
    qtbot.waitUntil(lambda: pane.model.rowCount() == 2, timeout=30_000)
    assert _cell(pane, "a2", DOCS_COL) == "3 documents"
    monkeypatch.undo()
    monkeypatch.setattr(pane, "confirm", lambda title, text: True)
    # split the namesake back out
    pane.split_document("a3")
    qtbot.waitUntil(lambda: pane.model.rowCount() == 3, timeout=30_000)
    assert _cell(pane, "a2", DOCS_COL) == "2 documents" and _cell(pane, "a3", DOCS_COL) == "1 document"
    # forget one document of Ana: the person stays with the other one
    _select(pane, qtbot, "a2")
    qtbot.waitUntil(lambda: len(pane.detail.documents) == 2, timeout=30_000)
    pane.forget_document("a1")
    qtbot.waitUntil(lambda: _cell(pane, "a2", DOCS_COL) == "1 document", timeout=30_000)
    assert svc.catalog.candidate("a1") is None and not people_window.stored["a1"].exists()
    # declining the confirmation keeps everything
    monkeypatch.setattr(pane, "confirm", lambda title, text: False)
    _select(pane, qtbot, "b1")
    pane.forget_selected()
    assert svc.catalog.candidate("b1") is not None
    monkeypatch.setattr(pane, "confirm", lambda title, text: True)
    pane.forget_selected()
    qtbot.waitUntil(lambda: pane.model.rowCount() == 2, timeout=30_000)
    assert svc.catalog.candidate("b1") is None and not people_window.stored["b1"].exists()
