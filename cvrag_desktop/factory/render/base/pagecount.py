"""A reportlab canvas that knows the page count, for "Page 1 of 3" footers.

Pages are kept until the document is saved, then each is finished with its footer drawn
by a callback that receives the page number and the total (reportlab's numbered-canvas
recipe). The canvas keeps reportlab's invariant mode, so output stays reproducible.
"""

from __future__ import annotations

from collections.abc import Callable

from reportlab.pdfgen.canvas import Canvas

FooterDraw = Callable[[Canvas, int, int], None]


def page_count_canvas(draw: FooterDraw) -> type[Canvas]:
    """A ``Canvas`` class (pass as ``canvasmaker``) that calls ``draw(canvas, page, total)`` per page."""

    class CountingCanvas(Canvas):
        """Defers every page until save so the footer can print the total."""

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self._held: list[dict] = []

        def showPage(self) -> None:
            self._held.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._held)
            for n, state in enumerate(self._held, start=1):
                self.__dict__.update(state)
                draw(self, n, total)
                Canvas.showPage(self)
            Canvas.save(self)

    return CountingCanvas
