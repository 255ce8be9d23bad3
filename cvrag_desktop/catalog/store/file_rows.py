"""The catalog's file rows: one per imported file, keyed by content hash, with its import status.

A mixin of :class:`~cvrag_desktop.catalog.db.Catalog` (it uses the catalog's ``query`` and
``transaction``). Library paths are stored relative to the data home and handed out absolute,
so a moved or copied home keeps finding its own files (``catalog/store/home_paths.py``).
"""

from __future__ import annotations

import sqlite3
import time

from cvrag_desktop.catalog.store.home_paths import resolve_stored, to_stored


class FileRows:
    """Registering imported files and recording how their import went."""

    def file_by_sha(self, sha: str) -> sqlite3.Row | None:
        """The file row with this content hash, if any."""
        rows = self.query("SELECT * FROM files WHERE sha256 = ?", (sha,))
        return rows[0] if rows else None

    def upsert_file(self, *, sha: str | None, original_path: str, file_name: str, size: int | None,
                    status: str, stored_path: str | None = None, error: str | None = None) -> int:
        """Register a file (or update the existing row of the same content); returns file_id."""
        now = time.time()
        stored_path = to_stored(self.home, stored_path)
        with self.transaction() as c:
            row = c.execute("SELECT file_id FROM files WHERE sha256 = ?", (sha,)).fetchone() if sha else None
            if row:
                c.execute(
                    "UPDATE files SET original_path=?, file_name=?, status=?, error=?, "
                    "stored_path=COALESCE(?, stored_path) WHERE file_id=?",
                    (original_path, file_name, status, error, stored_path, row["file_id"]),
                )
                return int(row["file_id"])
            cur = c.execute(
                "INSERT INTO files(sha256, original_path, stored_path, file_name, size_bytes, status, error, created_at)"
                " VALUES (?,?,?,?,?,?,?,?)",
                (sha, original_path, stored_path, file_name, size, status, error, now),
            )
            return int(cur.lastrowid)

    def mark_file(self, file_id: int, **fields) -> None:
        """Update some columns of a file row."""
        if not fields:
            return
        fields = self._stored_fields(fields)
        cols = ", ".join(f"{k} = ?" for k in fields)
        with self.transaction() as c:
            c.execute(f"UPDATE files SET {cols} WHERE file_id = ?", (*fields.values(), file_id))

    def mark_files(self, file_ids: list[int], **fields) -> None:
        """Update the same columns of several file rows in one transaction."""
        if not file_ids or not fields:
            return
        fields = self._stored_fields(fields)
        cols = ", ".join(f"{k} = ?" for k in fields)
        with self.transaction() as c:
            c.executemany(f"UPDATE files SET {cols} WHERE file_id = ?", [(*fields.values(), f) for f in file_ids])

    def files(self, status: str | None = None) -> list[dict]:
        """File rows, optionally only those with a status."""
        if status:
            rows = self.query("SELECT * FROM files WHERE status = ? ORDER BY file_id", (status,))
        else:
            rows = self.query("SELECT * FROM files ORDER BY file_id")
        return [self._absolute(dict(r)) for r in rows]

    def _stored_fields(self, fields: dict) -> dict:
        """Column values as stored: a ``stored_path`` relative to the data home."""
        if "stored_path" in fields:
            fields = {**fields, "stored_path": to_stored(self.home, fields["stored_path"])}
        return fields

    def _absolute(self, row: dict) -> dict:
        """A row as callers use it: its ``stored_path`` resolved against today's data home."""
        if row.get("stored_path"):
            row["stored_path"] = resolve_stored(self.home, row["stored_path"])
        return row
