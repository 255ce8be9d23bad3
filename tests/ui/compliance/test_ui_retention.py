"""File ▸ Retention… and the access-request export in the GUI (issue 23): the period with its source and
the not-legal-advice notice, the review list with when and why, consent, a purge only after a
confirmation naming how many, blind pseudonyms, and "Export everything about this person…"."""

from __future__ import annotations

import time
import zipfile
from datetime import UTC, datetime, timedelta

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox

from cvrag_desktop.catalog.compliance.retention import NOT_LEGAL_ADVICE
from cvrag_desktop.catalog.privacy.blind import pseudonym
from cvrag_desktop.ui.dialogs.retention_dialog import PersonRole
from tests.support.people_docs import ANA_NEW, ANA_OTHER, BEN, add_document

WAIT = 30_000


def _library(services) -> None:
    for cid, cv in (("a1", ANA_NEW), ("a3", ANA_OTHER), ("b1", BEN)):
        add_document(services.catalog, cid, cv, services.paths.data_dir / "library")


def _backdate(services, *ids: str, days: int = 40) -> None:
    old = time.time() - days * 86400
    with services.catalog.transaction() as c:
        c.executemany("UPDATE candidates SET created_at = ? WHERE candidate_id = ?", [(old, i) for i in ids])


def _reloaded(qtbot, dlg, action) -> None:
    """Run ``action`` and wait until the dialog has read the status and the review list again."""
    with qtbot.waitSignal(dlg.loaded, timeout=WAIT):
        action()


def _rows(dlg) -> dict[str, list[str]]:
    """The review table as person id -> the cells of its row."""
    return {dlg.table.item(r, 0).data(PersonRole): [dlg.table.item(r, c).text() for c in range(dlg.table.columnCount())]
            for r in range(dlg.table.rowCount())}


def test_retention_dialog_period_review_consent_and_confirmed_purge(window, services, qtbot, monkeypatch):
    _library(services)
    dlg = window.open_retention()
    qtbot.waitUntil(lambda: dlg.status is not None, timeout=WAIT)
    assert NOT_LEGAL_ADVICE in dlg.notice.text() and "Not legal advice" in dlg.notice.text()
    assert "none chosen yet" in dlg.current.text()
    assert dlg.table.rowCount() == 0
    presets = [dlg.preset.itemText(i) for i in range(dlg.preset.count())]
    assert "DE — 183 days" in presets and "NL — 28 days" in presets and presets[-1] == "Custom number of days"
    area = dlg.screen().availableGeometry()
    assert dlg.width() <= area.width() and dlg.height() <= area.height()  # fitted to the screen

    dlg.choose("DE")
    assert "Germany" in dlg.source.text() and not dlg.days.isEnabled()
    _reloaded(qtbot, dlg, dlg.apply_btn.click)
    assert "DE, 183 days" in dlg.current.text() and "Germany" in dlg.current.text()
    policy = services.compliance.retention_status()["policy"]
    assert (policy["preset"], policy["days"]) == ("DE", 183)

    dlg.choose("custom", 1)  # one day: the consent below, not the period, decides when a3 is due
    assert dlg.days.isEnabled()
    _reloaded(qtbot, dlg, dlg.apply_btn.click)
    policy = services.compliance.retention_status()["policy"]
    assert (policy["preset"], policy["days"]) == ("custom", 1)

    _backdate(services, "a1", "a3")  # their last activity 40 days ago: due now
    _reloaded(qtbot, dlg, dlg.refresh_btn.click)
    rows = _rows(dlg)
    assert set(rows) == {"a1", "a3", "b1"}
    assert rows["a1"][2] == "due now" and rows["a1"][3].startswith("last activity ") and "+ 1 days" in rows["a1"][3]
    assert rows["b1"][2] != "due now"  # imported just now: due tomorrow, listed, not purgeable yet
    assert rows["a1"][0] == "Dr. Ana Ruiz · Lead Developer · Contoso"  # namesakes told apart

    until = (datetime.now(UTC) + timedelta(days=10)).date().isoformat()
    dlg.select_people(["a3"])
    _reloaded(qtbot, dlg, lambda: dlg.record_consent(until))
    rows = _rows(dlg)
    assert rows["a3"][2] != "due now" and rows["a3"][3] == f"consent to keep until {until} ends"
    assert rows["a3"][5] == until

    asked: list[str] = []
    answer = {"value": QMessageBox.StandardButton.No}

    def question(_parent, _title, text, *_a, **_k):
        asked.append(text)
        return answer["value"]

    monkeypatch.setattr(QMessageBox, "question", question)
    dlg.select_people(["a1", "a3", "b1"])
    assert dlg.purge_btn.isEnabled()
    dlg.purge_btn.click()  # cancelled: nothing changes
    assert len(asked) == 1 and asked[0].startswith("Purge 1 person(s) (1 document(s))?")
    assert "2 selected person(s) not due yet are left out" in asked[0]
    assert "cancelled" in dlg.message.text() and dlg.last_purge is None
    assert {p["id"] for p in services.people.list_people()} == {"a1", "a3", "b1"}

    answer["value"] = QMessageBox.StandardButton.Yes
    with qtbot.waitSignal(dlg.purged, timeout=WAIT) as purged:
        dlg.purge_btn.click()
    assert purged.args[0]["purged"] == 1 and len(asked) == 2
    qtbot.waitUntil(lambda: "a1" not in _rows(dlg), timeout=WAIT)
    assert dlg.message.text().startswith("Purged 1 person(s), 1 document(s).")
    assert {p["id"] for p in services.people.list_people()} == {"a3", "b1"}
    qtbot.waitUntil(lambda: window.candidates.model.rowCount() == 2, timeout=WAIT)  # the table reloaded

    dlg.select_people(["a3"])
    assert dlg.withdraw_btn.isEnabled() and not dlg.purge_btn.isEnabled()
    _reloaded(qtbot, dlg, dlg.withdraw_btn.click)
    assert _rows(dlg)["a3"][2] == "due now" and _rows(dlg)["a3"][5] == ""
    dlg.close()


