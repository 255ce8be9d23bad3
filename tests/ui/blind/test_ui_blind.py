"""Blind screening in the GUI: the toggle hides every identifying field in the table, the detail,
the preview (black boxes from provenance), chat answers and the CSV export; a reveal is confirmed
and recorded."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt

from cvrag_desktop.catalog.privacy.blind import pseudonym
from cvrag_desktop.domain import Provenance
from cvrag_desktop.ui.blind_mode import reveal_current

SECRETS = ("Ana", "Ruiz", "ruizmail", "600 111", "Okafor", "ben@example", "aruiz", "699 000")
NAME_BOX = (50.0, 60.0, 250.0, 90.0)


@pytest.fixture
def blind_window(qtbot, services):
    """Four documents (Ana twice, a namesake, Ben); Ana's newer CV has a name box on page 1."""
    from tests.support.people_docs import ANA_NEW
    from tests.support.people_window import open_people_window

    ana_new = ANA_NEW.model_copy(update={"provenance": [
        Provenance(field="name", value="Dr. Ana Ruiz", page=0, bbox=NAME_BOX),
        Provenance(field="emails", value="ana.ruiz@ruizmail.net", page=0, bbox=(50.0, 100.0, 250.0, 115.0))]})
    yield from open_people_window(qtbot, services, ana_new)


def _leaks(text: str) -> list[str]:
    """The identifying strings found in ``text`` (whole words: "Analyst" is not "Ana")."""
    return [s for s in SECRETS if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", text)]


def _table_text(pane) -> str:
    m = pane.model
    cells = [str(m.data(m.index(r, c), role) or "") for r in range(m.rowCount()) for c in range(m.columnCount())
             for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)]
    return "\n".join(cells)


def _toggle(win, qtbot, on: bool) -> None:
    pane = win.candidates
    with qtbot.waitSignal(pane.loaded, timeout=30_000):
        win.blind.action.setChecked(on)


def test_blind_mode_hides_identity_everywhere_and_the_reveal_is_recorded(blind_window, qtbot, tmp_path,
                                                                          monkeypatch):
    win, svc = blind_window, blind_window.services
    pane = win.candidates
    assert "Ana Ruiz" in _table_text(pane)  # open by default
    assert win.blind.action.isCheckable() and win.blind.action in win.blind_toolbar.actions()
    _toggle(win, qtbot, True)
    assert svc.blind.enabled()  # remembered in the library
    text = _table_text(pane)
    assert _leaks(text) == []
    assert pseudonym("a2") in text and pseudonym("b1") in text
    # detail and preview: redacted record, a black box where the name is printed
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        pane.select_candidate("a2")
    qtbot.waitUntil(lambda: (pane.detail.record or {}).get("id") == "a2", timeout=30_000)
    detail = pane.detail.toPlainText() + repr(pane.detail.record) + repr(pane.detail.documents)
    assert _leaks(detail) == []
    assert pseudonym("a2") in pane.detail.toPlainText()
    assert pane.preview.redactions and (0, NAME_BOX) in pane.preview.redactions
    z = pane.preview.zoom
    cx, cy = (NAME_BOX[0] + NAME_BOX[2]) / 2 * z, (NAME_BOX[1] + NAME_BOX[3]) / 2 * z
    pixel = pane.preview.image.pixelColor(int(cx), int(cy))
    assert max(pixel.red(), pixel.green(), pixel.blue()) < 60
    assert not pane.preview.external_btn.isEnabled()  # no way round the redaction to the raw file
    # CSV export of the view
    out = tmp_path / "blind.csv"
    with qtbot.waitSignal(pane.exported, timeout=30_000):
        pane.export_view(out)
    csv_text = out.read_text(encoding="utf-8-sig")
    assert _leaks(csv_text) == []
    assert pseudonym("a2") in csv_text and "Lead Developer" in csv_text
    # chat answers and citation labels

    class FakeAssistant:
        def ask(self, question, **_kw):
            return {"status": "answered", "answer": "Dr. Ana Ruiz (ana.ruiz@ruizmail.net) and Ben Okafor fit.",
                    "citations": [{"candidate_id": "a2", "candidate_name": "Dr. Ana Ruiz", "page": 0,
                                   "quote": "Ana Ruiz, Go"}], "mode": "deterministic"}

        def llm_available(self):
            return False

        def threads(self):
            return []

        def history(self, _thread_id):
            return [{"role": "user", "content": "Is Ben Okafor good?"},
                    {"role": "assistant", "content": "Ben Okafor (ben@example.net) is.", "status": "answered",
                     "candidates": [{"candidate_id": "b1", "name": "Ben Okafor", "page": 0, "quote": "Okafor"}]}]

    monkeypatch.setattr(svc, "chat", FakeAssistant())
    with qtbot.waitSignal(win.chat.answered, timeout=30_000) as got:
        win.chat.ask("who knows Go?")
    shown = repr(got.args[0])
    assert _leaks(shown) == []
    assert pseudonym("a2") in shown and pseudonym("b1") in shown and got.args[0]["citations"][0]["candidate_id"] == "a2"
    with qtbot.waitSignal(win.chat.preview.rendered, timeout=30_000):  # the cited page: identity boxed too
        win.chat.open_citation(got.args[0]["citations"][0])
    assert (0, NAME_BOX) in win.chat.preview.redactions
    win.chat.open_thread("t1")  # a saved conversation is redacted too
    qtbot.waitUntil(lambda: not win.runner.busy("chat-history"), timeout=30_000)
    from PySide6.QtWidgets import QAbstractButton, QLabel

    history = " ".join([w.text() for w in win.chat.transcript.findChildren(QLabel)]
                       + [w.text() for w in win.chat.transcript.findChildren(QAbstractButton)])
    assert pseudonym("b1") in history and _leaks(history) == []
    # reveal: asked, refused -> nothing; confirmed -> recorded, then shown openly
    monkeypatch.setattr(pane, "confirm", lambda *_a: False)
    reveal_current(pane)
    assert svc.blind.reveals() == []
    monkeypatch.setattr(pane, "confirm", lambda *_a: True)
    with qtbot.waitSignal(pane.loaded, timeout=30_000):
        reveal_current(pane)
    log = svc.blind.reveals()
    assert [r.candidate_id for r in log] == ["a2"] and log[0].revealed_by and log[0].revealed_at > 0
    text = _table_text(pane)
    assert "Dr. Ana Ruiz" in text and "Okafor" not in text and pseudonym("b1") in text
    # off again: everything open, the revealed set forgotten
    _toggle(win, qtbot, False)
    assert "Okafor" in _table_text(pane) and not svc.blind.enabled()
