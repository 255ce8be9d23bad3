"""The import queue table: one row per file with its status, candidate, pages, time and error."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from cvrag_desktop.app.output import safe

STATUS_LABELS = {
    "listed": "Waiting",
    "queued": "Queued",
    "processing": "Reading",
    "done": "Imported",
    "duplicate": "Duplicate",
    "needs_ocr": "Needs OCR",
    "encrypted": "Encrypted",
    "too_large": "Too large",
    "unreadable": "Unreadable",
    "unsupported": "Unsupported",
    "no_content": "No CV content",
    "missing": "Missing",
    "failed": "Failed",
    "cancelled": "Cancelled",
    "skipped": "Skipped",
    "changed": "Changed while read",
}
PENDING = {"listed", "queued", "processing", "cancelled"}
OK = {"done", "duplicate"}
SKIPPED = "skipped"  # hidden files, Word lock files: said, not imported, and not worth a retry
COLUMNS = ("File", "Status", "Candidate", "Pages", "Time", "Error")
_TINTS = {"ok": QColor(40, 160, 80, 50), "warn": QColor(230, 170, 0, 60), "bad": QColor(220, 40, 60, 50)}
_WARN = {"duplicate", "needs_ocr", "encrypted", "too_large", SKIPPED}


# the library's content-addressed copy ("<sha256>.pdf", possibly with its folder, possibly shortened "…")
_LIBRARY_NAME = re.compile(r"(?:[^\s\"'“”‘’()<>]*[/\\])?(?:[0-9a-f]{12,64}|[0-9a-f]{6,}(?:…|\.\.\.)[0-9a-f]*)"
                           r"\.(?:pdf|docx)\b", re.IGNORECASE)


def own_file_message(text: str, user_path: str | None) -> str:
    """An error message that names the user's file instead of the library's internal copy.

    The pipeline parses the content-addressed copy (``<library>/<sha256>.pdf``), so an
    extractor's message may name it; the recruiter only knows the file they dropped.
    """
    if not text:
        return text
    name = user_path.replace("\\", "/").rsplit("/", 1)[-1] if user_path else "the CV file"
    return _LIBRARY_NAME.sub(lambda _m: name, text)


def phase_label(phase: str | None, step: int | None = None, steps: int | None = None) -> str:
    """What a file being worked on is doing: "Reading", "Waiting for OCR", "OCR page 2/5", "Indexing"."""
    if phase == "ocr_wait":
        return "Waiting for OCR" + (f" ({steps} page{'s' if steps != 1 else ''})" if steps else "")
    if phase == "ocr":
        return f"OCR page {step}/{steps}" if step and steps else "OCR…"
    if phase == "indexing":
        return "Indexing"
    return "Reading"


def status_label(status: str) -> str:
    """A human label for a pipeline status code."""
    return STATUS_LABELS.get(status, status.replace("_", " ").capitalize())


def is_failure(status: str) -> bool:
    """True for statuses that "Retry failed" should try again."""
    return status not in PENDING and status not in OK and status != SKIPPED


@dataclass
class QueueRow:
    """One file of the import queue."""

    path: str
    status: str = "listed"
    candidate: str = ""
    pages: int | None = None
    seconds: float | None = None
    error: str = ""
    started: float | None = None  # epoch seconds, while a worker reads it
    phase: str | None = None  # while processing: reading | ocr_wait | ocr | indexing (pipeline phase events)
    step: int | None = None
    steps: int | None = None


class ImportQueueModel(QAbstractTableModel):
    """Rows keyed by the file's path as the pipeline reports it."""

    StatusRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[QueueRow] = []
        self._by_path: dict[str, int] = {}

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        """Number of files."""
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        """File, status, candidate, pages, time, error."""
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        """Column titles."""
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        """Cell text, tooltips, status tints; ``StatusRole`` gives the raw status code."""
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        col = index.column()
        if role == self.StatusRole:
            return row.status
        if role == Qt.ItemDataRole.DisplayRole:
            return safe(self._display(row, col))  # file names are someone else's: no control characters
        if role == Qt.ItemDataRole.ToolTipRole:
            return safe(row.path) if col == 0 else (safe(row.error) if row.error else None)
        if role == Qt.ItemDataRole.BackgroundRole and col == 1:
            kind = ("warn" if row.error else "ok") if row.status == "done" else "warn" if row.status in _WARN else (
                "bad" if is_failure(row.status) else None)
            return QBrush(_TINTS[kind]) if kind else None
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (3, 4):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    @staticmethod
    def _display(row: QueueRow, col: int) -> str:
        if col == 0:
            return row.path.replace("\\", "/").rsplit("/", 1)[-1]
        if col == 1:
            if row.status == "processing" and row.phase:
                return phase_label(row.phase, row.step, row.steps)
            if row.status == "done" and row.error:  # imported, not whole (OCR page budget, invisible text)
                return "Imported, see note"
            return status_label(row.status)
        if col == 2:
            return row.candidate
        if col == 3:
            return "" if row.pages is None else str(row.pages)
        if col == 4:
            if row.status == "processing" and row.started:
                return f"{max(0.0, time.time() - row.started):.0f} s…"
            return "" if row.seconds is None else f"{row.seconds:.1f} s"
        return row.error

    # ---- updates -----------------------------------------------------------------------
    def add_paths(self, paths: list[str], status: str = "listed") -> None:
        """Append files not yet in the table; reset known ones to ``status``."""
        new = [p for p in dict.fromkeys(paths) if p not in self._by_path]
        for p in paths:
            if p in self._by_path:
                self.update(p, status=status, error="", seconds=None)
        if not new:
            return
        first = len(self.rows)
        self.beginInsertRows(QModelIndex(), first, first + len(new) - 1)
        for i, p in enumerate(new):
            self._by_path[p] = first + i
            self.rows.append(QueueRow(path=p, status=status))
        self.endInsertRows()

    def update(self, path: str, **fields) -> None:
        """Change a file's row (added if unknown)."""
        idx = self._by_path.get(path)
        if idx is None:
            self.add_paths([path])
            idx = self._by_path[path]
        row = self.rows[idx]
        if fields.get("error"):
            fields["error"] = own_file_message(str(fields["error"]), row.path)
        for k, v in fields.items():
            setattr(row, k, "" if v is None and k in ("candidate", "error") else v)
        self.dataChanged.emit(self.index(idx, 0), self.index(idx, len(COLUMNS) - 1))

    def set_phase(self, path: str, phase: str, step: int | None = None, steps: int | None = None) -> None:
        """A pipeline phase event: the file is being read, waits for OCR, is OCR'd (page n/m) or indexed."""
        idx = self._by_path.get(path)
        if idx is None:
            self.add_paths([path])
            idx = self._by_path[path]
        row = self.rows[idx]
        if row.status not in ("listed", "queued", "processing"):
            return  # a late event for a file already finished
        row.status, row.phase, row.step, row.steps = "processing", phase, step, steps
        if row.started is None:
            row.started = time.time()
        self.dataChanged.emit(self.index(idx, 1), self.index(idx, 4))

    def set_running(self, started: dict[str, float]) -> None:
        """Mark the files a worker holds now as reading (with their start time); others keep their status.

        Only the rows that changed, and the time cells of the rows being read, are repainted.
        """
        touched: list[int] = []
        for path, t in started.items():
            idx = self._by_path.get(path)
            if idx is not None and self.rows[idx].status in ("listed", "queued", "processing"):
                self.rows[idx].status, self.rows[idx].started = "processing", t
                touched.append(idx)
        for i, r in enumerate(self.rows):
            if r.status == "processing" and r.path not in started and not r.phase:
                r.status, r.started = "queued", None  # handed back (cancel) or never really started
                touched.append(i)
        for i in touched:
            self.dataChanged.emit(self.index(i, 1), self.index(i, 4))

    def mark_pending_as(self, status: str) -> None:
        """After a cancel: files that never ran show ``status``."""
        for r in self.rows:
            if r.status in ("listed", "queued", "processing"):
                r.status = status
        if self.rows:
            self.dataChanged.emit(self.index(0, 1), self.index(len(self.rows) - 1, 1))

    def failed_paths(self) -> list[str]:
        """Files whose import failed (candidates for "Retry failed")."""
        return [r.path for r in self.rows if is_failure(r.status)]

    def pending_paths(self) -> list[str]:
        """Files still waiting (including cancelled ones)."""
        return [r.path for r in self.rows if r.status in PENDING]

    def status_of(self, path: str) -> str | None:
        """The current status code of a file, if listed."""
        idx = self._by_path.get(path)
        return None if idx is None else self.rows[idx].status

    def counts(self) -> dict[str, int]:
        """status -> number of files."""
        out: dict[str, int] = {}
        for r in self.rows:
            out[r.status] = out.get(r.status, 0) + 1
        return out

    def drop_failed(self) -> None:
        """Drop the rows of failed files (after they were forgotten)."""
        self.beginResetModel()
        self.rows = [r for r in self.rows if not is_failure(r.status)]
        self._by_path = {r.path: i for i, r in enumerate(self.rows)}
        self.endResetModel()

    def clear_finished(self) -> None:
        """Drop imported and duplicate rows (keeps failures and pending files visible)."""
        self.beginResetModel()
        self.rows = [r for r in self.rows if r.status not in OK]
        self._by_path = {r.path: i for i, r in enumerate(self.rows)}
        self.endResetModel()