def test_retention_dialog_shows_pseudonyms_in_blind_mode(window, services, qtbot):
    _library(services)
    services.compliance.set_retention("custom", 30)
    window.blind.set_enabled(True)
    dlg = window.open_retention()
    qtbot.waitUntil(lambda: dlg.due is not None, timeout=WAIT)
    names = {pid: cells[0] for pid, cells in _rows(dlg).items()}
    assert names == {pid: pseudonym(pid) for pid in ("a1", "a3", "b1")}
    shown = " ".join(" ".join(cells) for cells in _rows(dlg).values())
    assert "Ana" not in shown and "Ben" not in shown
    dlg.close()


def test_export_everything_about_a_person_from_the_context_menu(window, services, qtbot, monkeypatch, tmp_path):
    from cvrag_desktop.ui.shell.main_window import CANDIDATES

    _library(services)
    pane = window.candidates
    window.show_pane(CANDIDATES)
    pane.reload()
    qtbot.waitUntil(lambda: pane.model.rowCount() == 3, timeout=WAIT)
    assert pane.select_candidate("b1")
    qtbot.waitUntil(lambda: pane.current_id == "b1", timeout=WAIT)
    out = tmp_path / "ben-access.zip"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(out), "Zip (*.zip)"))
    menus: list[QMenu] = []
    monkeypatch.setattr(QMenu, "popup", lambda self, *_a: menus.append(self))
    pane._context_menu(QPoint(1, 1))
    action = next(a for a in menus[0].actions() if a.text() == "Export everything about this person…")
    assert action.isEnabled()
    action.trigger()
    qtbot.waitUntil(lambda: getattr(pane, "last_subject_export", None) is not None, timeout=WAIT)
    report = pane.last_subject_export
    assert report["documents"] == 1 and report["originals"] == 1
    with zipfile.ZipFile(out) as z:
        names = z.namelist()
        assert "subject.json" in names and "summary.html" in names
        assert any(n.startswith("originals/") for n in names)
        assert "Ben Okafor" in z.read("subject.json").decode("utf-8")
    text = pane.message.text()
    assert "Ben Okafor" in text and "1 document(s), 1 original file(s)" in text
    assert f"{report['audit_entries']} audit entries" in text
