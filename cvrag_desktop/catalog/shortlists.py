"""Named shortlists of candidates, with a recruiter's note per candidate.

Shortlists live in the catalog (``shortlists`` and ``shortlist_items`` tables), so they
survive restarts and disappear with a forgotten candidate (``ON DELETE CASCADE``). This
module is Qt-free: the GUI and the CLI share it through ``app.screening.shortlists``.
"""

from __future__ import annotations

import sqlite3
import time

from pydantic import BaseModel

from cvrag_desktop.catalog.compliance.audit import audit_for
from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.errors import InvalidInput, NotFound

MAX_NAME = 80
MAX_NOTE = 4000


class Shortlist(BaseModel):
    """One named shortlist and how many candidates it holds."""

    shortlist_id: int
    name: str
    created_at: float
    size: int = 0


class ShortlistItem(BaseModel):
    """A candidate on a shortlist, with the recruiter's note."""

    candidate_id: str
    name: str | None = None
    note: str = ""
    added_at: float


def _clean_name(name: str) -> str:
    if not isinstance(name, str):
        raise InvalidInput("A shortlist name must be text.")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise InvalidInput("Give the shortlist a name.")
    if len(cleaned) > MAX_NAME:
        raise InvalidInput(f"Shortlist names are at most {MAX_NAME} characters.")
    return cleaned


def _clean_note(note: str | None) -> str:
    note = (note or "").replace("\x00", "").strip()
    if len(note) > MAX_NOTE:
        raise InvalidInput(f"Notes are at most {MAX_NOTE} characters.")
    return note


