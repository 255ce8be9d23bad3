"""A PDF page preview that jumps to a page and highlights a region (provenance, citations).

A Word file is shown as its preview PDF (rendered by the app at import, or on first view
for an older library: the app layer's document preview), with the same highlights.

Pages are rasterised by ``page_render.py`` with PyMuPDF (already the extraction engine, so no extra
dependency; QtPdf lives in the much larger PySide6-Addons) in a worker; the GUI thread
only turns the pixels into an image and paints the highlight. Bounding boxes are PDF
points with a top-left origin, as the catalog stores them.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QColor, QDesktopServices, QImage, QKeySequence, QPainter, QPen, QPixmap, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from cvrag_desktop.app.health import document_preview, document_preview_boxes
from cvrag_desktop.ui.blind_mode import preview_boxes
from cvrag_desktop.ui.models.import_queue import own_file_message
from cvrag_desktop.ui.shell.tasks import TaskContext, TaskRunner
from cvrag_desktop.ui.widgets.page_render import MAX_ZOOM, MIN_ZOOM, ZOOM, render_page

ZOOM_STEP = 1.25
FIT_WIDTH, FIT_PAGE = "width", "page"
TASK = "pdf-render"


class PdfPreview(QWidget):
    """Shows one page of a CV with an optional highlighted rectangle; pages, zoom, fit, system viewer."""

    rendered = Signal(int)  # page shown (0-based)

    def __init__(self, runner: TaskRunner, parent=None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.task = f"{TASK}-{id(self):x}"  # its own key: two previews never cancel each other's render
        self.path: str | None = None  # the PDF shown (a Word file's preview PDF)
        self.source: str | None = None  # the document asked for (the .docx itself for a Word file)
        self.page = 0
        self.pages = 0
        self.bbox: tuple[float, float, float, float] | None = None
        self.find: list[list[str]] = []
        self.hits: list[tuple[float, float, float, float]] = []
        self.highlight_rect: QRectF | None = None
        # blind screening: (page, bbox) boxes from provenance, and identifying strings (searched on
        # each rendered page), all painted solid
        self.redactions: list = []
        # whose document is shown: (person id or None, document id), set by the owner with each open; with
        # follow_blind the preview redraws itself when blind screening switches or the person is revealed
        self.subject: tuple[str | None, str] | None = None
        self._blind = None
        self._services = None
        self._redacting = False  # a blind redraw is computing the boxes: nothing renders with the old ones
        self._fresh = False  # the next open is the redraw's own (its boxes are current)
        self.masked: list[tuple[float, float, float, float]] = []
        self.image: QImage | None = None
        self.fit: str | None = FIT_WIDTH
        self.zoom = ZOOM
        self.prev_btn = self._button("◀", "Previous page", lambda: self.show_page(self.page - 1, keep_bbox=False))
        self.next_btn = self._button("▶", "Next page", lambda: self.show_page(self.page + 1, keep_bbox=False))
        self.page_label = QLabel("No file")
        self.page_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # may be elided
        self.zoom_out_btn = self._button("−", "Zoom out (Ctrl+-)", lambda: self.set_zoom(self.zoom / ZOOM_STEP))
        self.zoom_in_btn = self._button("+", "Zoom in (Ctrl++)", lambda: self.set_zoom(self.zoom * ZOOM_STEP))
        self.fit_width_btn = self._button("↔", "Fit the page to the width of the preview",  # short: a narrow
                                          lambda: self.set_fit(FIT_WIDTH))              # preview keeps "Page 2/3"
        self.fit_page_btn = self._button("↕", "Fit the whole page in the preview",
                                         lambda: self.set_fit(FIT_PAGE))
        self.external_btn = self._button("Open…", "Open in the system's PDF viewer", self.open_external)
        bar = QHBoxLayout()
        bar.setSpacing(2)  # a narrow preview on a 1024-pixel laptop keeps every button
        bar.addWidget(self.prev_btn)
        self.page_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        bar.addWidget(self.page_label, 1)
        bar.addWidget(self.next_btn)
        bar.addSpacing(4)
        for b in (self.zoom_out_btn, self.zoom_in_btn, self.fit_width_btn, self.fit_page_btn, self.external_btn):
            bar.addWidget(b)
        for seq, slot in (("Ctrl++", self.zoom_in_btn.click), ("Ctrl+=", self.zoom_in_btn.click),
                          ("Ctrl+-", self.zoom_out_btn.click)):
            shortcut = QShortcut(QKeySequence(seq), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        self._refit = QTimer(self, singleShot=True, interval=200)
        self._refit.timeout.connect(self._refit_now)
        self.canvas = QLabel("Select a candidate to preview the CV.")
        self.canvas.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.canvas)
        self.scroll.setWidgetResizable(True)
        self.scroll.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.scroll, 1)
        self._sync()

    @staticmethod
    def _button(text: str, tip: str, slot) -> QToolButton:
        b = QToolButton()
        b.setText(text)
        b.setToolTip(tip)
        b.setAutoRaise(True)
        b.clicked.connect(slot)
        return b

    def follow_blind(self, blind, services) -> None:
        """Obey the window's blind screening (``ui/blind_mode.BlindMode``): the page shown is drawn again with or
        without black boxes over the identity of :attr:`subject` as soon as it switches or on a reveal."""
        self._blind, self._services = blind, services
        blind.follow(self, self.blind_redraw)

    def blind_redraw(self) -> None:
        """Draw the shown page again under the current blind state: redactions recomputed in a worker (the
        page is blanked at once when the identity is to be hidden, so it never lingers)."""
        blind, svc, source = self._blind, self._services, self.source
        if blind is None or not self.subject or not source:
            return
        person, doc = self.subject
        hide = blind.hides(person, [doc])
        if not hide and not self.redactions and not self._redacting:
            return
        page, bbox, find, shown = self.page, self.bbox, list(self.find), self.path
        if hide:
            self.image = None
            self.canvas.setPixmap(QPixmap())
            self.canvas.setText("Blind screening: hiding the identity…")
        self.redactions = list(self.redactions) if hide else []
        self._redacting = True
        self._sync()

        def work(ctx) -> list:
            boxes = preview_boxes(svc, doc) if hide else []
            if shown and shown != source:  # a Word file: the boxes as they fall on its preview PDF
                boxes = [r for r in boxes if isinstance(r, str)] + document_preview_boxes(
                    source, [tuple(r) for r in boxes if not isinstance(r, str)])
            return boxes

        def done(boxes: list) -> None:
            if self.source != source or self.path != shown or not self._redacting:  # another document meanwhile
                return
            self.redactions, self._redacting = boxes, False
            if shown:
                self._show_pdf(shown, page, bbox, find)
            else:
                self._fresh = True
                self.open(source, page, bbox, find)

        self.runner.start(self.task, work, on_result=done, on_error=self._failed)

    def clear(self, message: str = "No preview.") -> None:
        """Show a message instead of a page."""
        self.runner.cancel(self.task)
        self.subject, self._redacting = None, False
        self.path, self.source, self.pages, self.bbox, self.image = None, None, 0, None, None
        self.canvas.setPixmap(QPixmap())
        self.canvas.setText(message)
        self._sync()

    def open(self, path: str | None, page: int = 0, bbox=None, find: list[list[str]] | None = None) -> None:
        """Show ``page`` of ``path`` (0-based), outlining ``bbox`` and highlighting ``find`` strings.

        ``find`` (tiers of strings: a citation's facts, then its quoted lines) is searched on
        the page inside the bbox; the hits are filled and the bbox outlined. Without hits
        the bbox is filled.
        """
        fresh, self._fresh, self._redacting = self._fresh, False, False
        if not path or not Path(path).exists():
            self.clear("The CV file is not available (it may have been forgotten or moved).")
            return
        if Path(path).suffix.lower() == ".docx":
            self._open_word(path, page, bbox, find)
        elif Path(path).suffix.lower() != ".pdf":
            self.clear("No preview for this kind of file: the structured record is on the left.")
            return
        else:
            self.source = path
            self._show_pdf(path, page, bbox, find)
        if not fresh and self._blind_stale():  # the owner's boxes were computed before blind mode switched
            self.blind_redraw()

    def _blind_stale(self) -> bool:
        """Whether the boxes disagree with blind screening now (hidden without boxes, or boxes on a shown one)."""
        if self._blind is None or not self.subject:
            return False
        person, doc = self.subject
        return self._blind.hides(person, [doc]) != bool(self.redactions)

    def _open_word(self, path: str, page: int, bbox, find) -> None:
        """A Word CV: its preview PDF (made at import, or now in a worker), the box moved onto it."""
        self.runner.cancel(self.task)
        self.source = path
        self.path, self.pages, self.image = None, 0, None
        self.canvas.setPixmap(QPixmap())
        self.canvas.setText("Preparing the preview of this Word file…")
        self._sync()

        masks = [r for r in self.redactions if isinstance(r, str)]
        boxes = [tuple(r) for r in self.redactions if not isinstance(r, str)]

        def work(ctx) -> tuple:
            return document_preview(path, page, bbox), document_preview_boxes(path, boxes)

        def ready(out: tuple) -> None:
            (pdf, at, box), moved = out
            if self.source == path:  # not superseded by another document meanwhile
                if self.redactions:  # blind screening: black boxes where the preview prints the identity
                    self.redactions = masks + moved
                self._show_pdf(pdf, at, box, find)

        self.runner.start(self.task, work, on_result=ready, on_error=self._failed)

    def _show_pdf(self, path: str, page: int, bbox, find) -> None:
        self.path = path
        self.pages = 0  # another document: its own page count comes with the render (never the previous one's)
        self.bbox = tuple(bbox) if bbox else None
        self.find = list(find or [])
        self.show_page(page or 0, keep_bbox=True)

    def show_page(self, page: int, keep_bbox: bool = False) -> None:
        """Render a page of the open file (the highlight stays only with ``keep_bbox``)."""
        if not self.path or self._redacting:  # a blind redraw renders this page once its boxes are known
            return
        if self.pages:
            page = max(0, min(page, self.pages - 1))
        if not keep_bbox:
            self.bbox, self.find = None, []
        path, find, clip, zoom = self.path, list(self.find), self.bbox, self.zoom
        mask = [r for r in self.redactions if isinstance(r, str)]
        frame = 2 * self.scroll.frameWidth() + 4
        width = self._fit_width() if self.fit else None
        height = max(120, self.scroll.height() - frame) if self.fit == FIT_PAGE else None
        self.page_label.setText(f"Page {page + 1}…")
        self.runner.start(self.task, lambda ctx: self._render(ctx, path, page, zoom, width, height, find, clip, mask),
                          on_result=self._show, on_error=self._failed)

    def set_zoom(self, zoom: float) -> None:
        """Render at a fixed zoom (leaves fit mode)."""
        self.fit = None
        self.zoom = max(MIN_ZOOM, min(MAX_ZOOM, zoom))
        self.show_page(self.page, keep_bbox=True)

    def set_fit(self, mode: str) -> None:
        """Fit the page to the preview's width (``"width"``) or show it whole (``"page"``)."""
        self.fit = mode
        self.show_page(self.page, keep_bbox=True)

    def open_external(self) -> bool:
        """Open the shown CV in the system's PDF viewer; False (and a note) when it cannot."""
        if not self.path:
            return False
        ok = QDesktopServices.openUrl(QUrl.fromLocalFile(self.source or self.path))  # Word opens the .docx
        if not ok:
            self.page_label.setText("No viewer could be started for this file.")
        return bool(ok)

    def resizeEvent(self, event) -> None:
        """In a fit mode, re-render (debounced) when the shown preview changes size."""
        super().resizeEvent(event)
        if self.fit and self.path and self.isVisible():
            self._refit.start()

    def settled(self) -> bool:
        """True when no render and no re-fit is pending: what is shown fits the preview's current size.

        A preview just shown may be laid out again after its first render (a fit mode then renders
        once more, debounced): code that reads the zoom waits for this rather than for a time."""
        return not (self._refit.isActive() or self.runner.busy(self.task))

    def _refit_now(self) -> None:
        if not (self.fit and self.path and self.isVisible()):
            return
        if self.runner.busy(self.task):  # a render is on its way (maybe at the old size): fit again after it
            self._refit.start()
        elif self.image is None or abs(self.image.width() - self._fit_width()) > 4:
            self.show_page(self.page, keep_bbox=True)

    def _fit_width(self) -> int:
        # keep room for the scroll bar (a tall page brings it in); the style's metric, not the bar's
        # size hint, which changes once the bar is first polished (a fit then rendered twice)
        bar = self.scroll.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self.scroll)
        return max(120, self.scroll.width() - bar - 2 * self.scroll.frameWidth() - 4)

    @staticmethod
    def _render(ctx: TaskContext, path: str, page: int, zoom: float, width: int | None, height: int | None,
                find: list[list[str]], clip, mask: list[str]) -> dict:
        out = render_page(path, page, zoom, fit_width=width, find=find, clip=clip, fit_height=height, mask=mask)
        out["path"] = path
        return out

    def _show(self, out: dict) -> None:
        if out["path"] != self.path:
            return
        img = QImage(out["samples"], out["width"], out["height"], out["stride"], QImage.Format.Format_RGB888).copy()
        self.page, self.pages, self.zoom = out["page"], out["pages"], out["zoom"]
        self.hits = list(out.get("hits") or [])
        self.masked = list(out.get("masked") or []) if self.redactions else []
        self.highlight_rect = self._paint(img, out["zoom"])
        self.image = img
        self.canvas.setText("")
        self.canvas.setPixmap(QPixmap.fromImage(img))
        if self.highlight_rect is not None:
            c = self.highlight_rect.center()
            self.scroll.ensureVisible(int(c.x()), int(c.y()), 50, 150)
        self._sync()
        self.rendered.emit(self.page)

    def _paint(self, img: QImage, z: float) -> QRectF | None:
        """Fill the text hits (or the bbox when nothing was found) and outline the bbox."""
        def scaled(b, pad: float) -> QRectF:
            x0, y0, x1, y1 = b
            return QRectF(x0 * z - pad, y0 * z - pad, (x1 - x0) * z + 2 * pad, (y1 - y0) * z + 2 * pad)

        if self.redactions:
            blackout = QPainter(img)
            boxes = [item[1] for item in self.redactions if not isinstance(item, str) and item[0] == self.page]
            for box in boxes + self.masked:
                blackout.fillRect(scaled(box, 2), QColor(20, 20, 20))
            blackout.end()
        if not self.bbox and not self.hits:
            return None
        painter = QPainter(img)
        fill, pen = QColor(255, 220, 0, 90), QPen(QColor(230, 120, 0), 2)
        main = None
        if self.hits:
            rects = [scaled(h, 1.5) for h in self.hits]
            for r in rects:
                painter.fillRect(r, fill)
            main = rects[0]
            for r in rects[1:]:
                main = main.united(r)
        if self.bbox:
            box = scaled(self.bbox, 3)
            if not self.hits:
                painter.fillRect(box, fill)
            painter.setPen(pen)
            painter.drawRect(box)
            main = box if main is None else main
        painter.end()
        return main

    def _failed(self, exc: BaseException) -> None:
        kind = "Word file" if (self.source or "").lower().endswith(".docx") else "PDF"
        self.clear(f"Cannot show this {kind}: {own_file_message(str(exc), None)}")  # never the library's <sha256>.pdf

    def _sync(self) -> None:
        self.prev_btn.setEnabled(bool(self.path) and self.page > 0)
        self.next_btn.setEnabled(bool(self.path) and self.page < self.pages - 1)
        for b in (self.zoom_out_btn, self.zoom_in_btn, self.fit_width_btn, self.fit_page_btn, self.external_btn):
            b.setEnabled(bool(self.path))
        self.external_btn.setEnabled(bool(self.path) and not self.redactions)  # blind: no unredacted viewer
        self.zoom_out_btn.setEnabled(bool(self.path) and self.zoom > MIN_ZOOM + 1e-6)
        self.zoom_in_btn.setEnabled(bool(self.path) and self.zoom < MAX_ZOOM - 1e-6)
        for b, verb in ((self.zoom_out_btn, "Zoom out (Ctrl+-)"), (self.zoom_in_btn, "Zoom in (Ctrl++)")):
            b.setToolTip(f"{verb} · now {round(self.zoom * 100)}%")
        if self.path and self.pages:
            self.page_label.setText(f"Page {self.page + 1}/{self.pages}")  # short: the zoom is in the tooltip
            self.page_label.setToolTip(f"Page {self.page + 1} of {self.pages}, zoom {round(self.zoom * 100)}%")
        elif not self.path:
            self.page_label.setText("")
