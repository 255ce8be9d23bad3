"""The candidate table: one row per person, a model of ids behind a filtering/sorting proxy.

:class:`CandidateTableModel` holds person ids (each the id of the person's newest
document) in catalog order; the rows are fetched through ``services.list_people`` in a
worker and kept in a cache, and the display values of a row are derived on first access.
A row shows the newest document's fields and how many documents the person has.
:class:`CandidateFilterProxy` applies the facets (skills, years, degree, language,
employer) to those newest fields, and the text or search restriction and the shortlist
view to *any* of the person's documents (``models/candidate_filter.py``). Sorting is
done here, one key per row (numeric where it matters), and the proxy keeps this order.
"""

from __future__ import annotations

import datetime as dt
import re

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QStyle

from cvrag_desktop.app.output import safe
from cvrag_desktop.app.rules import STATUS_LABELS, STATUSES, row_pseudonym
from cvrag_desktop.ui.demo import is_demo
from cvrag_desktop.ui.ranking import PersonHit

COLUMNS: tuple[tuple[str, str], ...] = (
    ("Name", "name"), ("Current title", "current_title"), ("Company", "current_company"),
    ("Years", "years_of_experience"), ("Top skills", "skills"), ("Highest degree", "highest_degree"),
    ("Languages", "languages"), ("Imported", "imported_at"), ("Documents", "documents"),
    ("Relevance", "relevance"), ("Best match", "snippet"), ("Status", "status"), ("Rating", "rating"),
    ("Tags", "tags"),
)
NAME_COL, SKILLS_COL, IMPORTED_COL, DOCS_COL, REL_COL, SNIPPET_COL = 0, 4, 7, 8, 9, 10
STATUS_COL, RATING_COL, TAGS_COL = 11, 12, 13
SEARCH_COLS = (REL_COL, SNIPPET_COL)
CHECKED_COLS = {0: "name", 1: "current_title", 2: "current_company"}  # cells marked when their value is low-confidence
STATUS_ORDER = {s: i for i, s in enumerate(STATUSES)}
TOP_SKILLS = 5
DEGREE_LEVELS = (  # (level, pattern) checked from the highest down
    (4, re.compile(r"\b(ph\.?\s?d|doctor|doctorate|dr\.|doktor|doctorado|dottorato|博士)", re.I)),
    (3, re.compile(r"\b(master|m\.?sc|m\.?s\.|m\.?a\.|mba|m\.?eng|máster|magister|diplom|laurea magistrale|"
                   r"mestrado|修士|硕士)", re.I)),
    (2, re.compile(r"\b(bachelor|b\.?sc|b\.?s\.|b\.?a\.|b\.?eng|grado|licenciatura|licence|laurea|"
                   r"bacharelado|学士|本科)", re.I)),
)
LEVEL_NAMES = {0: "", 1: "Other", 2: "Bachelor", 3: "Master", 4: "Doctorate"}


def degree_level(degree: str) -> int:
    """0 none, 1 other, 2 bachelor, 3 master, 4 doctorate — recognised across the supported languages."""
    if not degree:
        return 0
    for level, pattern in DEGREE_LEVELS:
        if pattern.search(degree):
            return level
    return 1


def highest_degree(degrees: list[str]) -> tuple[int, str]:
    """The highest-level degree of a candidate and its level."""
    best = (0, "")
    for d in degrees or []:
        lvl = degree_level(d)
        if lvl > best[0]:
            best = (lvl, d)
    return best


def stars(rating: int | None) -> str:
    """"★★★☆☆" for 3, "" for none."""
    return "" if not rating else "★" * rating + "☆" * (5 - rating)


def documents_text(count: int) -> str:
    """"1 document", "2 documents"."""
    return f"{count} document{'s' if count != 1 else ''}"


def _search_text(row: dict) -> str:
    parts = [row.get("name"), row.get("current_title"), row.get("current_company"), row.get("location"),
             *(row.get("skills") or []), *(row.get("companies") or []), *(row.get("degrees") or []),
             *(row.get("languages") or []), *(row.get("institutions") or [])]
    return " ".join(str(p) for p in parts if p).casefold()


