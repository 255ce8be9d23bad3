"""Low-confidence values in the browser: the table cell carries an icon and a "Check: <reason>"
tooltip (its text, sort key and export unchanged), and the detail marks the value with the reason."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from cvrag_desktop.ui.models.candidates import NAME_COL, CandidateTableModel
from tests.support.confidence_docs import doubtful_cv

TITLE_COL, COMPANY_COL = 1, 2


@pytest.fixture
def marked_window(qtbot, services):
    """Two people: Ivo's current title was read with low confidence, Lena's everything well."""
    from cvrag_desktop.ui.shell.main_window import CANDIDATES, MainWindow
    from tests.support.people_docs import add_document

    lib = services.paths.data_dir / "library"
    add_document(services.catalog, "d1", doubtful_cv(), lib)
    add_document(services.catalog, "d2", doubtful_cv(name="Lena Hartwig", title="Backend Engineer",
                                                     title_score=0.9), lib)
    win = MainWindow(services)
    qtbot.addWidget(win)
    win.show()
    win.show_pane(CANDIDATES)
    win.candidates.reload()
    qtbot.waitUntil(lambda: win.candidates.model.rowCount() == 2, timeout=30_000)
    yield win
    win.close()
    win.runner.wait(20_000)


def _index(pane, person_id: str, col: int):
    for r in range(pane.proxy.rowCount()):
        if pane.proxy.data(pane.proxy.index(r, 0), CandidateTableModel.IdRole) == person_id:
            return pane.proxy.index(r, col)
    raise AssertionError(person_id)


def test_low_confidence_cell_carries_icon_and_check_tooltip(marked_window):
    pane = marked_window.candidates
    low = _index(pane, "d1", TITLE_COL)
    assert pane.proxy.data(low, Qt.ItemDataRole.DisplayRole) == "Zephyr Tinkerer"  # the value as read
    assert pane.proxy.data(low, CandidateTableModel.CheckRole) == "Check: title: no job-title vocabulary"
    tip = pane.proxy.data(low, Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("Check: title: no job-title vocabulary") and "Zephyr Tinkerer" in tip
    icon = pane.proxy.data(low, Qt.ItemDataRole.DecorationRole)
    assert icon is not None and not icon.isNull()
    assert pane.model.sort_key("d1", TITLE_COL) == "zephyr tinkerer"  # sorted by the value, not the mark
    for pid, col in (("d1", NAME_COL), ("d1", COMPANY_COL), ("d2", TITLE_COL), ("d2", NAME_COL)):
        idx = _index(pane, pid, col)
        assert pane.proxy.data(idx, CandidateTableModel.CheckRole) is None
        assert pane.proxy.data(idx, Qt.ItemDataRole.DecorationRole) is None
        assert not (pane.proxy.data(idx, Qt.ItemDataRole.ToolTipRole) or "").startswith("Check:")


def test_detail_marks_low_values_with_the_reason(marked_window, qtbot):
    pane = marked_window.candidates
    pane.select_candidate("d1")
    qtbot.waitUntil(lambda: pane.detail.record is not None and pane.detail.record.get("id") == "d1",
                    timeout=30_000)
    text = pane.detail.toPlainText()
    assert text.count("? check: title: no job-title vocabulary") == 2  # "Now:" and the role
    assert "low confidence" in text
    pane.select_candidate("d2")
    qtbot.waitUntil(lambda: pane.detail.record is not None and pane.detail.record.get("id") == "d2",
                    timeout=30_000)
    assert "? check" not in pane.detail.toPlainText()
