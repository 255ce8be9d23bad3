"""Windows that fit the screen: every top-level window and dialog opens at most as large as the
screen's available area (``QScreen.availableGeometry()``: the screen minus task bars and docks),
remembers the size the user gave it, and is never restored larger than the screen it opens on.

A laptop's 1366×768 (or 1024×700 on a small or scaled one) is the design target: a window that
opens larger hides its status bar and its bottom buttons under the task bar.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

from PySide6.QtCore import QEvent, QObject, QRect, QSettings, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

FRAME_W, FRAME_H = 16, 40  # room left for a window manager's borders and title bar (not known before show)
SCREEN_FRACTION = 0.92  # a dialog opens at most this share of the screen (the window behind stays visible)


def available_geometry(widget: QWidget | None = None) -> QRect:
    """The available area of the screen ``widget`` is on (its parent's, or the primary screen)."""
    screen = None
    while widget is not None and screen is None:
        handle = widget.windowHandle()
        screen = handle.screen() if handle is not None else None
        widget = widget.parentWidget()
    screen = screen or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1366, 768)


def fit_size(wanted: QSize, available: QRect, fraction: float = 1.0) -> QSize:
    """``wanted`` shrunk (never grown) so that the window with its frame fits ``fraction`` of
    ``available``; what the user or a default asks for is kept when it fits."""
    max_w = max(200, int(available.width() * fraction) - FRAME_W)
    max_h = max(150, int(available.height() * fraction) - FRAME_H)
    return QSize(min(wanted.width(), max_w), min(wanted.height(), max_h))


def fit_window(widget: QWidget, wanted: QSize, available: QRect | None = None, fraction: float = 1.0) -> QSize:
    """Resize ``widget`` to ``wanted`` fitted to the screen, and keep its minimum size inside the
    screen too (a minimum larger than the screen would push the window's bottom off it)."""
    area = available if available is not None else available_geometry(widget)
    size = fit_size(wanted, area, fraction)
    limit = fit_size(QSize(10**6, 10**6), area)
    minimum = widget.minimumSize()
    if minimum.width() > limit.width() or minimum.height() > limit.height():
        widget.setMinimumSize(minimum.boundedTo(limit))
    widget.resize(size)
    return size


class RememberedSize(QObject):
    """Keeps a dialog's size in ``QSettings`` under ``key``: restored (fitted to the screen) when
    it is created, saved whenever it is hidden or closed."""

    def __init__(self, widget: QWidget, settings: QSettings, key: str, default: QSize,
                 available: QRect | None = None) -> None:
        super().__init__(widget)
        self.widget, self.settings, self.key = widget, settings, key
        saved = settings.value(key)
        wanted = saved if isinstance(saved, QSize) and saved.isValid() else default
        fit_window(widget, wanted, available, fraction=SCREEN_FRACTION)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Save the size when the dialog is hidden or closed."""
        if watched is self.widget and event.type() in (QEvent.Type.Hide, QEvent.Type.Close):
            self.settings.setValue(self.key, self.widget.size())
            self.settings.sync()
        return False


def remember_size(widget: QWidget, services: App, key: str, default: QSize,
                  available: QRect | None = None) -> RememberedSize:
    """Fit ``widget`` to the screen at its remembered (or ``default``) size and remember changes;
    the size lives in the window settings file (``ui.ini`` in the config dir)."""
    settings = QSettings(str(services.paths.config_dir / "ui.ini"), QSettings.Format.IniFormat)
    return RememberedSize(widget, settings, f"dialogs/{key}", default, available)


class SplitterShares(QObject):
    """Shares a splitter's width in fixed proportions (``weights``) whenever it is resized, until
    the user drags a handle or a saved layout is restored (``stop()``): a pane first laid out at
    its construction size and then shown on a 1024-pixel screen keeps every part usable instead
    of the splitter taking all the missing width from one part."""

    def __init__(self, splitter, weights: tuple[float, ...]) -> None:
        super().__init__(splitter)
        self.splitter, self.weights, self.active = splitter, weights, True
        splitter.installEventFilter(self)
        splitter.splitterMoved.connect(lambda *_a: self.stop())

    def stop(self) -> None:
        """Keep the sizes the user (or a restored layout) chose from now on."""
        self.active = False

    def apply(self) -> None:
        """Set the sizes from the weights for the splitter's current width (minimums respected)."""
        s = self.splitter
        total = s.width() - s.handleWidth() * (s.count() - 1)
        if total <= 0:
            return
        mins = [s.widget(i).minimumSizeHint().width() for i in range(s.count())]
        want = [max(m, int(total * w / sum(self.weights))) for m, w in zip(mins, self.weights, strict=True)]
        over = sum(want) - total
        while over > 0:  # take the excess from the parts that are above their minimum, widest first
            i = max(range(len(want)), key=lambda k: want[k] - mins[k])
            take = min(over, want[i] - mins[i])
            if take <= 0:
                break
            want[i] -= take
            over -= take
        s.setSizes(want)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Re-share the width after each resize while active."""
        if self.active and watched is self.splitter and event.type() == QEvent.Type.Resize:
            from PySide6.QtCore import QTimer

            QTimer.singleShot(0, self, self.apply)
        return False
