"""The shell: panes, shortcuts, status bar from a worker, persistence, single instance."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from cvrag_desktop.config import app_paths
from cvrag_desktop.single_instance import SingleInstanceLock
from cvrag_desktop.ui.shell.application import acquire_instance_lock
from cvrag_desktop.ui.shell.main_window import CANDIDATES, CHAT, IMPORT, PANES, MainWindow


def test_four_panes_and_shortcuts(window, qtbot):
    assert [window.sidebar.item(i).text() for i in range(window.sidebar.count())] == list(PANES)
    assert window.import_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Open)
    assert window.search_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Find)
    assert window.export_action.shortcut().toString() == "Ctrl+E"
    assert window.new_chat_action.shortcut() == QKeySequence(QKeySequence.StandardKey.New)
    window.show_pane(IMPORT)
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.current_pane() == CANDIDATES
    before = window.chat.thread_id
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert window.current_pane() == CHAT
    assert window.chat.thread_id != before and not window.chat.transcript.cards  # a new conversation


def test_status_bar_gathers_its_facts_in_a_worker(window, qtbot, monkeypatch):
    import threading

    from cvrag_desktop.ui.shell import status

    seen = {}
    real = status.status_info

    def info(services):
        seen["thread"] = threading.current_thread() is threading.main_thread()
        return real(services)

    monkeypatch.setattr(status, "status_info", info)
    got: list[dict] = []
    window.status.refreshed.connect(got.append)
    window.status.refresh()
    qtbot.waitUntil(lambda: bool(got), timeout=30_000)
    assert seen["thread"] is False
    assert window.status.candidates.text() == "0 candidates"
    assert "deterministic mode" in window.status.llm.text()


def test_geometry_and_last_pane_persist(qtbot, services):
    win = MainWindow(services)
    qtbot.addWidget(win)
    win.show()
    win.resize(win.minimumSizeHint().width(), 503)
    win.show_pane(IMPORT)
    size = win.size()  # the minimum size of the panes may have clamped the request
    win.close()
    assert (services.paths.config_dir / "ui.ini").exists()
    again = MainWindow(services)
    qtbot.addWidget(again)
    assert again.current_pane() == IMPORT
    # the offscreen screen is 800 px wide, narrower than the window's minimum: restoreGeometry
    # clamps the width to the screen, so only the height is compared exactly
    assert abs(again.height() - size.height()) <= 2
    again.close()


def test_second_instance_is_refused_without_touching_the_catalog(tmp_path):
    paths = app_paths().ensure()
    first = SingleInstanceLock(paths.data_dir)
    assert first.acquire()
    messages: list[str] = []
    assert acquire_instance_lock(paths, messages.append) is None
    assert messages and "already running" in messages[0]
    assert not paths.catalog_db.exists() and not paths.index_dir.exists()
    first.release()
    lock = acquire_instance_lock(paths, messages.append)
    assert lock is not None
    lock.release()
