"""A save dialog adds the type's extension the user left out (the core then refuses any other name)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog, QWidget

from cvrag_desktop.ui.dialogs.save_path import ask_save_path


@pytest.mark.parametrize(("typed", "written"), [("shortlist", "shortlist.csv"), ("list.CSV", "list.CSV"),
                                                ("notes.txt", "notes.txt.csv")])
def test_the_csv_extension_is_added_when_missing(qtbot, monkeypatch, tmp_path, typed, written):
    parent = QWidget()
    qtbot.addWidget(parent)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(tmp_path / typed), "CSV (*.csv)"))
    assert ask_save_path(parent, None, "Export", "x.csv", "CSV (*.csv)") == tmp_path / written


def test_a_cancelled_dialog_gives_none(qtbot, monkeypatch):
    parent = QWidget()
    qtbot.addWidget(parent)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: ("", ""))
    assert ask_save_path(parent, None, "Export", "x.csv", "CSV (*.csv)") is None
