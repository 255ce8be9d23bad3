"""Import pane: drag-and-drop of real CVs with visible problem statuses, retry, cancel and resume."""

from __future__ import annotations

import shutil

import pymupdf
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDropEvent

from cvrag_desktop.ui.panes.import_pane import format_eta, list_import_files
from cvrag_desktop.ui.shell.main_window import MainWindow

STRESS = "rendercv_test_classic_full.pdf"  # the long stress fixture


def _encrypted_pdf(path) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Jane Roe\njane@example.com\nExperience")
    doc.save(str(path), encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")
    doc.close()


def _drop(pane, paths) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(QPoint(5, 5), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    pane.dropEvent(event)


def _status(pane, name: str) -> str:
    return next(r.status for r in pane.model.rows if r.path.endswith(name))


def test_drop_real_cvs_shows_statuses_and_retry(window, qtbot, real_cvs_dir, tmp_path):
    folder = tmp_path / "drop"
    shutil.copytree(real_cvs_dir / "pdf", folder)
    copy = tmp_path / "zz_altacv_copy.pdf"  # same content as one in the folder → duplicate
    shutil.copy(folder / "altacv_sample.pdf", copy)
    _encrypted_pdf(folder / "locked.pdf")
    pages = {p.name: pymupdf.open(p).page_count for p in folder.glob("*.pdf") if p.name != "locked.pdf"}
    longest = max(pages, key=pages.get)
    svc = window.services
    svc.settings = svc.settings.model_copy(update={"ocr_enabled": False})  # image-only → needs_ocr
    svc.settings.limits.max_pages = pages[longest] - 1  # the longest PDF → too_large
    pane = window.importer
    with qtbot.waitSignal(pane.batch_finished, timeout=300_000):
        _drop(pane, [folder])
    assert pane.model.rowCount() == len(list(folder.glob("*.pdf")))
    problems_message = pane.message.text()
    assert _status(pane, "DERIVED_imageonly_rendercv_classic_johndoe.pdf") == "needs_ocr"
    assert _status(pane, "locked.pdf") == "encrypted"
    assert _status(pane, longest) == "too_large"
    assert _status(pane, "altacv_sample.pdf") == "done"
    with qtbot.waitSignal(pane.batch_finished, timeout=300_000):
        _drop(pane, [copy])
    assert _status(pane, "zz_altacv_copy.pdf") == "duplicate"
    labels = {pane.model.index(i, 1).data() for i in range(pane.model.rowCount())}
    assert {"Needs OCR", "Encrypted", "Too large", "Duplicate", "Imported"} <= labels
    done = [r for r in pane.model.rows if r.status == "done"]
    assert len(done) >= 12 and all(r.pages and r.seconds is not None for r in done)
    assert "Retry failed" in problems_message
    # retry: lift the page limit; the too-large file now imports, the encrypted one still fails
    svc.settings.limits.max_pages = 200
    with qtbot.waitSignal(pane.batch_finished, timeout=300_000):
        pane.retry_btn.click()
    assert _status(pane, longest) == "done"
    assert _status(pane, "locked.pdf") == "encrypted"
    qtbot.waitUntil(lambda: window.candidates.model.rowCount() == len(svc.people.list_people()), timeout=30_000)


def test_cancel_then_reopen_resumes(qtbot, services, generated_cvs):
    win = MainWindow(services)
    qtbot.addWidget(win)
    win.show()
    pane = win.importer
    files = list_import_files([generated_cvs])
    cancelled = []

    def cancel_after_first(obj) -> None:
        if not isinstance(obj, tuple) and not cancelled:
            cancelled.append(obj)
            pane.cancel()

    with qtbot.waitSignal(pane.batch_finished, timeout=300_000) as blocker:
        pane.import_paths([generated_cvs])
        w = pane.runner._current["import"]
        w.signals.item.connect(cancel_after_first)
    assert blocker.args[0] is None  # cancelled
    left = [r for r in pane.model.rows if r.status == "cancelled"]
    assert left, "the import finished before the cancel took effect"
    win.close()
    assert win.runner.wait(20_000)
    pending = [f for f in services.library.files() if f["status"] in ("queued", "processing")]
    assert pending
    # reopen: the interrupted files are resumed without the user doing anything
    again = MainWindow(services)
    qtbot.addWidget(again)
    again.show()
    with qtbot.waitSignal(again.importer.batch_finished, timeout=300_000) as blocker:
        again.start()
    report = blocker.args[0]
    assert report is not None and report.ingested == len(pending)
    assert "Resuming" in again.importer.message.text()
    assert not [f for f in services.library.files() if f["status"] in ("queued", "processing")]
    assert len(services.people.list_candidates()) == len(files)
    again.close()
    again.runner.wait(20_000)


def test_eta_format():
    assert format_eta(None) == "" and format_eta(5) == "0:05" and format_eta(3725) == "1:02:05"
