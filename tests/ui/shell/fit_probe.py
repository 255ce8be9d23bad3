"""Run by ``test_ui_fit.py`` in a child process whose offscreen screen has the size under test
(``QT_QPA_PLATFORM=offscreen:configfile=…``): builds the main window and every dialog, lays them
out, and prints one JSON line with their frames, the screen and how usable the panes are."""

from __future__ import annotations

import json
import sys


def main() -> int:
    """Print ``{"screen": [...], "windows": {name: [x, y, w, h]}, ...}`` for the current screen."""
    from PySide6.QtWidgets import QApplication

    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.ui.shell.application import make_application
    from cvrag_desktop.ui.shell.main_window import CANDIDATES, CHAT, MainWindow

    app = make_application(sys.argv[:1])
    services = App()
    win = MainWindow(services)
    win.show()
    dialogs = {"job_match": win.match_job(), "settings": win.open_settings(), "audit": win.open_audit(),
               "retention": win.open_retention()}
    for _ in range(5):
        app.processEvents()
    win.show_pane(CANDIDATES)
    pane = win.candidates
    pane.views.setCurrentWidget(pane.main_view)  # the table as it is with a library (this one is empty)
    for _ in range(5):
        app.processEvents()
    table = pane.table
    header = table.horizontalHeader()
    width = table.viewport().width()
    shown = [c for c in range(header.count()) if not header.isSectionHidden(c)
             and header.sectionViewportPosition(c) + header.sectionSize(c) <= width]
    win.show_pane(CHAT)
    app.processEvents()
    area = app.primaryScreen().availableGeometry()
    frames = {"main": win.frameGeometry()} | {k: d.frameGeometry() for k, d in dialogs.items()}
    others = [w.windowTitle() for w in QApplication.topLevelWidgets()
              if w.isVisible() and w is not win and w not in dialogs.values()]
    out = {"screen": [area.x(), area.y(), area.width(), area.height()],
           "windows": {k: [r.x(), r.y(), r.width(), r.height()] for k, r in frames.items()},
           "other_top_levels": others,
           "table_columns_whole": len(shown), "table_width": width,
           "candidate_parts": pane.splitter.sizes(),
           "chat_input_width": win.chat.input.width(),
           "status_bar_bottom": win.statusBar().geometry().bottom(), "window_height": win.height(),
           "status_visible": win.statusBar().isVisible()}
    print(json.dumps(out))
    for d in dialogs.values():
        d.close()
    win.close()
    win.runner.wait(20_000)
    services.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
