"""Which files an import takes: a batch never ends as "ingested 0, skipped 0" without a reason."""

from __future__ import annotations

from pathlib import Path

from cvrag_desktop.ingestion.discover import FOLDER_LINK, NOTHING_HERE, discover


def _touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"%PDF-1.4\n")
    return path


def test_a_folder_whose_only_entry_is_a_folder_link_says_why_nothing_was_taken(tmp_path):
    target = tmp_path / "elsewhere"
    _touch(target / "cv.pdf")
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    (chosen / "sub").symlink_to(target, target_is_directory=True)
    files, skipped = discover([chosen])
    assert files == []
    assert (chosen / "sub", FOLDER_LINK) in skipped


def test_an_empty_folder_is_reported_with_a_reason(tmp_path):
    empty = tmp_path / "empty"
    (empty / "notes").mkdir(parents=True)
    (empty / "notes" / "todo.txt").write_text("not a CV")
    files, skipped = discover([empty])
    assert files == [] and skipped == [(empty, NOTHING_HERE)]


def test_documents_hidden_and_lock_files_are_sorted_as_before(tmp_path):
    folder = tmp_path / "inbox"
    cv = _touch(folder / "a" / "cv.pdf")
    word = _touch(folder / "b.DOCX")
    _touch(folder / ".hidden.pdf")
    _touch(folder / "~$lock.docx")
    files, skipped = discover([folder, cv])  # the same file twice counts once
    assert files == [cv, word]
    assert sorted(p.name for p, _ in skipped) == [".hidden.pdf", "~$lock.docx"]
    assert all(reason != NOTHING_HERE for _, reason in skipped)
