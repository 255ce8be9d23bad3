"""Blind screening on the real CVs: every identifying value the parser found for a candidate (its
provenance: name, e-mails, phones, location, links) is absent from the table, from that candidate's
detail, from the CSV export and from a chat answer, and every boxed one is painted over in the preview.
Nothing of the CVs is printed: a failure names the field and the candidate id, never the value."""

from __future__ import annotations

import re
import shutil

import pytest
from PySide6.QtCore import Qt

from cvrag_desktop.catalog.privacy.blind import IDENTIFYING_FIELDS, pseudonym


def _secrets(record: dict) -> list[tuple[str, str]]:
    """(field, value) of every identifying value of one document: its provenance and its own fields."""
    found: set[tuple[str, str]] = set()
    for p in record.get("provenance") or []:
        field = str(p.get("field") or "").split(".")[0].split("[")[0]
        if field in IDENTIFYING_FIELDS and str(p.get("value") or "").strip():
            found.add((field, str(p["value"]).strip()))
    if record.get("name"):
        found.add(("name", record["name"].strip()))
    for key in ("emails", "phones"):
        found.update((key, str(v).strip()) for v in record.get(key) or [] if str(v).strip())
    return [(f, v) for f, v in found if len(v) >= 4]


def _leaked(text: str, secrets: list[tuple[str, str]]) -> list[str]:
    """The fields whose value occurs in ``text`` (whole words, case-insensitive)."""
    low = text.casefold()
    return sorted({f for f, v in secrets if re.search(rf"(?<!\w){re.escape(v.casefold())}(?!\w)", low)})


@pytest.fixture
def real_blind(qtbot, services, real_cvs_dir, tmp_path, monkeypatch):
    """The real CVs with a text layer imported (OCR off: the scanned one is not needed) and indexed."""
    from tests.ui.conftest import close_window, open_window

    monkeypatch.setenv("CVRAG_DISABLE_OCR", "1")
    folder = tmp_path / "cvs"
    shutil.copytree(real_cvs_dir / "pdf", folder)
    report = services.library.ingest([folder], use_llm=False)
    assert report.ingested >= 12, report.failed
    win = open_window(qtbot, services)
    yield win
    close_window(win)


def test_blind_mode_hides_what_provenance_names_on_the_real_cvs(real_blind, qtbot, tmp_path):
    from cvrag_desktop.catalog.privacy.blind import redaction_boxes
    from cvrag_desktop.ui.shell.main_window import CANDIDATES

    win, svc = real_blind, real_blind.services
    records = {c["id"]: svc.people.get_candidate(c["id"]) for c in svc.people.list_candidates()}
    secrets = {cid: _secrets(rec) for cid, rec in records.items()}
    everyone = [s for ss in secrets.values() for s in ss]
    assert sum(1 for ss in secrets.values() if any(f == "name" for f, _v in ss)) >= 12  # the check has teeth
    win.show_pane(CANDIDATES)
    pane = win.candidates
    qtbot.waitUntil(lambda: pane.model.rowCount() > 0, timeout=30_000)
    with qtbot.waitSignal(pane.loaded, timeout=30_000):
        win.blind.action.setChecked(True)
    m = pane.model
    table = "\n".join(str(m.data(m.index(r, c), role) or "") for r in range(m.rowCount())
                      for c in range(m.columnCount()) for role in (Qt.ItemDataRole.DisplayRole,
                                                                    Qt.ItemDataRole.ToolTipRole))
    assert _leaked(table, everyone) == []
    # each person's detail and preview boxes
    for row in m.rows():
        pid, docs = row["id"], row.get("document_ids") or [row["id"]]
        assert pane.select_candidate(pid)
        qtbot.waitUntil(lambda ids={pid, *docs}: (pane.detail.record or {}).get("id") in ids, timeout=30_000)
        qtbot.waitUntil(lambda: not win.runner.busy("candidate-detail"), timeout=30_000)
        shown = pane.detail.record["id"]
        text = pane.detail.toPlainText() + repr(pane.detail.record) + repr(pane.detail.documents)
        mine = [s for d in docs for s in secrets.get(d, [])]
        assert _leaked(text, mine) == [], pid
        assert pseudonym(pid) in pane.detail.toPlainText()
        want = set(redaction_boxes(records[shown].get("provenance") or []))
        assert want <= set(pane.preview.redactions), (pid, len(want), len(pane.preview.redactions))
    # the CSV export
    out = tmp_path / "blind.csv"
    with qtbot.waitSignal(pane.exported, timeout=30_000):
        pane.export_view(out)
    assert _leaked(out.read_text(encoding="utf-8-sig"), everyone) == []
    # a chat answer (deterministic) and its citations
    from cvrag_desktop.ui.shell.main_window import CHAT

    win.show_pane(CHAT)
    with qtbot.waitSignal(win.chat.answered, timeout=60_000) as got:
        win.chat.ask("Who has worked with Python?")
    result = got.args[0]
    assert result.get("citations"), result.get("status")
    names_and_contacts = [(f, v) for f, v in everyone if f in ("name", "emails", "phones")]
    assert _leaked(repr(result), names_and_contacts) == []
