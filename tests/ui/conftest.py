"""Fixtures for the offscreen GUI tests (pytest-qt)."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("PySide6.QtWidgets", reason="PySide6 is not installed")
pytest.importorskip("pytestqt", reason="pytest-qt is not installed")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture
def services(_isolated_home):
    """A services session in this test's fresh CVRAG_HOME."""
    from cvrag_desktop.app.assembly import App

    svc = App()
    yield svc
    svc.close()


@pytest.fixture
def window(qtbot, services):
    """The main window, shown offscreen; closed (workers drained) at the end."""
    from cvrag_desktop.ui.shell.main_window import MainWindow

    win = MainWindow(services)
    qtbot.addWidget(win)
    win.show()
    yield win
    win.close()
    win.runner.wait(20_000)


@pytest.fixture(scope="session")
def generated_cvs(tmp_path_factory):
    """100 synthetic CVs, generated once per test session (~3 s)."""
    from cvrag_desktop.factory.pipeline import generate_batch

    out = tmp_path_factory.mktemp("generated100")
    report = generate_batch(100, 7, out, locale="mixed", layout="mixed")
    assert len(report.generated) == 100, report.failed
    return out


def wait_idle(qtbot, win, key: str, timeout: int = 120_000) -> None:
    """Wait until the runner has no task under ``key``."""
    qtbot.waitUntil(lambda: not win.runner.busy(key), timeout=timeout)


@pytest.fixture(scope="session")
def small_cvs(tmp_path_factory):
    """10 synthetic CVs (two of them two pages long), generated once per session."""
    from cvrag_desktop.factory.pipeline import generate_batch

    out = tmp_path_factory.mktemp("generated10")
    report = generate_batch(10, 11, out, locale="mixed", layout="mixed")
    assert len(report.generated) == 10, report.failed
    return out


def open_window(qtbot, services):
    """A started main window (warm-up done, conversations listed)."""
    from cvrag_desktop.ui.shell.main_window import MainWindow

    win = MainWindow(services)
    qtbot.addWidget(win)
    win.show()
    win.start()
    qtbot.waitUntil(lambda: win.warm is not None and win.chat.llm_up is not None, timeout=120_000)
    return win


def close_window(win) -> None:
    """Close a window and drain its workers."""
    win.close()
    win.runner.wait(20_000)


@pytest.fixture
def chat_services(_isolated_home, small_cvs):
    """An App with the 10 small CVs imported and indexed (LLM endpoint as set in the environment)."""
    from cvrag_desktop.app.assembly import App

    svc = App()
    report = svc.library.ingest([small_cvs], use_llm=False)
    assert report.ingested >= 9, report.failed
    yield svc
    svc.close()


@pytest.fixture
def chat_window(qtbot, chat_services):
    """A started window over the small library, on the Chat pane."""
    from cvrag_desktop.ui.shell.main_window import CHAT

    win = open_window(qtbot, chat_services)
    win.show_pane(CHAT)
    yield win
    close_window(win)


@pytest.fixture
def people_window(qtbot, services):
    """A window over four documents: Ana twice (one person), a namesake Ana, Ben."""
    from tests.support.people_window import open_people_window

    yield from open_people_window(qtbot, services)


def deliver_posted_events() -> None:
    """Deliver every queued cross-thread signal now (after ``runner.wait``: the workers are done,
    their results are posted events): a condition, not a fixed wait."""
    from PySide6.QtCore import QCoreApplication

    QCoreApplication.sendPostedEvents()
    QCoreApplication.processEvents()
