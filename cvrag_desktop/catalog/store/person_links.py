"""The recruiter's "same person" / "not the same" decisions between documents (merges and splits).

A mixin of :class:`~cvrag_desktop.catalog.db.Catalog`. Each decision is one ``person_links``
row per pair; ``links_version`` in ``meta`` changes with every decision, so the people view
regroups only when something changed.
"""

from __future__ import annotations

import sqlite3
import time


class PersonLinks:
    """Reading and recording merges and splits."""

    def person_links(self) -> list[tuple[str, str, str]]:
        """Every ``(candidate_id, candidate_id, "same" | "apart")`` decision."""
        return [(r[0], r[1], r[2]) for r in self.query("SELECT a, b, kind FROM person_links")]

    def links_version(self) -> int:
        """A number that changes whenever a merge or split is recorded (cheap change marker)."""
        rows = self.query("SELECT value FROM meta WHERE key = 'links_version'")
        return int(rows[0][0]) if rows else 0

    def set_person_links(self, *, same: list[tuple[str, str]] = (), apart: list[tuple[str, str]] = (),
                         clear: list[str] = ()) -> None:
        """Record merges (``same``) and splits (``apart``) atomically; ``clear`` first drops every link of those ids.

        A pair has one decision: recording one replaces the other.
        """
        now = time.time()
        with self.transaction() as c:
            c.executemany("DELETE FROM person_links WHERE a = ? OR b = ?", [(i, i) for i in clear])
            rows = [(*sorted((a, b)), kind, now) for kind, pairs in (("same", same), ("apart", apart))
                    for a, b in pairs if a != b]
            c.executemany("INSERT OR REPLACE INTO person_links(a, b, kind, created_at) VALUES (?,?,?,?)", rows)
            bump_links_version(c)


def bump_links_version(c: sqlite3.Connection) -> None:
    """Change the links' change marker (inside the transaction that changed them)."""
    c.execute("INSERT INTO meta(key, value) VALUES('links_version', '1') "
              "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")
