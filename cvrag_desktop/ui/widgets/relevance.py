"""Delegates for the search columns of the candidates table: a relevance bar and a snippet
with the query terms in bold."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, QSize, Qt
from PySide6.QtGui import QAbstractTextDocumentLayout, QColor, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from cvrag_desktop.ui.models.candidates import CandidateTableModel


def _paint_background(delegate: QStyledItemDelegate, painter: QPainter, option: QStyleOptionViewItem,
                      index: QModelIndex | QPersistentModelIndex) -> QStyleOptionViewItem:
    """The cell's background and selection as the style draws them, without its text; returns the options."""
    opt = QStyleOptionViewItem(option)
    delegate.initStyleOption(opt, index)
    opt.text = ""
    style = opt.widget.style() if opt.widget else QApplication.style()
    style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
    return opt


class RelevanceBarDelegate(QStyledItemDelegate):
    """Paints the relative score (0–1) as a horizontal bar with the percentage."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        """The row's background, then the bar and the percentage."""
        value = index.data(CandidateTableModel.RelevanceRole)
        opt = _paint_background(self, painter, option, index)
        if value is None:
            return
        rect = QRectF(option.rect).adjusted(4, 5, -4, -5)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)  # on a selected row the bar is in its text colour
        highlight = option.palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Highlight)
        track = QColor(highlight)
        track.setAlpha(40)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(track)
        painter.drawRoundedRect(rect, 3, 3)
        bar = QRectF(rect)
        bar.setWidth(max(2.0, rect.width() * float(value)))
        painter.setBrush(highlight)
        painter.drawRoundedRect(bar, 3, 3)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        """Narrow by default."""
        return QSize(70, super().sizeHint(option, index).height())


class SnippetDelegate(QStyledItemDelegate):
    """Renders the best passage as rich text (terms in bold), elided to the cell."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        """Background via the style, then the HTML clipped to the cell."""
        html = index.data(CandidateTableModel.HtmlRole)
        opt = _paint_background(self, painter, option, index)
        if not html:
            return
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(opt.font)
        doc.setHtml(f"<span style='white-space:nowrap'>{html}</span>")
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        ctx = QAbstractTextDocumentLayout.PaintContext()
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        ctx.palette.setColor(QPalette.ColorRole.Text, opt.palette.color(role))
        rect = opt.rect.adjusted(4, 0, -4, 0)
        painter.save()
        painter.setClipRect(rect)
        top = rect.top() + max(0, (rect.height() - doc.size().height()) / 2)
        painter.translate(rect.left(), top)
        doc.documentLayout().draw(painter, ctx)
        painter.restore()
