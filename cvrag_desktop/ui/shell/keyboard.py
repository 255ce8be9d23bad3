"""Keyboard use of the Candidates pane: Down or Enter in the search box goes to the results, Tab
walks search → results → record → preview (the facets come after, reachable but not in the
way), Esc goes back to the search box from any of them; Help ▸ Keyboard shortcuts lists every key.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMenuBar, QWidget

NAVIGATION = (  # keys that belong to no menu action
    ("Down / Enter in the search box", "go to the results (the first row is selected)"),
    ("Tab / Shift+Tab", "search → results → record → preview → filters"),
    ("Esc", "back to the search box (in the Candidates pane)"),
    ("Up / Down in the results", "previous / next candidate"),
    ("Ctrl++ / Ctrl+-", "zoom the preview"),
    ("Enter in the chat box", "ask the question"),
)


class CandidateKeys(QObject):
    """Event filter that gives the Candidates pane its search ⇄ results keys and Tab order."""

    def __init__(self, pane) -> None:
        super().__init__(pane)
        self.pane = pane
        pane.table.setTabKeyNavigation(False)  # Tab leaves the table instead of walking its cells
        pane.search.installEventFilter(self)
        for w in (pane.table, pane.detail, pane.preview.scroll):
            w.installEventFilter(self)
        pane.preview.scroll.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # the preview scrolls with the keys
        self.chain = [pane.search, pane.table, pane.detail, pane.preview.scroll]
        for a, b in zip(self.chain, self.chain[1:], strict=False):
            QWidget.setTabOrder(a, b)
        last = self.chain[-1]
        for w in pane.facets.findChildren(QWidget):  # the filters after the preview
            if w.focusPolicy() & Qt.FocusPolicy.TabFocus and w.window() is pane.window():  # not a combo's popup
                QWidget.setTabOrder(last, w)
                last = w

    def to_results(self) -> None:
        """Focus the results table with a current row (the first when none is)."""
        table = self.pane.table
        model = table.model()
        if model.rowCount() == 0:
            return
        if not table.currentIndex().isValid():
            table.setCurrentIndex(model.index(0, 0))
            table.selectRow(0)
        table.setFocus(Qt.FocusReason.OtherFocusReason)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Down/Enter in the search box → results; Esc in results, record or preview → search."""
        if event.type() != QEvent.Type.KeyPress:
            return False
        key = event.key()
        if watched is self.pane.search and key in (Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if key != Qt.Key.Key_Down:  # Enter: run the search now rather than after the typing pause
                timer = getattr(self.pane, "_search_timer", None)
                if timer is not None and timer.isActive():
                    timer.stop()
                    timer.timeout.emit()
            self.to_results()
            return True
        if key == Qt.Key.Key_Escape and watched is not self.pane.search:
            self.pane.focus_search()
            return True
        return False


def shortcut_rows(menu_bar: QMenuBar) -> list[tuple[str, str]]:
    """(keys, what) for every menu action with a shortcut, then the navigation keys."""
    rows: list[tuple[str, str]] = []
    for menu_action in menu_bar.actions():
        menu = menu_action.menu()
        if menu is None:
            continue
        title = menu_action.text().replace("&", "")
        for act in menu.actions():
            seq = act.shortcut()
            if not seq.isEmpty():
                rows.append((seq.toString(QKeySequence.SequenceFormat.NativeText),
                             f"{title} ▸ {act.text().replace('&', '')}"))
    return rows + list(NAVIGATION)


def shortcuts_html(menu_bar: QMenuBar) -> str:
    """The shortcut list as a small HTML table (Help ▸ Keyboard shortcuts)."""
    cells = "".join(f"<tr><td><b>{k}</b></td><td>&nbsp;&nbsp;{w}</td></tr>" for k, w in shortcut_rows(menu_bar))
    return f"<table>{cells}</table>"
