"""Grep a data home the way an auditor would: every SQLite row (decoded) and every other file's bytes.

Used by the subject-access and retention tests: a record "names" a person when one of its
columns (text, or a blob decoded as UTF-8) contains the person's name or e-mail, compared
case-insensitively. Real people's data stay in memory: nothing is printed but table names,
keys and counts.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

SQLITE_MAGIC = b"SQLite format 3\x00"


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="ignore")
    return str(value)


def sqlite_hits(path: Path, needles: list[str]) -> list[tuple[str, dict]]:
    """``(table, row)`` of every row of an SQLite file whose decoded columns contain a needle."""
    wanted = [n.casefold() for n in needles if n]
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    out = []
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for t in tables:
            for row in conn.execute(f'SELECT * FROM "{t}"'):
                d = dict(row)
                blob = " ".join(_text(v) for v in d.values()).casefold()
                if any(n in blob for n in wanted):
                    out.append((t, d))
    finally:
        conn.close()
    return out


def grep_data_home(home: Path, needles: list[str]) -> dict:
    """``{"rows": [(file, table, row)], "files": [file]}``: SQLite rows and other files naming a needle."""
    rows, files = [], []
    forms = [f for n in needles if n for f in (n.lower().encode(), n.lower().encode("utf-16-le"))]
    for root, _dirs, names in os.walk(home):
        for name in names:
            p = Path(root) / name
            if name.endswith(("-wal", "-shm", "-journal")):
                continue  # read through the database itself
            with open(p, "rb") as fh:
                head = fh.read(16)
            rel = str(p.relative_to(home))
            if head == SQLITE_MAGIC:
                rows += [(rel, t, r) for t, r in sqlite_hits(p, needles)]
            elif any(f in p.read_bytes().lower() for f in forms):
                files.append(rel)
    return {"rows": rows, "files": files}
