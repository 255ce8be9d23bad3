"""The installed Qt binding keeps Python's reference counts: a void call must not drop a reference to None.

PySide6 6.12.0 on Python 3.11 did, once per call of any void method (``setText``, ``setData``,
``setObjectName``): None is not immortal before Python 3.12, so a session's worth of calls (one
facet refresh is ~270 of them) brought its count to zero and the app aborted with "Fatal Python
error: none_dealloc", during a screening-heavy import or at exit. pyproject.toml pins the binding
below that release; this test fails on any binding with the same fault.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, QSize, Qt
from PySide6.QtWidgets import QListWidget, QListWidgetItem

CALLS = 5_000
SLACK = 200  # other threads may hold or drop a few references meanwhile; the fault drops one per call


def _none_refs_lost(call) -> int:
    before = sys.getrefcount(None)
    for _ in range(CALLS):
        call()
    return before - sys.getrefcount(None)


def test_void_calls_keep_none_alive(qtbot):
    obj = QObject()
    lst = QListWidget()
    qtbot.addWidget(lst)
    item = QListWidgetItem("skill (3)")
    lst.addItem(item)
    calls = {
        "QObject.setObjectName": lambda: obj.setObjectName("x"),
        "QSize.setWidth": lambda: QSize().setWidth(3),
        "QListWidgetItem.setText": lambda: item.setText("skill (4)"),
        "QListWidgetItem.setData(None)": lambda: item.setData(Qt.ItemDataRole.ForegroundRole, None),
    }
    lost = {name: _none_refs_lost(call) for name, call in calls.items()}
    assert all(n < SLACK for n in lost.values()), f"references to None lost per {CALLS} calls: {lost}"
