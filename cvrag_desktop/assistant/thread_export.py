"""The conversations that name or cite a person, with their messages, cut to their own turns (access export).

A thread is included when its checkpoints, pending writes or title hold one of the
person's identifying strings (id, name, e-mails, phones, chunk ids) — the same test a
forget uses to remove threads (``memory.scrub_connection``), so what an export shows is
what a forget would remove. Read through a connection of its own (the store is in WAL
mode: an open assistant keeps working). :func:`subject_turns` then keeps what is about the
person alone: their turns, and of each answer their lines and citations.
"""

from __future__ import annotations

import re
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


def _bare_headings(lines: list[str], people) -> set[int]:
    """The positions of headings (unnamed lines ending with a colon) over no content line."""
    heading = [bool(ln.strip()) and ln.rstrip().endswith(":") and not people.names_subject(ln) for ln in lines]
    bare, has_content = set(), False
    for i in range(len(lines) - 1, -1, -1):  # from the end: what lies under each heading, up to the next
        if heading[i]:
            if not has_content:
                bare.add(i)
            has_content = False
        elif lines[i].strip() and not lines[i].rstrip().endswith(":"):
            has_content = True
    return bare


def _subject_lines(content: str, people) -> tuple[list[str], int]:
    """The lines of an answer about the subject: the lines (or, in a line naming others too, the sentences)
    that name them, the unnamed lines under them, and the headings over what is kept; the number left out.

    An unnamed line belongs to whoever the line before named (a compare's rows, a person's
    details under their name); under another person's line it is left out."""
    kept: list[str] = []
    dropped, owner = 0, None
    for line in content.splitlines():
        parts = re.split(r"(?<=[.!?])\s+", line) if people.names_subject(line) and people.names_others(line) \
            else [line]
        out = []
        for part in parts:
            mine, theirs = people.names_subject(part), people.names_others(part)
            if mine or theirs:
                owner = "subject" if mine else "other"
                keep = mine
            elif not part.strip() or part.rstrip().endswith(":"):
                owner, keep = (owner if not part.strip() else None), True  # a blank line or a heading
            else:
                keep = owner == "subject" or (owner is None and not people.names_others(content))
            if keep:
                out.append(part)
            elif part.strip():
                dropped += 1
        if out:
            kept.append(" ".join(out))
    bare = _bare_headings(kept, people)  # headings with nothing of theirs under them go too
    dropped += len(bare)
    kept = [ln for i, ln in enumerate(kept) if i not in bare]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(kept).strip("\n"))
    return (text.split("\n") if text else []), dropped


def _subject_answer(message: dict, subject_ids: set[str], people) -> dict:
    """An answer cut to the subject: their lines, citations and ids; the rest counted, not shown."""
    lines, left_out = _subject_lines(message.get("content") or "", people)
    out = {**message, "content": "\n".join(lines),
           "candidates": [c for c in message.get("candidates") or [] if c.get("candidate_id") in subject_ids],
           "people": [p for p in message.get("people") or [] if p in subject_ids]}
    about = {c.get("candidate_id") for c in message.get("candidates") or []} | set(message.get("people") or [])
    out["lines_left_out"] = left_out
    out["other_candidates_left_out"] = len(about - subject_ids - {None})
    return out


def _answer_left_out(message: dict) -> dict:
    """An answer about other people only, to a question naming the subject: none of its lines, just the counts."""
    about = {c.get("candidate_id") for c in message.get("candidates") or []} | set(message.get("people") or [])
    return {**message, "content": "", "candidates": [], "people": [],
            "lines_left_out": sum(1 for ln in (message.get("content") or "").splitlines() if ln.strip()),
            "other_candidates_left_out": len(about - {None})}


def subject_turns(threads: list[dict], subject_ids: list[str], people) -> list[dict]:
    """The threads as the subject's own turns (for their access export).

    A turn (a question and its answer) is theirs when the answer is about them (it cites them, or
    they are among the people it found) or the question names them. Of each turn of theirs the
    answer keeps only their lines, citations and ids (an answer about others only, to a question
    naming them, keeps none: the question is their data, the answer is not); other turns are
    left out and counted (``turns_left_out``); a thread with no turn of theirs is left out.
    ``people`` is the export's ``SubjectPeople`` (``catalog/compliance/subject_redact.py``): the
    names left in the kept text are replaced afterwards, with the rest of the export."""
    mine = set(subject_ids)
    out = []
    for thread in threads:
        turns: list[list] = []  # [question | None, answer | None]
        for m in thread.get("messages") or []:
            if m.get("role") == "user" or not turns or turns[-1][1] is not None:
                turns.append([m, None] if m.get("role") == "user" else [None, m])
            else:
                turns[-1][1] = m
        kept, left_out = [], 0
        for question, answer in turns:
            about = set((answer or {}).get("people") or []) | {c.get("candidate_id") for c in
                                                                (answer or {}).get("candidates") or []}
            asked = people.names_subject((question or {}).get("content") or "")
            if about & mine or (not about and asked):
                kept += [question] if question else []
                kept += [_subject_answer(answer, mine, people)] if answer else []
            elif asked:  # "How does Zelda compare with Yusuf?" answered about Yusuf alone
                kept += [question] + ([_answer_left_out(answer)] if answer else [])
            else:
                left_out += 1
        if kept:
            out.append({**thread, "messages": kept, "turns_left_out": left_out})
    return out
