"""TaskRunner: results that arrive after their owner was destroyed are dropped."""

from __future__ import annotations

import threading

from PySide6.QtCore import QCoreApplication, QObject


def test_result_after_owner_deleted_is_dropped(qtbot):
    """A search finishing after its window closed must not reach the deleted widgets."""
    import shiboken6

    from cvrag_desktop.ui.shell.tasks import TaskRunner

    owner = QObject()
    runner = TaskRunner(parent=owner)
    release, ran = threading.Event(), threading.Event()
    seen: list[object] = []

    def slow(ctx):
        release.wait(10)
        ran.set()
        return 42

    runner.start("search", slow, on_result=seen.append, on_finished=lambda: seen.append("finished"))
    shiboken6.delete(owner)  # the window is gone while its task still runs
    assert not shiboken6.isValid(runner)
    release.set()
    assert ran.wait(10)
    runner.pool.waitForDone(10_000)
    for _ in range(5):
        QCoreApplication.processEvents()
    assert seen == []


def test_result_reaches_a_live_owner(qtbot):
    """The guard does not drop the normal case."""
    from cvrag_desktop.ui.shell.tasks import TaskRunner

    owner = QObject()
    runner = TaskRunner(parent=owner)
    seen: list[object] = []
    runner.start("k", lambda ctx: 7, on_result=seen.append)
    qtbot.waitUntil(lambda: seen == [7], timeout=10_000)
