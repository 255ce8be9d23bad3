"""The candidates window over the people fixtures (tests/support/people_docs.py), for the Qt tests."""

from __future__ import annotations


def open_people_window(qtbot, services, ana_new=None):
    """A window over four documents: Ana twice (one person), a namesake Ana, Ben (``ana_new`` replaces
    Ana's newer CV, e.g. with provenance boxes). A generator: yields the window, then closes it."""
    from cvrag_desktop.ui.shell.main_window import CANDIDATES, MainWindow
    from tests.support.people_docs import ANA_NEW, ANA_OLD, ANA_OTHER, BEN, add_document

    lib = services.paths.data_dir / "library"
    stored = {cid: add_document(services.catalog, cid, cv, lib)
              for cid, cv in (("a1", ANA_OLD), ("a2", ana_new or ANA_NEW), ("a3", ANA_OTHER), ("b1", BEN))}
    win = MainWindow(services)
    qtbot.addWidget(win)
    win.show()
    win.show_pane(CANDIDATES)
    win.candidates.reload()
    qtbot.waitUntil(lambda: win.candidates.model.rowCount() == 3, timeout=30_000)
    win.stored = stored
    yield win
    win.close()
    win.runner.wait(20_000)