class ShortlistStore:
    """Create, rename and delete shortlists; add and remove candidates; edit notes."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    # ---- shortlists ----------------------------------------------------------------------
    def list(self) -> list[Shortlist]:
        """Every shortlist, by name, with its size."""
        rows = self.catalog.query(
            "SELECT s.shortlist_id, s.name, s.created_at, COUNT(i.candidate_id) AS size FROM shortlists s "
            "LEFT JOIN shortlist_items i ON i.shortlist_id = s.shortlist_id "
            "GROUP BY s.shortlist_id ORDER BY s.name COLLATE NOCASE"
        )
        return [Shortlist(**dict(r)) for r in rows]

    def get(self, shortlist_id: int) -> Shortlist:
        """One shortlist, or :class:`NotFound`."""
        for s in self.list():
            if s.shortlist_id == shortlist_id:
                return s
        raise NotFound(f"No shortlist with id {shortlist_id}.")

    def create(self, name: str) -> Shortlist:
        """A new empty shortlist; names are unique (case-insensitive)."""
        cleaned = _clean_name(name)
        self._check_unique(cleaned)
        try:
            with self.catalog.transaction() as c:
                cur = c.execute("INSERT INTO shortlists(name, created_at) VALUES (?, ?)", (cleaned, time.time()))
                new_id = int(cur.lastrowid)
        except sqlite3.IntegrityError as exc:
            raise InvalidInput(f"A shortlist called {cleaned!r} already exists.") from exc
        return self.get(new_id)

    def rename(self, shortlist_id: int, name: str) -> Shortlist:
        """Give a shortlist another (unique) name."""
        cleaned = _clean_name(name)
        self.get(shortlist_id)
        self._check_unique(cleaned, exclude=shortlist_id)
        with self.catalog.transaction() as c:
            c.execute("UPDATE shortlists SET name = ? WHERE shortlist_id = ?", (cleaned, shortlist_id))
        return self.get(shortlist_id)

    def delete(self, shortlist_id: int) -> None:
        """Remove a shortlist and its entries (the candidates stay)."""
        self.get(shortlist_id)
        with self.catalog.transaction() as c:
            members = [r[0] for r in c.execute("SELECT candidate_id FROM shortlist_items WHERE shortlist_id = ?",
                                               (shortlist_id,))]
            c.execute("DELETE FROM shortlist_items WHERE shortlist_id = ?", (shortlist_id,))
            c.execute("DELETE FROM shortlists WHERE shortlist_id = ?", (shortlist_id,))
        _audit(self.catalog, [("shortlist.delete", [], {"shortlist_id": shortlist_id, "documents": members,
                                                         "removed": len(members)})])

    def _check_unique(self, name: str, exclude: int | None = None) -> None:
        for s in self.list():
            if s.name.casefold() == name.casefold() and s.shortlist_id != exclude:
                raise InvalidInput(f"A shortlist called {s.name!r} already exists.")

    # ---- items ---------------------------------------------------------------------------
    def add(self, shortlist_id: int, candidate_ids: list[str] | str, note: str = "") -> int:
        """Put candidates on a shortlist (already there: kept with their note); returns how many were added."""
        ids = [candidate_ids] if isinstance(candidate_ids, str) else list(candidate_ids)
        self.get(shortlist_id)
        note = _clean_note(note)
        added, entries = 0, []
        with self.catalog.transaction() as c:
            for cid in ids:
                if c.execute("SELECT 1 FROM candidates WHERE candidate_id = ?", (cid,)).fetchone() is None:
                    raise NotFound(f"No candidate with id {cid!r}.")
                cur = c.execute(
                    "INSERT OR IGNORE INTO shortlist_items(shortlist_id, candidate_id, note, added_at) "
                    "VALUES (?, ?, ?, ?)",
                    (shortlist_id, cid, note, time.time()),
                )
                added += cur.rowcount
                if cur.rowcount:
                    entries.append(("shortlist.add", [cid], {"shortlist_id": shortlist_id, "note_chars": len(note)}))
        _audit(self.catalog, entries)
        return added

    def remove(self, shortlist_id: int, candidate_ids: list[str] | str) -> int:
        """Take candidates off a shortlist; returns how many were removed."""
        ids = [candidate_ids] if isinstance(candidate_ids, str) else list(candidate_ids)
        removed, entries = 0, []
        with self.catalog.transaction() as c:
            for cid in ids:
                cur = c.execute(
                    "DELETE FROM shortlist_items WHERE shortlist_id = ? AND candidate_id = ?", (shortlist_id, cid)
                )
                removed += cur.rowcount
                if cur.rowcount:
                    entries.append(("shortlist.remove", [cid], {"shortlist_id": shortlist_id}))
        _audit(self.catalog, entries)
        return removed

    def set_note(self, shortlist_id: int, candidate_id: str, note: str) -> None:
        """Replace the note of a candidate on a shortlist."""
        note = _clean_note(note)
        with self.catalog.transaction() as c:
            cur = c.execute(
                "UPDATE shortlist_items SET note = ? WHERE shortlist_id = ? AND candidate_id = ?",
                (note, shortlist_id, candidate_id),
            )
            if cur.rowcount == 0:
                raise NotFound("That candidate is not on this shortlist.")
        _audit(self.catalog, [("shortlist.note", [candidate_id], {"shortlist_id": shortlist_id, "chars": len(note)})])

    def items(self, shortlist_id: int) -> list[ShortlistItem]:
        """The candidates of a shortlist, in the order they were added."""
        self.get(shortlist_id)
        rows = self.catalog.query(
            "SELECT i.candidate_id, c.name, i.note, i.added_at FROM shortlist_items i "
            "JOIN candidates c ON c.candidate_id = i.candidate_id WHERE i.shortlist_id = ? "
            "ORDER BY i.added_at, i.rowid",
            (shortlist_id,),
        )
        return [ShortlistItem(**dict(r)) for r in rows]

    def notes(self, shortlist_id: int) -> dict[str, str]:
        """candidate id -> note, for the export and the table."""
        return {i.candidate_id: i.note for i in self.items(shortlist_id)}

    def memberships(self, candidate_id: str) -> list[Shortlist]:
        """The shortlists a candidate is on."""
        rows = self.catalog.query(
            "SELECT shortlist_id FROM shortlist_items WHERE candidate_id = ?", (candidate_id,)
        )
        ids = {r[0] for r in rows}
        return [s for s in self.list() if s.shortlist_id in ids]


def _audit(catalog: Catalog, entries: list[tuple]) -> None:
    """Write the audit entries of a shortlist change (who, when, which documents; never a note's text)."""
    if entries:
        audit_for(catalog).record_many(entries)
