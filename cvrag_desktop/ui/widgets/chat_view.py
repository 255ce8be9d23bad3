"""The conversation view: one card per message, citation chips, draft / answered / unknown states.

A streamed draft is shown in a dashed, italic card labelled "Draft — not yet checked";
the validated answer replaces it. ``unknown`` answers get an amber card and say so.
The route, filters and who produced the answer (language model or rules) are a small
grey line under the answer. Chips carry the citation dict; a click emits it.
"""

from __future__ import annotations

import html
from urllib.parse import quote, unquote

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from cvrag_desktop.ui.widgets.flow_layout import FlowLayout

MAX_CHIPS = 8
_CARD = {
    "user": "background:rgba(40,120,220,0.10);border:1px solid rgba(40,120,220,0.35);",
    "waiting": "border:1px dashed rgba(128,128,128,0.7);",
    "draft": "border:1px dashed rgba(128,128,128,0.9);",
    "answered": "border:1px solid rgba(128,128,128,0.45);border-left:4px solid rgba(40,160,90,0.9);",
    "unknown": "background:rgba(230,170,0,0.14);border:1px solid rgba(230,170,0,0.7);",
    "failed": "background:rgba(220,40,60,0.10);border:1px solid rgba(220,40,60,0.55);",
    "cancelled": "border:1px dotted rgba(128,128,128,0.6);",
}
_BADGE = {
    "waiting": "Searching the CVs…",
    "draft": "Draft — not yet checked",
    "answered": "Answer",
    "unknown": "No supported answer",
    "failed": "Failed",
    "cancelled": "Cancelled — a newer question replaced it",
}
CHIP_STYLE = ("QPushButton{border:1px solid rgba(40,120,220,0.6);border-radius:10px;padding:2px 9px;"
              "background:rgba(40,120,220,0.08);}QPushButton:hover{background:rgba(40,120,220,0.22);}")


def chip_text(c: dict) -> str:
    """``[E1] Ana Núñez · p.2 · experience`` (pages shown 1-based)."""
    eid = f"[{c['evidence_id']}] " if c.get("evidence_id") else ""
    page = f" · p.{int(c['page']) + 1}" if c.get("page") is not None else ""
    section = f" · {c['section']}" if c.get("section") else ""
    return f"{eid}{c.get('candidate_name') or 'CV'}{page}{section}"


def meta_text(result: dict) -> str:
    """The discreet line under an answer: route, filters, and what produced it."""
    parts = []
    if result.get("route"):
        parts.append(f"route: {result['route']}")
    filters = {k: v for k, v in (result.get("filters") or {}).items() if v not in (None, [], "", {})}
    if filters:
        shown = "; ".join(f"{k}={', '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in filters.items())
        parts.append(f"filters: {shown}")
    mode = result.get("mode")
    if mode:
        parts.append("answered by the language model, checked" if mode == "llm" else "deterministic (rules, no LLM)")
    return " · ".join(parts)


class MessageCard(QFrame):
    """One message; assistant cards move through waiting → draft → answered/unknown/failed/cancelled."""

    citation_clicked = Signal(dict)

    def __init__(self, role: str, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = role
        self.state = "user" if role == "user" else "waiting"
        self.citations: list[dict] = []
        self.chips: list[QPushButton] = []
        self.badge = QLabel()
        self.badge.setStyleSheet("font-weight:600;border:none;background:transparent;")
        self.body = QLabel(text)
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.PlainText)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.meta = QLabel()
        self.meta.setWordWrap(True)
        self.meta.setStyleSheet("color:palette(placeholder-text);font-size:11px;border:none;background:transparent;")
        self.meta.hide()
        self.chip_box = QWidget()
        self.chip_box.setStyleSheet("background:transparent;")
        self.chip_layout = FlowLayout(self.chip_box)
        self.chip_box.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 8)
        layout.setSpacing(4)
        layout.addWidget(self.badge)
        layout.addWidget(self.body)
        layout.addWidget(self.chip_box)
        layout.addWidget(self.meta)
        self._set_state(self.state)

    def _set_state(self, state: str) -> None:
        self.state = state
        self.setObjectName("card")
        self.setStyleSheet(f"QFrame#card{{{_CARD[state]}border-radius:6px;}} QLabel{{border:none;}}")
        self.badge.setText("You" if state == "user" else _BADGE[state])
        font = self.body.font()
        font.setItalic(state in ("draft", "waiting", "cancelled"))
        self.body.setFont(font)

    def set_draft(self, text: str) -> None:
        """Show the streamed draft (never presented as checked)."""
        self.body.setText(text)
        if self.state != "draft":
            self._set_state("draft")

    def set_result(self, result: dict) -> None:
        """Replace the draft with the validated answer, its chips and the meta line."""
        self._set_state("unknown" if result.get("status") == "unknown" else "answered")
        self.body.setText(result.get("answer") or "")
        self.meta.setText(meta_text(result))
        self.meta.setVisible(bool(self.meta.text()))
        self.set_citations(result.get("citations") or [])

    def set_history(self, message: dict, result: dict | None = None) -> None:
        """A saved answer: the full result when this session has it, else chips at each candidate's cited page."""
        if result is not None:
            self.set_result(result)
            return
        self._set_state("unknown" if message.get("status") == "unknown" else "answered")
        self.body.setText(message.get("content") or "")
        self.meta.setText(meta_text({"route": message.get("route")}))
        self.meta.setVisible(bool(self.meta.text()))
        self.set_citations([{"candidate_id": p["candidate_id"], "candidate_name": p.get("name"),
                             "page": p.get("page"), "bbox": p.get("bbox"), "quote": p.get("quote"),
                             "facts": p.get("facts") or []}
                            for p in message.get("candidates") or []])

    def cover(self, text: str) -> None:
        """Hide what the card shows behind a note until it is drawn again (blind screening switching)."""
        self.body.setText(text)
        self.meta.hide()
        self.chip_box.hide()
        for chip in self.chips:
            chip.setText("…")
            chip.setToolTip("")

    def set_failed(self, text: str) -> None:
        """The question could not be answered (the pane shows the error)."""
        self._set_state("failed")
        self.body.setText(text)

    def set_cancelled(self) -> None:
        """A newer question superseded this one."""
        self._set_state("cancelled")
        if not self.body.text():
            self.body.setText("(not answered)")

    def set_citations(self, citations: list[dict]) -> None:
        """One chip per citation (the first ``MAX_CHIPS``, then a "+N more" chip)."""
        self.citations = list(citations)
        while self.chip_layout.count():
            item = self.chip_layout.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        self.chips = []
        for c in self.citations[:MAX_CHIPS]:
            self._add_chip(c)
        rest = self.citations[MAX_CHIPS:]
        if rest:
            more = QPushButton(f"+{len(rest)} more")
            more.setStyleSheet(CHIP_STYLE)
            more.setCursor(Qt.CursorShape.PointingHandCursor)
            more.clicked.connect(lambda: (more.hide(), [self._add_chip(c) for c in rest]))
            self.chip_layout.addWidget(more)
        self.chip_box.setVisible(bool(self.citations))

    def _add_chip(self, c: dict) -> None:
        chip = QPushButton(chip_text(c))
        chip.setStyleSheet(CHIP_STYLE)
        chip.setCursor(Qt.CursorShape.PointingHandCursor)
        chip.setToolTip((c.get("quote") or "Open the CV")[:300])
        chip.clicked.connect(lambda _c=False, c=c: self.citation_clicked.emit(c))
        self.chip_layout.addWidget(chip)
        self.chips.append(chip)