def enrich_row(row: dict, imported_at: float | None = None) -> dict:
    """Add the derived display fields (highest degree, import time, search text, documents) to a row.

    A person row (``services.people.list_people(with_documents=True)``) searches the text of all
    its documents; a plain candidate row counts as a person with one document.
    """
    lvl, deg = highest_degree(row.get("degrees") or [])
    if "degree_rank" in row:  # the core's decision (text.rules.degree_rank): expected degrees are not held
        lvl, deg = row["degree_rank"], row.get("held_degree") or ""
    out = dict(row)
    out["highest_degree"] = deg
    out["degree_level"] = lvl
    out["imported_at"] = imported_at
    docs = row.get("document_rows") or [row]
    out["_text"] = " ".join(_search_text(d) for d in docs)
    out.setdefault("document_ids", [row["id"]])
    out.setdefault("documents", len(out["document_ids"]))
    set_screening(out, row.get("screening") or {})
    return out


def set_screening(row: dict, state: dict) -> None:
    """Copy a person's screening state (``services.screening_of``) into its table row."""
    row["status"] = state.get("status") or "new"
    row["rating"] = state.get("rating")
    row["tags"] = list(state.get("tags") or [])
    row["screening_note"] = state.get("note") or ""
    row["status_reason"] = state.get("reason") or ""  # why the status was set (shown on the editor's status)
    base = row.get("_text", "").split("\x1f")[0]
    extra = " ".join([*row["tags"], row["screening_note"]]).casefold()
    row["_text"] = f"{base}\x1f{extra}" if extra else base


