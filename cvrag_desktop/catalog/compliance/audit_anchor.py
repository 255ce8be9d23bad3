"""The audit chain's head, kept outside the log: in the catalog and in the settings file.

The chain itself (``audit.py``) shows a changed, deleted or reordered entry, but whoever can
write ``audit.sqlite3`` can also cut off its tail, append a forged entry with a fresh hash,
rewrite every entry consistently, or delete the file: the log alone cannot tell. So each
append also writes the new head (``"<seq>:<hash>"``) in two places beside the log — the
catalog's ``meta`` table and the ``audit_anchor`` key of ``settings.json`` — and
:func:`check_anchors` compares both with the chain's head.

- An anchor that disagrees with the head is a break: a lower sequence than the anchor means
  entries were cut off (or the file deleted); a higher one, entries appended outside the
  application; the same sequence with another hash, a rewritten chain.
- An anchor is only moved forward from the head it agrees with: once one disagrees it is
  left as it is (the evidence stays) and the break is reported until someone looks.
- One anchor missing while the other agrees is not a break (a catalog rebuilt from the
  library starts without one); it is written again at the next append. Both missing on a log
  marked as anchored is a break. A log from before the anchors gets them on first open.

Tampering with both anchors *and* the log together is excluded by design (docs/compliance.md):
keep a copy of the head (``cvrag audit verify --json``) elsewhere for that. Qt-free.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from cvrag_desktop.config import app_paths, read_audit_anchor, write_audit_anchor

log = logging.getLogger(__name__)
CATALOG_KEY = "audit_anchor"


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


def anchor_problem(where: str, anchored: str, head: str) -> tuple[int, str] | None:
    """Why an anchor disagrees with the head (first seq concerned, reason), or None when it agrees."""
    if anchored == head:
        return None
    try:
        a_seq, _hash = anchored.split(":", 1)
        a_seq = int(a_seq)
    except ValueError:
        return 0, f"the head anchored in {where} is not readable (replaced)"
    h_seq = int(head.split(":", 1)[0])
    if a_seq > h_seq:
        return h_seq + 1, (f"entry {a_seq} was written (anchored in {where}) but the trail ends at entry {h_seq} "
                           "(cut off, or the audit file was deleted or replaced)")
    if a_seq < h_seq:
        return a_seq + 1, (f"entries after {a_seq} were not written by the application (the head anchored in "
                           f"{where} is entry {a_seq}; the trail ends at {h_seq})")
    return a_seq, f"entry {a_seq} is not the one anchored in {where} (the chain was rewritten, or the anchor replaced)"


def check_anchors(anchors: list, head: str, anchored_flag: bool) -> tuple[int, str] | None:
    """The first disagreement between the external anchors and the head, or None."""
    values = [(a.where, a.read()) for a in anchors]
    present = [(w, v) for w, v in values if v is not None]
    if not present:
        if anchored_flag:
            return 0, "the head anchored outside the trail is missing from both the catalog and the settings"
        return None  # a trail from before the anchors (or an empty one): anchored at its next write
    for where, value in present:
        problem = anchor_problem(where, value, head)
        if problem:
            return problem
    return None


def move_anchors(anchors: list, before: str, after: str, establish: bool) -> list[tuple]:
    """Move every anchor that agrees with ``before`` (or is missing) to ``after``; returns ``(anchor, old)``
    for the ones written (to put back if the append is rolled back). One that disagrees is left alone,
    and so are all when none agrees and ``establish`` is False (a deleted trail: the anchors are the evidence)."""
    values = [(a, a.read()) for a in anchors]
    agreeing = any(v == before for _a, v in values)
    if not agreeing and not establish:
        return []
    written = []
    for a, old in values:
        if old is None or old == before:
            try:
                a.write(after)
                written.append((a, old))
            except (OSError, sqlite3.Error) as exc:  # the append stands; the next one writes it again
                log.warning("audit anchor not written in %s: %s", a.where, exc)
    return written


def advance(anchors: list, conn: sqlite3.Connection, meta, before: str) -> list[tuple]:
    """After an append (in its transaction, so appends stay in order): the new head written outside the log.
    The trail is marked as anchored the first time (from then on, both anchors missing is a break)."""
    if not anchors:
        return []
    flagged = meta("anchored", conn) is not None
    establish = not flagged and all(a.read() is None for a in anchors)  # a trail older than the anchors
    written = move_anchors(anchors, before, head_of(conn, meta), establish)
    if written and not flagged:
        conn.execute("INSERT OR REPLACE INTO audit_meta(key, value) VALUES ('anchored', '1')")
    return written


def put_back(written: list[tuple]) -> None:
    """Restore anchors moved for an append that was then rolled back."""
    for a, old in written:
        try:
            a.write(old)
        except (OSError, sqlite3.Error) as exc:
            log.warning("audit anchor not restored in %s: %s", a.where, exc)


def anchors_for(catalog, settings_file: Path | None = None) -> list:
    """Where a catalog's audit head is kept outside the log: the catalog, and the settings of its data home
    (``settings_file``, else the settings of :func:`config.app_paths` when the catalog is in its data folder)."""
    if settings_file is None:
        paths = app_paths()
        if Path(catalog.home).resolve() == paths.data_dir.resolve():
            settings_file = paths.settings_file
    return [CatalogAnchor(catalog)] + ([SettingsAnchor(settings_file)] if settings_file is not None else [])
