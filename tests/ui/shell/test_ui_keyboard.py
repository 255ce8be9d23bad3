"""Keyboard: Down/Enter from the search box to the results, Tab search → results → record →
preview with the facets after, Esc back to the search box, shortcuts in Help, About with version."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

import cvrag_desktop
from cvrag_desktop.ui.shell.main_window import CANDIDATES


@pytest.fixture
def loaded(window, qtbot, small_cvs):
    """A window with the 10 small generated CVs imported, the Candidates pane in front and focused."""
    with qtbot.waitSignal(window.importer.batch_finished, timeout=300_000):
        window.importer.import_paths([small_cvs])
    qtbot.waitUntil(lambda: window.candidates.model.rowCount() >= 5, timeout=30_000)
    window.show_pane(CANDIDATES)
    window.activateWindow()
    qtbot.waitUntil(lambda: window.candidates.views.currentWidget() is window.candidates.main_view)
    return window


def _focus_is(qtbot, widget) -> None:
    qtbot.waitUntil(lambda: QApplication.focusWidget() is widget, timeout=5_000)


def test_down_goes_to_the_results_and_esc_comes_back(loaded, qtbot):
    pane = loaded.candidates
    loaded.focus_search()
    _focus_is(qtbot, pane.search)
    qtbot.keyClick(pane.search, Qt.Key.Key_Down)
    _focus_is(qtbot, pane.table)
    assert pane.table.currentIndex().isValid()
    first = pane.table.currentIndex().row()
    qtbot.keyClick(pane.table, Qt.Key.Key_Down)
    assert pane.table.currentIndex().row() == first + 1  # Up/Down walk the candidates
    qtbot.keyClick(pane.table, Qt.Key.Key_Escape)
    _focus_is(qtbot, pane.search)
    qtbot.keyClick(pane.detail, Qt.Key.Key_Escape)
    _focus_is(qtbot, pane.search)


def test_enter_runs_the_search_at_once_and_goes_to_the_results(loaded, qtbot):
    pane = loaded.candidates
    name = pane.model.rows()[0]["name"].split()[0]
    loaded.focus_search()
    pane.search.setText(name)
    with qtbot.waitSignal(pane.search_done, timeout=60_000):
        qtbot.keyClick(pane.search, Qt.Key.Key_Return)
    _focus_is(qtbot, pane.table)
    assert pane.proxy.rowCount() >= 1


def test_tab_walks_search_results_record_preview_then_the_filters(loaded, qtbot):
    pane = loaded.candidates
    loaded.focus_search()
    _focus_is(qtbot, pane.search)
    for widget in (pane.table, pane.detail, pane.preview.scroll):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        _focus_is(qtbot, widget)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    qtbot.waitUntil(lambda: pane.facets.isAncestorOf(QApplication.focusWidget()), timeout=5_000)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab, Qt.KeyboardModifier.ShiftModifier)
    _focus_is(qtbot, pane.preview.scroll)


def test_help_lists_the_shortcuts_and_about_names_version_and_licences(window, qtbot):
    box = window.show_shortcuts()
    qtbot.addWidget(box)
    text = box.text()
    for keys in ("Ctrl+F", "Ctrl+O", "Ctrl+J", "Esc", "Tab"):
        assert keys in text, keys
    box.close()
    about = window._about()
    qtbot.addWidget(about)
    assert cvrag_desktop.__version__ in about.text()
    assert "Apache-2.0" in about.text() and "PySide6" in about.text() and "PyMuPDF" in about.text()
    about.close()