class CandidateTableModel(QAbstractTableModel):
    """Candidate ids in catalog order; rows come from a cache filled by a worker."""

    IdRole = Qt.ItemDataRole.UserRole + 1
    SortRole = Qt.ItemDataRole.UserRole + 2
    RelevanceRole = Qt.ItemDataRole.UserRole + 3  # 0–1 relative score, None when not a search hit
    HtmlRole = Qt.ItemDataRole.UserRole + 4  # the best passage with the terms in bold
    CheckRole = Qt.ItemDataRole.UserRole + 5  # "Check: <reason>" for a low-confidence value, else None
    _check_icon: QIcon | None = None

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.ids: list[str] = []
        self._rows: dict[str, dict] = {}
        self._display: dict[str, list[str]] = {}
        self._owner: dict[str, str] | None = None
        self.ranking: dict[str, PersonHit] = {}
        self._sort: tuple[int, Qt.SortOrder] = (-1, Qt.SortOrder.AscendingOrder)
        self._covered = (False, False)  # (rows, search snippets) shown covered until replaced (blind screening)

    def cover_identity(self) -> None:
        """Blind screening switched on: show pseudonyms, no snippets and no notes at once, until the redacted
        rows (:meth:`set_rows`) and search (:meth:`set_ranking`) come from their workers."""
        self._covered = (True, True)
        if self.ids:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.ids) - 1, len(COLUMNS) - 1))

    def set_ranking(self, ranked: list[PersonHit] | None) -> None:
        """Show a search's relevance and best passage per person (None clears them)."""
        self.ranking = {p.person_id: p for p in ranked or []}
        self._covered = (self._covered[0], False)
        if self.ids:
            for col in SEARCH_COLS:
                self.dataChanged.emit(self.index(0, col), self.index(len(self.ids) - 1, col))
        if self._sort[0] in SEARCH_COLS:
            self._apply_sort()

    def update_screening(self, states: dict[str, dict]) -> None:
        """Show new screening states (person id -> state) without reloading the rows."""
        position = {pid: i for i, pid in enumerate(self.ids)} if len(states) > 8 else None
        for pid, state in states.items():
            row = self._rows.get(pid)
            if row is None:
                continue
            set_screening(row, state)
            self._display.pop(pid, None)
            r = position[pid] if position is not None else self.ids.index(pid)
            self.dataChanged.emit(self.index(r, NAME_COL), self.index(r, TAGS_COL))  # the name may gain "· demo"
        if self._sort[0] in (NAME_COL, STATUS_COL, RATING_COL, TAGS_COL):
            self._apply_sort()

    # ---- sorting (here, not in the proxy: one key per row instead of two calls per comparison) ----
    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Order the rows by a column's sort key (stable); the proxy shows them in this order.

        Sorting 1,000 people through ``QSortFilterProxyModel`` costs two ``data()`` calls
        per comparison on the GUI thread (~0.15 s, at every reload); one key per row and
        Python's sort take a few milliseconds.
        """
        self._sort = (column, order)
        self._apply_sort()

    def sort_key(self, cid: str, col: int):
        """The value a column sorts by (numbers where it matters, casefolded text otherwise)."""
        if col in SEARCH_COLS:
            hit = self.ranking.get(cid)
            return -1e9 if hit is None else float(-hit.rank)
        r = self._rows[cid]
        key = COLUMNS[col][1]
        if key == "years_of_experience":
            return float(r.get(key) if r.get(key) is not None else -1)
        if key == "imported_at":
            return float(r.get(key) or 0)
        if key == "highest_degree":
            return r.get("degree_level", 0)
        if key == "documents":
            return int(r.get("documents") or 1)
        if key == "status":
            return STATUS_ORDER.get(r.get("status") or "new", 0)
        if key == "rating":
            return int(r.get("rating") or 0)
        return self._cells(cid)[col].casefold()

    def _ordered(self, ids: list[str]) -> list[str]:
        col, order = self._sort
        if col < 0 or not ids:
            return ids
        keys = {cid: self.sort_key(cid, col) for cid in ids}
        return sorted(ids, key=keys.__getitem__, reverse=order == Qt.SortOrder.DescendingOrder)

    def _apply_sort(self) -> None:
        """Re-order the rows in place, keeping selections and the current row on their people."""
        if self._sort[0] < 0 or not self.ids:
            return
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        held = [(self.ids[i.row()], i.column()) for i in old]
        self.ids = self._ordered(self.ids)
        pos = {cid: n for n, cid in enumerate(self.ids)}
        self.changePersistentIndexList(old, [self.index(pos[cid], col) for cid, col in held])
        self.layoutChanged.emit()

    def owners(self) -> dict[str, str]:
        """Document id -> person id, for every document shown (a copy a worker may read)."""
        if self._owner is None:
            self._owner = {d: pid for pid, r in self._rows.items() for d in r.get("document_ids") or [pid]}
        return dict(self._owner)

    def set_rows(self, rows: list[dict]) -> None:
        """Replace the content (rows carry ``id`` and the enriched fields)."""
        self.beginResetModel()
        self._covered = (False, self._covered[1])
        self._rows = {r["id"]: r for r in rows}
        self._display = {}
        self._owner = None
        self.ids = self._ordered([r["id"] for r in rows])
        self.endResetModel()

    def row(self, candidate_id: str) -> dict | None:
        """The cached row of a person (by person id)."""
        return self._rows.get(candidate_id)

    def person_of(self, candidate_id: str) -> str | None:
        """The person id (row id) a document belongs to."""
        if candidate_id in self._rows:
            return candidate_id
        if self._owner is None:
            self.owners()
        return (self._owner or {}).get(candidate_id)

    def rows(self) -> list[dict]:
        """All cached rows in model order."""
        return [self._rows[i] for i in self.ids]

    def row_at(self, source_row: int) -> dict:
        """The row at a source index."""
        return self._rows[self.ids[source_row]]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        """Number of candidates."""
        return 0 if parent.isValid() else len(self.ids)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        """See :data:`COLUMNS`."""
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        """Column titles."""
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section][0]
        return None

    def _cells(self, cid: str) -> list[str]:
        cells = self._display.get(cid)
        if cells is None:  # derived lazily, once per row
            r = self._rows[cid]
            years = r.get("years_of_experience")
            ts = r.get("imported_at")
            cells = [
                (r.get("name") or "(no name)") + (" · demo" if is_demo(r) else ""), r.get("current_title") or "", r.get("current_company") or "",
                "" if years is None else f"{years:g}", ", ".join((r.get("skills") or [])[:TOP_SKILLS]),
                r.get("highest_degree") or "", ", ".join(r.get("languages") or []),
                dt.datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M") if ts else "",
                documents_text(r.get("documents") or 1), "", "",
                STATUS_LABELS.get(r.get("status") or "new", ""), stars(r.get("rating")),
                ", ".join(r.get("tags") or []),
            ]
            self._display[cid] = cells
        return cells

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        """Display text, tooltips, the id (``IdRole``) and sort keys (``SortRole``)."""
        if not index.isValid():
            return None
        cid = self.ids[index.row()]
        col = index.column()
        if col in SEARCH_COLS:
            return None if self._covered[1] and role != self.SortRole else self._search_data(cid, col, role)
        tip = role == Qt.ItemDataRole.ToolTipRole and col in (NAME_COL, DOCS_COL, STATUS_COL, TAGS_COL)
        if self._covered[0] and (tip or (role == Qt.ItemDataRole.DisplayRole and col == NAME_COL)):
            return row_pseudonym(self._rows[cid]) if col == NAME_COL else None  # labels, notes: none while covered
        if role == Qt.ItemDataRole.DisplayRole:
            return safe(self._cells(cid)[col])  # names come from files: no control characters or line breaks
        if role == self.IdRole:
            return cid
        if col in CHECKED_COLS and role in (self.CheckRole, Qt.ItemDataRole.DecorationRole,
                                            Qt.ItemDataRole.ToolTipRole):
            check = self.check_text(cid, col)
            if role == self.CheckRole:
                return check
            if role == Qt.ItemDataRole.DecorationRole:
                return self.check_icon() if check else None
            tip = self._tooltip(cid, col)
            return f"{check}\n{tip}" if check and tip else (check or tip)
        if role == self.SortRole:
            return self.sort_key(cid, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(cid, col)
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 3:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _tooltip(self, cid: str, col: int) -> str | None:
        if col == 4:
            return safe(", ".join(self._rows[cid].get("skills") or []))
        if col in (1, 2, 5, 6):  # elided cells: the whole text on hover
            return safe(self._cells(cid)[col]) or None
        if col in (NAME_COL, DOCS_COL):
            r = self._rows[cid]
            tip = safe(r.get("label") or r.get("name") or "")
            if is_demo(r):
                tip += "\nA demo CV made by the CV generator: not a real person."
            if (r.get("documents") or 1) > 1:
                tip += f"\n{documents_text(r['documents'])}; the newest one's facts are shown"
            return tip
        if col in (STATUS_COL, TAGS_COL):
            note = self._rows[cid].get("screening_note")
            return safe(note) if note else None
        return None

    def check_text(self, cid: str, col: int) -> str | None:
        """"Check: <reason>" when the value of a marked column was read with low confidence, else None.

        The value itself (display, sort key, export) stays as read; only the icon and tooltip mark it.
        """
        key = CHECKED_COLS.get(col)
        r = self._rows.get(cid) or {}
        c = (r.get("confidence") or {}).get(key) if key else None
        if not c or not c.get("low") or not r.get(key):
            return None
        return f"Check: {safe(c.get('reason') or 'low confidence')}"

    @classmethod
    def check_icon(cls) -> QIcon:
        """The mark of a low-confidence cell (the style's question icon, made once)."""
        if cls._check_icon is None:
            cls._check_icon = QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxQuestion)
        return cls._check_icon

    def _search_data(self, cid: str, col: int, role: int):
        hit = self.ranking.get(cid)
        if role == self.SortRole:  # both columns sort by rank (descending = best first)
            return self.sort_key(cid, col)
        if hit is None:
            return None
        if role == self.RelevanceRole:
            return hit.relative
        if role == self.HtmlRole:
            return hit.snippet_html
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{round(hit.relative * 100)}%" if col == REL_COL else safe(hit.snippet_text)
        if role == Qt.ItemDataRole.ToolTipRole:
            where = f"page {hit.page + 1}" if hit.page is not None else "the CV"
            how = "" if hit.term_found() else "\nNo search word occurs literally here: matched by meaning only."
            passages = f"{hit.hits} matching passage{'s' if hit.hits != 1 else ''}"
            return (f"Rank {hit.rank} · {passages} · best on {where} ({hit.section or 'text'}){how}"
                    + ("" if col == REL_COL else f"\n\n{safe(hit.snippet_text)}"))
        return None
