"""Blind screening is one state every open view obeys: switching it on hides an invented person's
name, phone and e-mail in every view already open (the candidates table, detail and preview, the chat's
transcript, citations and preview, the job-match matrix, its preview and its "Why this rank" dialog,
the retention review), in the widgets' text and in the preview's page pixels; switching it off brings
the identity back in the same views, and so does a reveal. The person is invented (tests/support/blind_person.py)."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QAbstractListModel, Qt

from cvrag_desktop.catalog.privacy.blind import pseudonym
from cvrag_desktop.ui.blind_mode import reveal_current
from tests.support.blind_person import CID, EMAIL, NAME, PHONE, SECRETS, store_person

DARK = 60  # the blackout fill is (20, 20, 20)
INK = 150  # anti-aliased text at a small zoom still has pixels this dark


def _boxes(path: str) -> list[tuple[float, float, float, float]]:
    """Where the name, the e-mail and the phone are drawn on page 1 of the PDF the previews show (a Word
    file's preview PDF) in PDF points, top-left origin."""
    import pymupdf

    with pymupdf.open(path) as doc:
        page = doc[0]
        out = [tuple(r) for s in (NAME, EMAIL, PHONE) for r in page.search_for(s)]
    assert len(out) == 3
    return out


class FakeChat:
    """The assistant's operations: one answer naming the person, one saved conversation."""

    def ask(self, question, **_kw):
        return {"status": "answered", "answer": f"{NAME} ({EMAIL}, {PHONE}) knows Kafka.", "mode": "deterministic",
                "citations": [{"candidate_id": CID, "candidate_name": NAME, "page": 0, "bbox": None,
                               "quote": f"{NAME} Skills: Python, Kafka"}]}

    def llm_available(self):
        return False

    def threads(self):
        return [{"thread_id": "t-old", "title": f"Is {NAME} a fit?"}]

    def history(self, _thread_id):
        return []


def _match() -> dict:
    ev = {"candidate_id": CID, "page": 0, "bbox": None, "quote": f"{NAME}: Kafka", "section": "skills"}
    cells = [{"requirement": "Kafka", "must": True, "status": "met", "evidence_id": "e1", "kind": "skill"}]
    return {"candidates": [{"candidate_id": CID, "person_id": CID, "name": NAME, "score": 10, "met": 1, "total": 1,
                            "cells": cells, "must_missed": []}],
            "evidence": {"e1": ev}, "requirements": {"must": ["Kafka"]}, "mode": "rules", "ranked": 1, "unread": []}


def _explanation() -> dict:
    ev = {"candidate_id": CID, "page": 1, "bbox": None, "line": f"{NAME} Kafka", "file": "Tobias-Quillfeather.pdf"}
    return {"kind": "job_match", "candidate_id": CID, "person_id": CID, "name": NAME, "rank": 1, "ranked": 1,
            "score": 10, "breakdown": {"must_met": 1, "nice_met": 0},
            "requirements": [{"requirement": "Kafka", "must": True, "status": "met", "points": 10, "evidence": ev}],
            "flags": [], "unknown": [], "not_read": [], "rule": "10 per must-have.",
            "model": {"text": "Nothing."}, "oversight": f"A person reads {NAME}'s CV."}


def _texts(widget) -> list[str]:
    """Every string a widget tree shows: labels, text boxes, buttons, tooltips, titles, list/table cells."""
    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractItemView,
        QComboBox,
        QLabel,
        QPlainTextEdit,
        QTextEdit,
        QWidget,
    )

    out = [widget.windowTitle(), widget.toolTip()]
    for w in [widget, *widget.findChildren(QWidget)]:
        out += [w.toolTip(), w.windowTitle() if w.isWindow() else ""]
        if isinstance(w, QLabel | QAbstractButton):
            out.append(w.text())
        elif isinstance(w, QTextEdit | QPlainTextEdit):
            out.append(w.toPlainText())
        elif isinstance(w, QComboBox):
            out += [w.itemText(i) for i in range(w.count())]
        elif isinstance(w, QAbstractItemView) and w.model() is not None:
            m = w.model()
            cols = 1 if isinstance(m, QAbstractListModel) else m.columnCount()
            out += [str(m.data(m.index(r, c), role) or "") for r in range(m.rowCount()) for c in range(cols)
                    for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)]
    return out