ASK_SCHEME = "ask:"


def suggestion_link(question: str) -> str:
    """An example question as a link the empty conversation turns into a question when clicked."""
    return f'<a href="{ASK_SCHEME}{quote(question)}">{html.escape(question)}</a>'


class ChatTranscript(QScrollArea):
    """A scrolling column of :class:`MessageCard`; follows the bottom while it grows."""

    citation_clicked = Signal(dict)
    suggestion_clicked = Signal(str)  # an example question of the empty conversation (``suggestion_link``)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.inner = QWidget()
        self.column = QVBoxLayout(self.inner)
        self.column.setSpacing(8)
        self.column.addStretch(1)
        self.setWidget(self.inner)
        self.cards: list[MessageCard] = []
        self.empty = QLabel()
        self.empty.setWordWrap(True)
        self.empty.setStyleSheet("color:palette(placeholder-text);padding:12px;")
        self.empty.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                           | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
        self.empty.linkActivated.connect(self._suggested)
        self.column.insertWidget(0, self.empty)
        self.verticalScrollBar().rangeChanged.connect(lambda _lo, hi: self.verticalScrollBar().setValue(hi))

    def _suggested(self, href: str) -> None:
        if href.startswith(ASK_SCHEME):
            self.suggestion_clicked.emit(unquote(href[len(ASK_SCHEME):]))

    def set_empty_text(self, html: str) -> None:
        """What an empty conversation shows (example questions)."""
        self.empty.setText(html)
        self.empty.setVisible(not self.cards)

    def clear(self, keep: MessageCard | None = None) -> None:
        """Remove every card (but ``keep``, e.g. the answer still being written)."""
        for card in self.cards:
            if card is not keep:
                card.setParent(None)
                card.deleteLater()
        self.cards = [c for c in self.cards if c is keep]
        self.empty.setVisible(not self.cards)

    def move_last(self, card: MessageCard) -> None:
        """Put a card of the transcript after the others."""
        if card in self.cards:
            self.cards.remove(card)
            self.cards.append(card)
            self.column.removeWidget(card)
            self.column.insertWidget(self.column.count() - 1, card)

    def add(self, role: str, text: str = "") -> MessageCard:
        """Append a card and return it."""
        card = MessageCard(role, text)
        card.citation_clicked.connect(self.citation_clicked)
        self.column.insertWidget(self.column.count() - 1, card)
        self.cards.append(card)
        self.empty.hide()
        return card
