"""Import messages name the user's own file (never the library's ``<sha256>.pdf``); "Retry failed"
is enabled only when something failed."""

from __future__ import annotations

from cvrag_desktop.ui.models.import_queue import own_file_message

SHA = "13e7fdab0c1d2e3f4a5b6c7d8e9f00112233445566778899aabbccddeeff0011"


def test_messages_name_the_users_file():
    lib = f"/home/u/.local/share/cvrag/library/{SHA}.pdf"
    assert own_file_message(f"{lib} is not a PDF (bad header)", "/cvs/Jane Roe CV.pdf") == \
        "Jane Roe CV.pdf is not a PDF (bad header)"
    assert own_file_message("13e7fdab….pdf is not a PDF", "C:\\CVs\\cv.pdf") == "cv.pdf is not a PDF"
    assert own_file_message(f'cannot open "{SHA[:32]}.docx"', "/x/y.docx") == 'cannot open "y.docx"'
    assert own_file_message("my-cv-2020.pdf has no pages", "/x/my-cv-2020.pdf") == "my-cv-2020.pdf has no pages"


def test_retry_failed_only_when_something_failed(window, qtbot, tmp_path):
    pane = window.importer
    assert not pane.retry_btn.isEnabled() and "No file failed" in pane.retry_btn.toolTip()
    broken = tmp_path / "Broken CV.pdf"
    broken.write_bytes(b"this is not a PDF at all")
    with qtbot.waitSignal(pane.batch_finished, timeout=300_000):
        pane.import_paths([broken])
    assert pane.model.failed_paths() == [str(broken)]
    qtbot.waitUntil(pane.retry_btn.isEnabled, timeout=30_000)  # once the batch's task has finished too
    error = pane.model.index(0, 5).data()
    assert "Broken CV.pdf" in error and SHA[:6] not in error
    # an error that names the library copy is shown with the user's file name
    pane.model.update(str(broken), status="unreadable", error=f"{window.services.paths.library_dir}/{SHA}.pdf "
                      "is damaged")
    assert pane.model.index(0, 5).data() == "Broken CV.pdf is damaged"
    assert str(window.services.paths.library_dir) not in (pane.model.index(0, 5).data(3) or "")
    pane.model.drop_failed()
    assert not pane.retry_btn.isEnabled()


def test_skipped_files_are_counted_and_never_retried(window, qtbot, tmp_path):
    """A folder's hidden file and Word lock file show as "Skipped" rows with their reason and in the
    summary (issue 22, 9g); they are not failures, so "Retry failed" stays off."""
    from tests.support.fault_cvs import write_cv

    pane = window.importer
    folder = tmp_path / "inbox"
    write_cv(folder, "good")
    (folder / ".hidden.pdf").write_bytes((folder / "good.pdf").read_bytes())
    (folder / "~$draft.docx").write_bytes(b"lock")
    with qtbot.waitSignal(pane.batch_finished, timeout=300_000):
        pane.import_paths([folder])
    assert pane.model.counts().get("skipped") == 2, pane.model.counts()
    assert ", skipped 2 in" in pane.progress_label.text()
    rows = {pane.model.index(r, 0).data(3): r for r in range(pane.model.rowCount())}
    hidden = rows[str(folder / ".hidden.pdf")]
    assert pane.model.index(hidden, 1).data() == "Skipped" and "hidden" in pane.model.index(hidden, 5).data()
    assert pane.model.failed_paths() == []
    assert "skipped" in pane.message.text() and pane.message.kind == "info"
    qtbot.waitUntil(lambda: not pane.busy, timeout=30_000)
    assert not pane.retry_btn.isEnabled()


def test_imported_with_a_note_is_not_shown_as_clean(qtbot):
    """A file imported whole is green "Imported"; one imported with a note (a long scan's first pages only)
    reads "Imported, see note" in amber with the note beside it; a file changed while read has its label."""
    from cvrag_desktop.ui.models.import_queue import ImportQueueModel

    model = ImportQueueModel()
    model.add_paths(["/in/whole.pdf", "/in/scan.pdf", "/in/saving.pdf"])
    model.update("/in/whole.pdf", status="done")
    model.update("/in/scan.pdf", status="done", error="OCR read the first 10 of 100 pages; the rest is not searchable.")
    model.update("/in/saving.pdf", status="changed", error="saving.pdf changed while being imported.")
    tint = [model.index(r, 1).data(8).color() for r in range(3)]  # BackgroundRole
    assert [model.index(r, 1).data() for r in range(3)] == ["Imported", "Imported, see note", "Changed while read"]
    assert tint[0] != tint[1] and "first 10 of 100" in model.index(1, 5).data()
    assert model.failed_paths() == ["/in/saving.pdf"]  # worth a retry once it is saved
