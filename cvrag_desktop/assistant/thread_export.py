"""The conversations that name or cite a person, with their messages (for a subject-access export).

A thread is included when its checkpoints, pending writes or title hold one of the
person's identifying strings (id, name, e-mails, phones, chunk ids) — the same test a
forget uses to remove threads (``memory.scrub_connection``), so what an export shows is
what a forget would remove. Read through a connection of its own (the store is in WAL
mode: an open assistant keeps working).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from langgraph.checkpoint.sqlite import SqliteSaver

from cvrag_desktop.catalog.compliance.forget_needles import blob_mentions
from cvrag_desktop.catalog.compliance.forget_needles import needle_bytes as _needle_bytes
from cvrag_desktop.catalog.store.health import dir_writable
from cvrag_desktop.catalog.store.read_only import connect_read_only


def thread_ids_naming(conn: sqlite3.Connection, needles: list[str]) -> set[str]:
    """Ids of the threads whose stored state or title mentions a needle."""

    keys = _needle_bytes(needles)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    queries = {"checkpoints": "SELECT thread_id, checkpoint, metadata FROM checkpoints",
               "writes": "SELECT thread_id, value FROM writes",
               "assistant_threads": "SELECT thread_id, title FROM assistant_threads"}
    hits: set[str] = set()
    for table, sql in queries.items():
        if table in tables:
            for tid, *blobs in conn.execute(sql):
                if tid not in hits and any(blob_mentions(b, keys) for b in blobs):
                    hits.add(tid)
    return hits


def threads_naming(path: Path, needles: list[str]) -> list[dict]:
    """``[{thread_id, title, created_at, updated_at, messages: [{role, content, ...}]}]`` naming a needle."""
    if not Path(path).exists() or not needles:
        return []

    if dir_writable(Path(path).parent):
        conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
    else:  # a read-only data folder: no -shm may be made beside the store
        conn = connect_read_only(Path(path))
    try:
        hits = thread_ids_naming(conn, needles)
        if not hits:
            return []
        titles = {}
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'assistant_threads'").fetchone():
            titles = {r[0]: r[1:] for r in conn.execute(
                "SELECT thread_id, title, created_at, updated_at FROM assistant_threads")}
        saver = SqliteSaver(conn)
        out = []
        for tid in sorted(hits):
            got = saver.get_tuple({"configurable": {"thread_id": tid}})
            messages = list(((got.checkpoint if got else {}).get("channel_values") or {}).get("messages") or [])
            title, created, updated = titles.get(tid, (tid, None, None))
            out.append({"thread_id": tid, "title": title, "created_at": created, "updated_at": updated,
                        "messages": [dict(m) for m in messages]})
        return out
    finally:
        conn.close()