def _leaks(windows) -> list[str]:
    text = "\n".join(s for w in windows for s in _texts(w))
    return [s for s in SECRETS if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", text)]


def _where(windows) -> list[tuple[str, str]]:
    """(the widget's class and object name, the string) of each identifying string still shown."""
    from PySide6.QtWidgets import QWidget

    found = []
    for top in windows:
        for w in [top, *top.findChildren(QWidget)]:
            own = [w.windowTitle() if w.isWindow() else "", w.toolTip()]
            own += [s for s in _texts(w) if s not in own] if not w.findChildren(QWidget) else []
            found += [(type(w).__name__, s) for s in _leaks_in("\n".join(own))]
    return sorted(set(found))


def _leaks_in(text: str) -> list[str]:
    return [s for s in SECRETS if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", text)]


def _covered(preview, boxes) -> bool:
    """Every pixel inside the name / e-mail / phone boxes of the shown page is the blackout colour."""
    img, z = preview.image, preview.zoom
    if img is None or preview.page != 0 or not preview.settled():
        return False
    for x0, y0, x1, y1 in boxes:
        for x in range(int(x0 * z) + 1, int(x1 * z) - 1, 2):
            for y in range(int(y0 * z) + 1, int(y1 * z) - 1, 2):
                px = img.pixelColor(x, y)
                if max(px.red(), px.green(), px.blue()) >= DARK:
                    return False
    return True


def _legible(preview, boxes) -> bool:
    """Each box holds ink and paper (the text is drawn, nothing covers it)."""
    img, z = preview.image, preview.zoom
    if img is None or preview.page != 0 or not preview.settled() or preview.redactions:
        return False
    for x0, y0, x1, y1 in boxes:
        shades = [max(img.pixelColor(x, y).red(), img.pixelColor(x, y).green(), img.pixelColor(x, y).blue())
                  for x in range(int(x0 * z), int(x1 * z)) for y in range(int(y0 * z), int(y1 * z))]
        if not shades or min(shades) >= INK or sum(s > 200 for s in shades) < len(shades) // 3:
            return False
    return True


@pytest.fixture(params=["pdf", "docx"])
def views(request, qtbot, services, monkeypatch):
    """A window with every view open on the invented person: candidates (detail + preview), chat
    (answer, citation preview), job match (matrix, evidence preview, "Why this rank"), retention."""
    from cvrag_desktop.ui.shell.main_window import CANDIDATES, CHAT, MainWindow

    store_person(services, request.param)
    monkeypatch.setattr(services, "chat", FakeChat())
    monkeypatch.setattr(services.jobs, "match_jd", lambda text, limit=None: _match())
    monkeypatch.setattr(services.jobs, "explain_match", lambda result, cid, text=None: _explanation())
    win = MainWindow(services)
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    win.show_pane(CANDIDATES)
    pane = win.candidates
    with qtbot.waitSignal(pane.loaded, timeout=30_000):
        pane.reload()
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        assert pane.select_candidate(CID)
    qtbot.waitUntil(lambda: pane.preview.settled() and pane.preview.image is not None, timeout=30_000)
    win.show_pane(CHAT)
    chat = win.chat
    with qtbot.waitSignal(chat.answered, timeout=30_000) as got:
        chat.ask("Who knows Kafka?")
    with qtbot.waitSignal(chat.preview.rendered, timeout=30_000):
        chat.open_citation(got.args[0]["citations"][0])
    dlg = chat.open_job_match()
    dlg.jd.setPlainText("Backend engineer\nRequirements: Kafka")
    with qtbot.waitSignal(dlg.matched, timeout=30_000):
        dlg.run_match()
    with qtbot.waitSignal(dlg.preview.rendered, timeout=30_000):
        dlg.open_cell(0, 4)
    dlg.explain_row(0)
    qtbot.waitUntil(lambda: dlg.explain_dialog is not None, timeout=30_000)
    retention = win.open_retention()
    qtbot.waitUntil(lambda: retention.due is not None, timeout=30_000)
    previews = [pane.preview, chat.preview, dlg.preview]
    qtbot.waitUntil(lambda: all(p.settled() and p.image is not None for p in previews), timeout=30_000)
    assert len({p.path for p in previews}) == 1  # the three show the same page of the same PDF
    assert {p.source.rsplit(".", 1)[-1] for p in previews} == {request.param}  # a Word file: its preview PDF
    yield win, previews, [win, dlg, dlg.explain_dialog, retention], _boxes(previews[0].path)
    retention.close()
    dlg.explain_dialog.close()
    dlg.close()
    win.close()
    win.runner.wait(20_000)


def _until(qtbot, cond, why) -> None:
    """Wait for ``cond``; on a timeout fail with what is still wrong (``why()``)."""
    try:
        qtbot.waitUntil(cond, timeout=30_000)
    except qtbot.TimeoutError:
        pytest.fail(str(why()))


def test_blind_mode_redraws_every_open_view_on_and_off(views, qtbot):
    win, previews, windows, boxes = views
    assert set(_leaks(windows)) == set(SECRETS)  # open: the person is named everywhere
    assert all(_legible(p, boxes) for p in previews)
    win.blind.action.setChecked(True)
    # at once, before any worker answers: covered (pseudonyms, placeholders, blank pages)
    assert _where(windows) == [] and _leaks(windows) == []
    assert all(p.image is None for p in previews)
    _until(qtbot, lambda: not _leaks(windows), lambda: ("still shown:", _where(windows)))
    _until(qtbot, lambda: all(_covered(p, boxes) for p in previews),
           lambda: ("previews covered:", [_covered(p, boxes) for p in previews]))
    assert pseudonym(CID) in win.candidates.detail.toPlainText()
    assert any(pseudonym(CID) in c.body.text() for c in win.chat.transcript.cards)
    assert pseudonym(CID) in win.chat.job_dialog.table.item(0, 0).text()
    assert pseudonym(CID) in win.chat.job_dialog.explain_dialog.windowTitle()
    assert all(not p.external_btn.isEnabled() for p in previews)  # no way round to the raw file
    win.blind.action.setChecked(False)
    _until(qtbot, lambda: set(_leaks(windows)) == set(SECRETS), lambda: ("back:", _leaks(windows)))
    _until(qtbot, lambda: all(_legible(p, boxes) for p in previews),
           lambda: ("previews legible:", [_legible(p, boxes) for p in previews]))
    assert NAME in win.candidates.detail.toPlainText()
    assert any(NAME in c.body.text() for c in win.chat.transcript.cards)
    assert any(NAME in chip.text() for c in win.chat.transcript.cards for chip in c.chips)
    assert win.chat.job_dialog.table.item(0, 0).text() == NAME
    assert NAME in win.chat.job_dialog.explain_dialog.windowTitle()
    # on again, then a confirmed reveal of this person: every open view shows the identity again
    win.blind.action.setChecked(True)
    _until(qtbot, lambda: not _leaks(windows), lambda: ("still shown:", _where(windows)))
    _until(qtbot, lambda: all(_covered(p, boxes) for p in previews),
           lambda: ("previews covered:", [_covered(p, boxes) for p in previews]))
    pane = win.candidates
    pane.confirm = lambda *_a: True
    assert pane.current_id == CID  # the selection survived both switches
    reveal_current(pane)
    _until(qtbot, lambda: set(_leaks(windows)) == set(SECRETS), lambda: ("revealed:", _leaks(windows)))
    _until(qtbot, lambda: all(_legible(p, boxes) for p in previews),
           lambda: ("previews legible:", [_legible(p, boxes) for p in previews]))
    assert [r.candidate_id for r in win.services.blind.reveals()] == [CID]
