"""The audit chain's head, kept outside the log: in the catalog and in the settings file.

The chain itself (``audit.py``) shows a changed, deleted or reordered entry, but whoever can
write ``audit.sqlite3`` can also cut off its tail, append a forged entry with a fresh hash,
rewrite every entry consistently, or delete the file: the log alone cannot tell. So each
append, once the trail has committed it, also writes the new head as ``"<trail id>:<seq>:<hash>"``
in two places beside the log — the catalog's ``meta`` table and the ``audit_anchor`` key of
``settings.json`` — and :func:`assess` holds both against the chain's head. The trail id is
random, made when the trail is created and kept in the trail's own ``audit_meta``.

- An anchor of this trail that disagrees with the head is a break: a lower sequence than the
  anchor means entries were cut off; a higher one, entries appended outside the application;
  the same sequence with another hash, a rewritten chain. It is left as it is (the evidence
  stays) and the break is reported until someone looks.
- Normal use that moves anchors out of step is a note, re-anchored at the next append: an
  anchor of another trail (a fresh data folder beside an old config folder), a catalog anchor
  behind the settings one and the chain (a restored catalog backup; backups are made without
  it), anchors at the head before the last append (it committed, then the application stopped
  before writing them). The catalog naming another trail with no anchor of this one left is a
  break: the audit file beside it was deleted or replaced.
- One anchor missing while the other agrees is not a break (a catalog rebuilt from the
  library starts without one). Both missing on a log marked as anchored is a break. A log from
  before the anchors (or the trail ids) gets them at its next append.

Tampering with both anchors *and* the log together is excluded by design (docs/compliance.md):
keep a copy of the head (``cvrag audit verify --json``) elsewhere for that. Qt-free.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from cvrag_desktop.config import app_paths, read_audit_anchor, write_audit_anchor

log = logging.getLogger(__name__)
CATALOG_KEY = "audit_anchor"


@dataclass
class TrailState:
    """What the trail itself says about its anchors: its id, whether it was anchored, the head before its
    last append, and the hash of an entry of the chain as it is (``hash_at(seq)``, None when not there)."""

    trail: str | None
    flagged: bool
    last_before: str | None
    hash_at: Callable[[int], str | None]


class CatalogAnchor:
    """The head kept in the catalog's ``meta`` table."""

    where = "the catalog"

    def __init__(self, catalog) -> None:
        self.catalog = catalog

    def read(self) -> str | None:
        """The anchored head, or None."""
        try:
            rows = self.catalog.query("SELECT value FROM meta WHERE key = ?", (CATALOG_KEY,))
        except Exception as exc:  # a closed or damaged catalog: no anchor can be read from it
            log.warning("audit anchor not readable from the catalog: %s", exc)
            return None
        return rows[0][0] if rows else None

    def write(self, value: str | None) -> None:
        """Store (or with None, remove) the head."""
        if getattr(self.catalog, "read_only", False):
            return
        conn = self.catalog._conn
        with self.catalog._lock:
            sql, params = (("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (CATALOG_KEY, value))
                           if value is not None else ("DELETE FROM meta WHERE key = ?", (CATALOG_KEY,)))
            conn.execute(sql, params)  # (inside a catalog transaction of this thread: part of it)


class SettingsAnchor:
    """The head kept in ``settings.json`` (key ``audit_anchor``; ``config.save_settings`` keeps it)."""

    where = "the settings"

    def __init__(self, settings_file: Path) -> None:
        self.settings_file = Path(settings_file)

    def read(self) -> str | None:
        """The anchored head, or None."""
        return read_audit_anchor(self.settings_file)

    def write(self, value: str | None) -> None:
        """Store (or with None, remove) the head."""
        write_audit_anchor(self.settings_file, value)


@contextlib.contextmanager
def held(anchors: list) -> Iterator[None]:
    """Hold the catalog's lock around an append (taken before the trail's own: one order, no deadlock with a
    thread that writes the catalog and then the trail)."""
    with contextlib.ExitStack() as stack:
        for a in anchors:
            if isinstance(a, CatalogAnchor):
                stack.enter_context(a.catalog._lock)
        yield


def head_of(conn: sqlite3.Connection, meta) -> str:
    """The chain's head as ``"<seq>:<hash>"`` (after a prune that removed everything: the prune anchor)."""
    row = conn.execute("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1").fetchone()
    if row:
        return f"{row[0]}:{row[1]}"
    return f"{int(meta('anchor_seq', conn) or 0)}:{meta('anchor_hash', conn) or '0' * 64}"


def hash_at(conn: sqlite3.Connection, meta, seq: int) -> str | None:
    """The hash of entry ``seq`` in the chain as it is (the prune anchor's for the entry a prune ended at)."""
    row = conn.execute("SELECT hash FROM audit_log WHERE seq = ?", (seq,)).fetchone()
    if row:
        return row[0]
    return meta("anchor_hash", conn) if str(seq) == (meta("anchor_seq", conn) or "0") else None


def anchor_value(trail: str | None, head: str) -> str:
    """What an anchor holds: ``"<trail id>:<seq>:<hash>"`` (``"<seq>:<hash>"`` for a trail without an id)."""
    return f"{trail}:{head}" if trail else head


def parse(value: str) -> tuple[str | None, str] | None:
    """``(trail id or None, "<seq>:<hash>")`` of an anchor (an anchor from before trail ids has no id), or None
    when it is not readable."""
    parts = value.split(":")
    if len(parts) not in (2, 3):
        return None
    try:
        int(parts[-2])
    except ValueError:
        return None
    return (parts[0] if len(parts) == 3 else None), ":".join(parts[-2:])


def anchor_problem(where: str, anchored: str, head: str) -> tuple[int, str] | None:
    """Why an anchor (``"<seq>:<hash>"``) disagrees with the head (first seq concerned, reason), or None."""
    if anchored == head:
        return None
    a_seq = int(anchored.split(":", 1)[0])
    h_seq = int(head.split(":", 1)[0])
    if a_seq > h_seq:
        return h_seq + 1, (f"entry {a_seq} was written (anchored in {where}) but the trail ends at entry {h_seq} "
                           "(cut off, or the audit file was deleted or replaced)")
    if a_seq < h_seq:
        return a_seq + 1, (f"entries after {a_seq} were not written by the application (the head anchored in "
                           f"{where} is entry {a_seq}; the trail ends at {h_seq})")
    return a_seq, f"entry {a_seq} is not the one anchored in {where} (the chain was rewritten, or the anchor replaced)"


@dataclass
class Assessment:
    """The anchors held against the head: the break (or None), the notes, the anchors an append may move."""

    problem: tuple[int, str] | None = None
    notes: list[str] = field(default_factory=list)
    movable: list = field(default_factory=list)


def assess(anchors: list, head: str, state: TrailState) -> Assessment:
    """Hold every anchor against the head (``"<seq>:<hash>"``) of the trail ``state`` describes.

    - unreadable: a break; none at all: a break on a trail marked as anchored.
    - of another trail (another id): a note (a fresh data folder beside an old config folder, a catalog
      restored from another data folder) — unless the catalog's, which lives beside the log, names another
      trail while no anchor of this one is left: the audit file was deleted or replaced (a break).
    - of this trail (or from before trail ids) and disagreeing: a break, but for two notes: every one at the
      head before the trail's last append (that append committed, its anchors were not written: they are
      written after the commit), the others agreeing; or only the catalog's behind while the settings'
      agrees and the catalog's still matches the chain where it points (a restored catalog).
    Anchors that agree, are missing or are a note are ``movable`` (re-anchored at the next append)."""
    out = Assessment()
    values = [(a, a.read()) for a in anchors]
    present = [(a, v) for a, v in values if v is not None]
    out.movable = [a for a, v in values if v is None]
    if not present:
        if state.flagged:
            out.problem = 0, "the head anchored outside the trail is missing from both the catalog and the settings"
        return out
    own, foreign = [], []
    for a, v in present:
        parsed = parse(v)
        if parsed is None:
            out.problem = 0, f"the head anchored in {a.where} is not readable (replaced)"
            return out
        trail, at = parsed
        (own if trail is None or state.trail is None or trail == state.trail else foreign).append((a, trail, at))
    for a, trail, at in foreign:
        if isinstance(a, CatalogAnchor) and not own:
            out.problem = 1, (
                f"entry {at.split(':')[0]} of trail {trail} was written (anchored in {a.where}) but this trail "
                f"({state.trail}) does not have it (cut off, or the audit file was deleted or replaced)")
            return out
        out.notes.append(f"the head anchored in {a.where} is from another trail ({trail}, entry {at.split(':')[0]}): "
                         "a fresh data folder, or a catalog from another one; re-anchored at the next append")
        out.movable.append(a)
    disagreeing = [(a, at) for a, _t, at in own if at != head]
    out.movable += [a for a, _t, at in own if at == head]
    if not disagreeing:
        return out
    if state.last_before and all(at == state.last_before for _a, at in disagreeing):
        out.notes.append(f"the head anchored in {' and '.join(a.where for a, _at in disagreeing)} is entry "
                         f"{state.last_before.split(':')[0]}, the head before the last append (the trail ends at "
                         f"{head.split(':')[0]}): that append was committed but not anchored there (the application "
                         "stopped, or the write failed); re-anchored at the next append")
        out.movable += [a for a, _at in disagreeing]
        return out
    agreeing_settings = any(isinstance(a, SettingsAnchor) and at == head for a, _t, at in own)
    for a, at in disagreeing:
        a_seq, a_hash = int(at.split(":")[0]), at.split(":", 1)[1]
        if (isinstance(a, CatalogAnchor) and agreeing_settings and a_seq < int(head.split(":")[0])
                and state.hash_at(a_seq) == a_hash):
            out.notes.append(f"the head anchored in the catalog is entry {a_seq}, behind the trail and the settings "
                             f"(entry {head.split(':')[0]}): a restored catalog backup; re-anchored at the next append")
            out.movable.append(a)
            continue
        out.problem = anchor_problem(a.where, at, head)
        agreeing = [x for x, _t, y in own if y == head]  # a break: only what agrees moves (the evidence stays)
        out.movable = agreeing + ([x for x, v in values if v is None] if agreeing else [])
        return out
    return out


def trail_state(conn: sqlite3.Connection, meta) -> TrailState:
    """What the trail (its ``audit_meta``, read through ``meta``) says about its anchors."""
    return TrailState(meta("trail_id", conn), meta("anchored", conn) is not None, meta("last_before", conn),
                      lambda seq: hash_at(conn, meta, seq))


def before_append(anchors: list, conn: sqlite3.Connection, meta) -> list:
    """In an append's transaction, before it: the anchors it may move (held against the head before it);
    that head is kept in the trail (``last_before``: what anchors left behind by a crash after the commit name)."""
    if not anchors:
        return []
    before = head_of(conn, meta)
    movable = assess(anchors, before, trail_state(conn, meta)).movable
    conn.execute("INSERT OR REPLACE INTO audit_meta(key, value) VALUES ('last_before', ?)", (before,))
    return movable


def after_commit(movable: list, conn: sqlite3.Connection, meta) -> bool:
    """After the append's COMMIT: the new head written in each anchor it may move. True when one was written
    on a trail not yet marked as anchored (mark it: from then on both anchors missing is a break). A failure is
    logged: the append stands, its anchors one append behind (a note until the next append moves them)."""
    if not movable:
        return False
    value, written = anchor_value(meta("trail_id", conn), head_of(conn, meta)), False
    for a in movable:
        try:
            a.write(value)
            written = True
        except (OSError, sqlite3.Error) as exc:
            log.warning("audit anchor not written in %s: %s", a.where, exc)
    return written and meta("anchored", conn) is None


def anchors_for(catalog, settings_file: Path | None = None) -> list:
    """Where a catalog's audit head is kept outside the log: the catalog, and the settings of its data home
    (``settings_file``, else the settings of :func:`config.app_paths` when the catalog is in its data folder)."""
    if settings_file is None:
        paths = app_paths()
        if Path(catalog.home).resolve() == paths.data_dir.resolve():
            settings_file = paths.settings_file
    return [CatalogAnchor(catalog)] + ([SettingsAnchor(settings_file)] if settings_file is not None else [])
