"""Light and dark palettes: View ▸ Appearance switches every window, the choice survives a
restart, "Follow the system" gives the desktop's look back, and the dark palette is readable."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from cvrag_desktop.ui.shell.theme import THEMES, dark_palette, is_dark


def _contrast(a, b) -> float:
    """WCAG contrast ratio of two colours."""
    def lum(c) -> float:
        def ch(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF())
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_dark_palette_is_readable():
    pal = dark_palette()
    assert is_dark(pal)
    for fg, bg in ((QPalette.ColorRole.Text, QPalette.ColorRole.Base),
                   (QPalette.ColorRole.WindowText, QPalette.ColorRole.Window),
                   (QPalette.ColorRole.ButtonText, QPalette.ColorRole.Button),
                   (QPalette.ColorRole.HighlightedText, QPalette.ColorRole.Highlight)):
        assert _contrast(pal.color(fg), pal.color(bg)) >= 4.5, (fg, bg)
    disabled = pal.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    assert _contrast(disabled, pal.color(QPalette.ColorRole.Base)) >= 3.0


def test_appearance_switches_and_persists(window, qtbot, services):
    from cvrag_desktop.ui.shell.main_window import MainWindow

    theme = window.theme
    assert theme.theme == "system" and theme.actions["system"].isChecked()
    original = QGuiApplication.palette().color(QPalette.ColorRole.Window)
    view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    appearance = next(a.menu() for a in view.actions() if a.menu() is not None)
    assert [a.text() for a in appearance.actions()] == [theme.actions[t].text() for t in THEMES]
    theme.actions["dark"].trigger()
    assert is_dark(QGuiApplication.palette()) and QApplication.instance().style().name().lower() == "fusion"
    qtbot.waitUntil(lambda: is_dark(window.candidates.table.palette()), timeout=5_000)  # widgets follow the application palette
    assert not window.grab().isNull()
    window.close()
    window.runner.wait(20_000)
    again = MainWindow(services)  # a restart keeps the choice
    qtbot.addWidget(again)
    try:
        assert again.theme.theme == "dark" and again.theme.actions["dark"].isChecked()
        again.theme.actions["light"].trigger()
        assert not is_dark(QGuiApplication.palette())
        again.theme.actions["system"].trigger()
        assert QGuiApplication.palette().color(QPalette.ColorRole.Window) == original
    finally:
        again.close()
        again.runner.wait(20_000)


def test_facet_counts_stay_readable_after_a_switch(qtbot):
    """Skill counts keep the palette's text colour (a colour fixed under light would be dark on dark)."""
    from collections import Counter

    from PySide6.QtCore import Qt

    from cvrag_desktop.ui.shell.theme import ThemeController
    from cvrag_desktop.ui.widgets.facets import FacetPanel

    panel = FacetPanel()
    qtbot.addWidget(panel)
    panel.set_rows([{"skills": ["Python"], "languages": []}, {"skills": ["Go"], "languages": []}])
    panel.set_counts(Counter({"Python": 2}), Counter())
    theme = ThemeController(QApplication.instance(), None)
    try:
        theme.apply("dark", save=False)
        qtbot.waitUntil(lambda: is_dark(panel.palette()), timeout=5_000)
        items = {panel.skills.item(i).data(Qt.ItemDataRole.UserRole): panel.skills.item(i)
                 for i in range(panel.skills.count())}
        base = panel.skills.palette().color(QPalette.ColorRole.Base)
        python = items["Python"].foreground().color() if items["Python"].data(Qt.ItemDataRole.ForegroundRole) \
            else panel.skills.palette().color(QPalette.ColorRole.Text)
        assert _contrast(python, base) >= 4.5
        assert _contrast(items["Go"].foreground().color(), base) >= 3.0  # greyed (none kept), still legible
    finally:
        theme.apply("system", save=False)
