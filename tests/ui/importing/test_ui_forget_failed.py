"""Import pane: "Forget failed…" clears failed imports (rows and stored copies); hostile file names are shown inert."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from cvrag_desktop.ui.shell.main_window import IMPORT
from tests.support.fault_cvs import write_cv
from tests.ui.conftest import wait_idle


def test_forget_failed_button_and_escaped_names(qtbot, window, tmp_path):
    pane = window.importer
    folder = tmp_path / "in"
    write_cv(folder, "good")
    bad = folder / "evil\x1b[31mred\nline.pdf"
    bad.write_bytes(b"%PDF-1.4\n not really a pdf " * 10)
    window.show_pane(IMPORT)
    pane.import_paths([folder])
    qtbot.waitUntil(lambda: pane.last_report is not None and not pane.busy, timeout=300_000)
    failed = window.services.library.failed_files()
    assert len(failed) == 1
    texts = [pane.model.data(pane.model.index(r, 0), Qt.ItemDataRole.DisplayRole) for r in range(pane.model.rowCount())]
    assert any("evil\\x1b[31mred\\nline.pdf" in t for t in texts), texts
    assert not any("\x1b" in t or "\n" in t for t in texts)
    stored = [Path(f["stored_path"]) for f in failed if f["stored_path"]]
    pane.confirm = lambda *_a: True
    with qtbot.waitSignal(pane.forgot_failed, timeout=60_000) as sig:
        pane.forget_failed_btn.click()
    wait_idle(qtbot, window, "import")
    assert len(sig.args[0]["files"]) == 1
    assert window.services.library.failed_files() == []
    assert not any(p.exists() for p in stored)
    assert "Forgot 1 failed import" in pane.message.text()
    assert len(window.services.people.list_candidates()) == 1


def test_forget_failed_is_disabled_until_something_failed(qtbot, window, tmp_path):
    pane = window.importer
    assert not pane.forget_failed_btn.isEnabled()  # a fresh library: nothing to forget
    good = tmp_path / "good"
    write_cv(good, "fine")
    pane.import_paths([good])
    qtbot.waitUntil(lambda: pane.last_report is not None and not pane.busy, timeout=300_000)
    wait_idle(qtbot, window, "import-failed-count")
    assert not pane.forget_failed_btn.isEnabled()  # everything imported
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "broken.pdf").write_bytes(b"%PDF-1.4\n not really a pdf " * 10)
    pane.last_report = None
    pane.import_paths([bad])
    qtbot.waitUntil(lambda: pane.last_report is not None and not pane.busy, timeout=300_000)
    qtbot.waitUntil(pane.forget_failed_btn.isEnabled, timeout=30_000)
    pane.model.drop_failed()  # the queue forgets its rows; the catalog still has the failure
    wait_idle(qtbot, window, "import-failed-count")
    assert pane.forget_failed_btn.isEnabled()
