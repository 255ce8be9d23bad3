"""Screening in the Candidates pane: status / rating / tags / note of a person through a restart,
filters, bulk actions on a selection, export, forget, saved searches, columns, mail links."""

from __future__ import annotations

import csv

from PySide6.QtCore import QItemSelectionModel, QUrl

from cvrag_desktop.ui.models.candidates import RATING_COL, STATUS_COL, TAGS_COL
from cvrag_desktop.ui.shell.main_window import MainWindow


def _cell(pane, person_id: str, col: int):
    for r in range(pane.proxy.rowCount()):
        if pane.proxy.data(pane.proxy.index(r, 0), pane.model.IdRole) == person_id:
            return pane.proxy.data(pane.proxy.index(r, col))
    return None


def _select(pane, qtbot, *ids: str) -> None:
    sel = pane.table.selectionModel()
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        pane.select_candidate(ids[0])
    for pid in ids[1:]:
        for r in range(pane.proxy.rowCount()):
            idx = pane.proxy.index(r, 0)
            if pane.proxy.data(idx, pane.model.IdRole) == pid:
                sel.select(idx, QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows)
    assert sorted(pane.selected_ids()) == sorted(ids)


def test_screening_round_trip_filters_bulk_export_forget(people_window, qtbot, tmp_path, monkeypatch):
    pane = people_window.candidates
    svc = people_window.services
    editor = pane.screening_editor
    assert not editor.save_btn.isEnabled()  # nobody selected
    _select(pane, qtbot, "a2")
    assert editor.save_btn.isEnabled() and editor.status.currentData() == "new"
    editor.rating.setCurrentIndex(4)
    editor.tags.setText("backend, relocate")
    editor.note.setText("Strong Go; ask about notice period")
    editor.status.setCurrentIndex(editor.status.findData("interview"))
    with qtbot.waitSignal(pane.screening_saved, timeout=10_000):
        editor.save()
    assert _cell(pane, "a2", STATUS_COL) == "Interview" and _cell(pane, "a2", RATING_COL) == "★★★★☆"
    assert _cell(pane, "a2", TAGS_COL) == "backend, relocate"
    # every document of the person carries it
    assert sorted(r[0] for r in svc.catalog.query("SELECT candidate_id FROM screening")) == ["a1", "a2"]
    # filters: status, "in process", tag, rating
    pane.facets.status.setCurrentIndex(pane.facets.status.findData("interview"))
    assert pane.proxy.visible_ids() == ["a2"]
    pane.facets.reset()
    pane.facets.tag.setCurrentIndex(pane.facets.tag.findData("relocate"))
    assert pane.proxy.visible_ids() == ["a2"]
    pane.facets.reset()
    pane.facets.rating.setCurrentIndex(4)
    assert pane.proxy.visible_ids() == ["a2"]
    pane.facets.reset()
    # bulk on a multi-selection: tag, status; the other tags of each person stay
    _select(pane, qtbot, "a3", "b1")
    with qtbot.waitSignal(pane.screening_saved, timeout=10_000):
        pane.tag_selected("Q4")
    pane.ask_reason = lambda n: ""  # the reason dialog: no reason given (tests/ui/candidates/test_ui_rank_explain.py asks one)
    with qtbot.waitSignal(pane.screening_saved, timeout=10_000):
        pane.set_status_selected("rejected")
    assert _cell(pane, "a3", STATUS_COL) == _cell(pane, "b1", STATUS_COL) == "Rejected"
    assert _cell(pane, "b1", TAGS_COL) == "Q4" and _cell(pane, "a2", TAGS_COL) == "backend, relocate"
    _select(pane, qtbot, "a2", "b1")
    with qtbot.waitSignal(pane.screening_saved, timeout=10_000):
        pane.tag_selected("Q4")
    assert _cell(pane, "a2", TAGS_COL) == "backend, relocate, Q4"
    pane.facets.status.setCurrentIndex(pane.facets.status.findData("open"))
    assert pane.proxy.visible_ids() == ["a2"]
    pane.facets.reset()
    # export: the screening columns
    out = tmp_path / "view.csv"
    with qtbot.waitSignal(pane.exported, timeout=10_000):
        pane.export_view(out)
    with open(out, encoding="utf-8-sig", newline="") as fh:
        table = list(csv.reader(fh))
    header = table[0]
    assert header[1:5] == ["Status", "Rating", "Tags", "Screening note"]
    by_id = {r[header.index("Candidate id")]: r for r in table[1:]}
    assert by_id["a2"][1:5] == ["Interview", "4", "backend; relocate; Q4", "Strong Go; ask about notice period"]
    assert by_id["b1"][1:3] == ["Rejected", ""]
    # restart: a new session and window read the same state
    again = MainWindow(type(svc)())
    qtbot.addWidget(again)
    again.candidates.reload()
    qtbot.waitUntil(lambda: again.candidates.model.rowCount() == 3, timeout=30_000)
    assert _cell(again.candidates, "a2", STATUS_COL) == "Interview"
    assert _cell(again.candidates, "a2", TAGS_COL) == "backend, relocate, Q4"
    again.close()
    again.runner.wait(10_000)
    again.services.close()
    # forget: the person's screening goes with it
    monkeypatch.setattr(pane, "confirm", lambda title, text: True)
    _select(pane, qtbot, "b1")
    pane.forget_selected()
    qtbot.waitUntil(lambda: pane.model.rowCount() == 2, timeout=30_000)
    assert sorted(r[0] for r in svc.catalog.query("SELECT candidate_id FROM screening")) == ["a1", "a2", "a3"]


def test_saved_searches_columns_and_mail_links(people_window, qtbot, monkeypatch):
    pane = people_window.candidates
    bar = pane.saved_bar
    pane.facets.employer.setText("Contoso")
    monkeypatch.setattr(bar, "ask_name", lambda default="": "Contoso people")
    bar.save_btn.click()
    qtbot.waitUntil(lambda: [s["name"] for s in bar.searches] == ["Contoso people"], timeout=10_000)
    pane.facets.reset()
    assert len(pane.proxy.visible_ids()) == 3
    bar.combo.setCurrentIndex(bar.combo.findData("Contoso people"))
    bar.combo.activated.emit(bar.combo.currentIndex())
    assert pane.facets.employer.text() == "Contoso" and pane.proxy.visible_ids() == ["a2"]
    bar.delete_btn.click()
    qtbot.waitUntil(lambda: bar.searches == [], timeout=10_000)
    # column chooser: remembered in the window's settings
    assert TAGS_COL in pane.columns.choosable() and 0 not in pane.columns.choosable()
    menu = pane.columns.menu()
    tags_action = next(a for a in menu.actions() if a.text() == "Tags")
    tags_action.setChecked(False)
    assert pane.table.isColumnHidden(TAGS_COL)
    assert str(TAGS_COL) in pane.qsettings.value("candidates/hidden_columns")
    # e-mail and phone open the mail client / dialler
    opened = []
    monkeypatch.setattr("cvrag_desktop.ui.panes.candidates_pane.QDesktopServices.openUrl",
                        lambda url: opened.append(url.toString()) or True)
    _select(pane, qtbot, "a2")
    html = pane.detail.toHtml()
    assert "mailto:ana.ruiz@ruizmail.net" in html and "tel:+34600111222" in html
    pane.detail.anchorClicked.emit(QUrl("mailto:ana.ruiz@ruizmail.net"))
    pane.detail.anchorClicked.emit(QUrl("tel:+34600111222"))
    assert opened == ["mailto:ana.ruiz@ruizmail.net", "tel:+34600111222"]

