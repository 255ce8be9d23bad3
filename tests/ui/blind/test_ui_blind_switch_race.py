"""Blind screening switched while a worker is still computing what a view will show: the chat answer
being written, or the job match being ranked, was redacted (or not) under the old state; it is shown
under the new one (``BlindMode.generation``). The person is invented (tests/support/blind_person.py)."""

from __future__ import annotations

import threading

from cvrag_desktop.catalog.privacy.blind import pseudonym
from tests.support.blind_person import CID, NAME, SECRETS, store_person

WAIT = 30  # seconds a fake worker waits for the test to let it go (a bound, never reached when it passes)


class SlowChat:
    """The assistant's operations; ``ask`` returns an answer naming the person once the test lets it go."""

    def __init__(self) -> None:
        self.started, self.release = threading.Event(), threading.Event()

    def ask(self, question, **_kw):
        self.started.set()
        assert self.release.wait(WAIT)
        return {"status": "answered", "answer": f"{NAME} knows Kafka.", "mode": "deterministic",
                "citations": [{"candidate_id": CID, "candidate_name": NAME, "page": 0, "quote": NAME}]}

    def llm_available(self):
        return False

    def threads(self):
        return []

    def history(self, _thread_id):
        return []


def _shown(chat) -> str:
    return "\n".join([c.body.text() for c in chat.transcript.cards]
                     + [chip.text() for c in chat.transcript.cards for chip in c.chips])


def _window(qtbot, services):
    from cvrag_desktop.ui.shell.main_window import CHAT, MainWindow

    win = MainWindow(services)
    qtbot.addWidget(win)
    win.show()
    win.show_pane(CHAT)
    return win


def test_an_answer_written_while_blind_switches_on_is_shown_redacted(qtbot, services, monkeypatch):
    store_person(services)
    slow = SlowChat()
    monkeypatch.setattr(services, "chat", slow)
    win = _window(qtbot, services)
    try:
        win.chat.ask("Who knows Kafka?")  # asked with blind screening off
        qtbot.waitUntil(slow.started.is_set, timeout=30_000)
        win.blind.action.setChecked(True)
        slow.release.set()
        qtbot.waitUntil(lambda: pseudonym(CID) in _shown(win.chat), timeout=30_000)
        assert not any(s in _shown(win.chat) for s in SECRETS)
        slow.started.clear()
        slow.release.clear()
        win.chat.ask("And Python?")  # asked with blind screening on, answered after it is off
        qtbot.waitUntil(slow.started.is_set, timeout=30_000)
        win.blind.action.setChecked(False)
        slow.release.set()
        qtbot.waitUntil(lambda: _shown(win.chat).count(NAME) >= 4 and not win.chat.busy(), timeout=30_000)
        assert pseudonym(CID) not in _shown(win.chat)
    finally:
        slow.release.set()
        win.close()
        win.runner.wait(20_000)


def test_a_draft_naming_the_person_is_covered_the_moment_blind_switches_on(qtbot, services, monkeypatch):
    store_person(services)
    slow = SlowChat()
    monkeypatch.setattr(services, "chat", slow)
    win = _window(qtbot, services)
    try:
        win.chat.ask("Who knows Kafka?")
        qtbot.waitUntil(slow.started.is_set, timeout=30_000)
        win.chat._token(win.chat._seq, f"{NAME} built the Kafka")  # a model's draft, streamed so far
        assert NAME in _shown(win.chat)
        win.blind.action.setChecked(True)
        assert NAME not in _shown(win.chat)  # at once, not at the next token or the end of the answer
    finally:
        slow.release.set()
        win.close()
        win.runner.wait(20_000)


def test_a_match_ranked_while_blind_switches_on_is_shown_redacted(qtbot, services, monkeypatch):
    started, release = threading.Event(), threading.Event()

    def match_jd(text, limit=None):
        started.set()
        assert release.wait(WAIT)
        cells = [{"requirement": "Kafka", "must": True, "status": "unknown", "evidence_id": None, "kind": "skill"}]
        return {"candidates": [{"candidate_id": CID, "person_id": CID, "name": NAME, "score": 0, "met": 0,
                                "total": 1, "cells": cells, "must_missed": ["Kafka"]}],
                "evidence": {}, "requirements": {}, "mode": "rules", "ranked": 1, "unread": []}

    store_person(services)
    monkeypatch.setattr(services.jobs, "match_jd", match_jd)
    win = _window(qtbot, services)
    try:
        dlg = win.chat.open_job_match()
        dlg.jd.setPlainText("Requirements: Kafka")
        dlg.run_match()
        qtbot.waitUntil(started.is_set, timeout=30_000)
        win.blind.action.setChecked(True)
        release.set()
        qtbot.waitUntil(lambda: dlg.table.rowCount() == 1 and dlg.table.item(0, 0) is not None
                        and dlg.table.item(0, 0).text() == pseudonym(CID), timeout=30_000)
        dlg.close()
    finally:
        release.set()
        win.close()
        win.runner.wait(20_000)


def test_a_preview_opened_with_boxes_from_before_the_switch_redraws_itself(qtbot, services):
    """An owner's worker decided "not hidden" just before blind screening switched on, and opens the page
    without boxes: the preview sees the boxes disagree with the state and covers the identity itself."""
    import pymupdf
    from PySide6.QtWidgets import QWidget

    from cvrag_desktop.ui.blind_mode import BlindMode
    from cvrag_desktop.ui.shell.tasks import TaskRunner
    from cvrag_desktop.ui.widgets.pdf_preview import PdfPreview

    path = store_person(services)
    owner = QWidget()
    qtbot.addWidget(owner)
    blind = BlindMode(services, owner)
    preview = PdfPreview(TaskRunner(parent=owner), owner)
    preview.resize(700, 900)
    preview.follow_blind(blind, services)
    blind.enabled = True  # switched while the owner's worker ran (its signal already went out)
    preview.redactions, preview.subject = [], (CID, CID)
    preview.open(path, 0)
    with pymupdf.open(path) as doc:
        (x0, y0, x1, y1), = doc[0].search_for(NAME)

    def covered() -> bool:
        img, z = preview.image, preview.zoom
        if img is None or not preview.settled():
            return False
        px = img.pixelColor(int((x0 + x1) / 2 * z), int((y0 + y1) / 2 * z))
        return max(px.red(), px.green(), px.blue()) < 60

    qtbot.waitUntil(covered, timeout=30_000)
    assert preview.redactions and not preview.external_btn.isEnabled()
