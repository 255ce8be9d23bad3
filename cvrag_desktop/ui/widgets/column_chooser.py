"""A column chooser for a table: right-click the header to show or hide columns (remembered)."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMenu, QTableView


class ColumnChooser:
    """Header context menu with a check per column; hidden columns persist in ``QSettings``."""

    def __init__(self, table: QTableView, titles: list[str], *, fixed: tuple[int, ...] = (),
                 managed_elsewhere: tuple[int, ...] = (), qsettings: QSettings | None = None,
                 key: str = "columns/hidden", hidden_by_default: tuple[int, ...] = ()) -> None:
        self.table = table
        self.titles = titles
        self.fixed = set(fixed)  # always shown (e.g. the name)
        self.elsewhere = set(managed_elsewhere)  # shown/hidden by the pane itself (search columns)
        self.qsettings = qsettings
        self.key = key
        header = table.horizontalHeader()
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._menu)
        saved = qsettings.value(key) if qsettings is not None else None
        hidden = {int(c) for c in (saved if isinstance(saved, list) else [saved] if saved else [])
                  if str(c).isdigit()} if saved is not None else set(hidden_by_default)
        for col in self.choosable():
            table.setColumnHidden(col, col in hidden)

    def choosable(self) -> list[int]:
        """Columns the user may show or hide."""
        return [c for c in range(len(self.titles)) if c not in self.fixed and c not in self.elsewhere]

    def hidden(self) -> list[int]:
        """Columns the user has hidden."""
        return [c for c in self.choosable() if self.table.isColumnHidden(c)]

    def set_visible(self, col: int, visible: bool) -> None:
        """Show or hide one column and remember it."""
        self.table.setColumnHidden(col, not visible)
        if self.qsettings is not None:
            self.qsettings.setValue(self.key, [str(c) for c in self.hidden()] or "")

    def menu(self) -> QMenu:
        """The checkable menu (built fresh each time)."""
        menu = QMenu(self.table)
        for col in self.choosable():
            act = menu.addAction(self.titles[col])
            act.setCheckable(True)
            act.setChecked(not self.table.isColumnHidden(col))
            act.toggled.connect(lambda on, c=col: self.set_visible(c, on))
        return menu

    def _menu(self, pos) -> None:
        self.menu().popup(self.table.horizontalHeader().mapToGlobal(pos))
