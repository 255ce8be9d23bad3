"""Light and dark palettes, and the View ▸ Appearance choice that switches them.

"System" leaves the style and palette to the desktop (Qt follows its light/dark scheme);
"Light" and "Dark" use the Fusion style with an explicit palette, so the app looks the
same on every desktop (and a recruiter on a bright screen can force light). The choice is
kept in QSettings. The app's own colours are translucent tints (banners, status cells,
chat cards, chips) or palette roles, so they read on both palettes; the PDF preview keeps
the page white, as a printed CV is.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QMenu, QStyleFactory

THEMES = ("system", "light", "dark")
LABELS = {"system": "Follow the system", "light": "Light", "dark": "Dark"}
SETTING = "appearance/theme"
_ORIGINAL: tuple[str, QPalette] | None = None

_DARK = {  # role -> (active, disabled)
    QPalette.ColorRole.Window: ("#2b2d31", "#2b2d31"),
    QPalette.ColorRole.WindowText: ("#e6e6e6", "#7c7f86"),
    QPalette.ColorRole.Base: ("#1f2023", "#26272b"),
    QPalette.ColorRole.AlternateBase: ("#27292d", "#27292d"),
    QPalette.ColorRole.ToolTipBase: ("#3a3d43", "#3a3d43"),
    QPalette.ColorRole.ToolTipText: ("#f0f0f0", "#9a9da3"),
    QPalette.ColorRole.PlaceholderText: ("#8e9199", "#6b6e75"),
    QPalette.ColorRole.Text: ("#e6e6e6", "#7c7f86"),
    QPalette.ColorRole.Button: ("#35373c", "#303236"),
    QPalette.ColorRole.ButtonText: ("#e6e6e6", "#7c7f86"),
    QPalette.ColorRole.BrightText: ("#ff6b6b", "#ff6b6b"),
    QPalette.ColorRole.Light: ("#4a4d54", "#4a4d54"),
    QPalette.ColorRole.Midlight: ("#3d4046", "#3d4046"),
    QPalette.ColorRole.Mid: ("#5b5f67", "#4a4d54"),
    QPalette.ColorRole.Dark: ("#18191b", "#18191b"),
    QPalette.ColorRole.Shadow: ("#0d0d0e", "#0d0d0e"),
    QPalette.ColorRole.Highlight: ("#2f6bc4", "#3a3d43"),
    QPalette.ColorRole.HighlightedText: ("#ffffff", "#9a9da3"),
    QPalette.ColorRole.Link: ("#6aa5ff", "#6aa5ff"),
    QPalette.ColorRole.LinkVisited: ("#b38cff", "#b38cff"),
}


def dark_palette() -> QPalette:
    """A dark palette with readable contrast (text on base ≥ 12:1, disabled text still legible)."""
    pal = QPalette()
    for role, (active, disabled) in _DARK.items():
        pal.setColor(QPalette.ColorGroup.Active, role, QColor(active))
        pal.setColor(QPalette.ColorGroup.Inactive, role, QColor(active))
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor(disabled))
    return pal


def light_palette() -> QPalette:
    """Fusion's own light palette."""
    return QStyleFactory.create("Fusion").standardPalette()


def is_dark(palette: QPalette | None = None) -> bool:
    """True when the palette's window is darker than its text (whatever set it)."""
    pal = palette or QGuiApplication.palette()
    return pal.color(QPalette.ColorRole.Window).lightness() < pal.color(QPalette.ColorRole.WindowText).lightness()


class ThemeController(QObject):
    """Applies and remembers the appearance; owns the View ▸ Appearance actions."""

    changed = Signal(str)

    def __init__(self, app: QApplication, settings: QSettings | None = None, parent=None) -> None:
        super().__init__(parent)
        self.app = app
        self.settings = settings
        global _ORIGINAL
        if _ORIGINAL is None:  # the desktop's own look, before any window changed it
            _ORIGINAL = (app.style().name() if app.style() else "", QPalette(app.palette()))
        self._system_style, self._system_palette = _ORIGINAL
        self.theme = "system"
        self.group = QActionGroup(self)
        self.actions: dict[str, QAction] = {}
        for name in THEMES:
            act = QAction(LABELS[name], self, checkable=True)
            act.triggered.connect(lambda _c=False, n=name: self.apply(n))
            self.group.addAction(act)
            self.actions[name] = act

    def restore(self) -> None:
        """Apply the saved choice (system when none or unknown)."""
        saved = str(self.settings.value(SETTING, "system")) if self.settings is not None else "system"
        self.apply(saved if saved in THEMES else "system", save=False)

    def apply(self, theme: str, save: bool = True) -> None:
        """Switch to ``theme`` ("system", "light" or "dark") for every window."""
        if theme not in THEMES:
            raise ValueError(theme)
        hints = self.app.styleHints()
        if theme == "system":
            if self._system_style:
                self.app.setStyle(self._system_style)
            hints.setColorScheme(Qt.ColorScheme.Unknown)
            self.app.setPalette(self._system_palette)
        else:
            self.app.setStyle("Fusion")
            hints.setColorScheme(Qt.ColorScheme.Dark if theme == "dark" else Qt.ColorScheme.Light)
            self.app.setPalette(dark_palette() if theme == "dark" else light_palette())
        self.theme = theme
        self.actions[theme].setChecked(True)
        if save and self.settings is not None:
            self.settings.setValue(SETTING, theme)
        self.changed.emit(theme)

    def menu(self, parent) -> QMenu:
        """The "Appearance" submenu."""
        m = QMenu("&Appearance", parent)
        for act in self.actions.values():
            m.addAction(act)
        return m
