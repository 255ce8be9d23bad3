"""Copies that repairs and crashes leave beside the live stores, and what forget and retention do to them.

A repair never deletes what it replaces: ``cvrag doctor --rebuild-catalog`` keeps the
damaged catalog as ``catalog.damaged-<time>.sqlite3``, a damaged conversation store is
kept as ``threads.damaged-<time>.sqlite3``, a damaged index shard as
``index/shard.damaged/``, and a killed import can leave ``library/.incoming-*.tmp``.
Each is a full copy of people's data, so:

- **forget reaches them** (:func:`forget_in_leftovers`): an SQLite copy is scrubbed like a
  backup (rows deleted with ``secure_delete``, then ``VACUUM``) and then *verified* — its raw
  bytes are searched for the person's identity (name, e-mails, phones, ids, unique lines); a
  copy that cannot be scrubbed or still names them is removed. A damaged shard is derived
  data and is removed; stale import temp files are removed.
- **they expire** (:data:`RETENTION_DAYS` after they were set aside): ``cvrag doctor`` lists
  each with its expiry, expired ones are removed when the catalog is opened, and
  ``cvrag doctor --purge-leftovers`` removes them all now.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cvrag_desktop.catalog.compliance.forget_needles import identity_bytes

log = logging.getLogger(__name__)

RETENTION_DAYS = 30
SIDE_SUFFIXES = ("-wal", "-shm", "-journal")
BLOCK = 8 << 20


@dataclass(frozen=True)
class Leftover:
    """One set-aside copy: where it is, what it is, its size and when it was set aside."""

    path: Path
    kind: str  # damaged / previous catalog | damaged conversations | damaged index | unfinished import copy
    size: int
    set_aside_at: float

    def expires_at(self, retention_days: float = RETENTION_DAYS) -> float:
        """When retention removes it (seconds since the epoch)."""
        return self.set_aside_at + retention_days * 86400

    def as_dict(self, home: Path, retention_days: float = RETENTION_DAYS) -> dict:
        """For ``cvrag doctor``: path relative to the data home, kind, size and expiry date."""
        return {"path": _rel(self.path, home), "kind": self.kind, "mb": round(self.size / 2**20, 2),
                "set_aside": time.strftime("%Y-%m-%d", time.localtime(self.set_aside_at)),
                "expires": time.strftime("%Y-%m-%d", time.localtime(self.expires_at(retention_days)))}


def _rel(path: Path, home: Path) -> str:
    try:
        return path.relative_to(home).as_posix()
    except ValueError:
        return str(path)


def _size(path: Path) -> int:
    if path.is_dir():
        return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
    return sum(p.stat().st_size for p in (path, *_sides(path)) if p.exists())


def _sides(path: Path) -> list[Path]:
    return [path.with_name(path.name + s) for s in SIDE_SUFFIXES]


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # exists (another user's) or cannot tell: not ours to remove
    return True


def _stale_incoming(library: Path) -> list[Path]:
    """Import temp copies whose process is gone (a live import's own temp file is left alone)."""
    out = []
    for p in library.glob(".incoming-*.tmp") if library.is_dir() else []:
        try:
            pid = int(p.name.split("-")[1])
        except (IndexError, ValueError):
            pid = -1
        if pid < 0 or not _pid_alive(pid):
            out.append(p)
    return out


def find_leftovers(data_dir: Path) -> list[Leftover]:
    """Every set-aside copy under the data folder (the live stores and backups are not leftovers)."""
    found: list[tuple[Path, str]] = []
    for p in sorted(data_dir.glob("*.damaged-*")):
        if p.is_file() and not p.name.endswith(SIDE_SUFFIXES):
            found.append((p, "damaged catalog" if p.name.startswith("catalog.") else "damaged conversations"))
    for p in sorted(data_dir.glob("catalog.previous-*")):  # a sound catalog a rebuild on request set aside
        if p.is_file() and not p.name.endswith(SIDE_SUFFIXES):
            found.append((p, "previous catalog"))
    shard = data_dir / "index" / "shard.damaged"
    if shard.is_dir():
        found.append((shard, "damaged index"))
    found += [(p, "unfinished import copy") for p in _stale_incoming(data_dir / "library")]
    out = []
    for p, kind in found:
        with contextlib.suppress(OSError):  # removed meanwhile
            out.append(Leftover(p, kind, _size(p), p.stat().st_mtime))
    return out


def remove(path: Path) -> None:
    """Delete a leftover (a folder, or a file with its SQLite side files)."""
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
        return
    for p in (path, *_sides(path)):
        p.unlink(missing_ok=True)


def purge_leftovers(data_dir: Path, *, expired_only: bool = True, retention_days: float = RETENTION_DAYS,
                    now: float | None = None) -> list[Leftover]:
    """Remove leftovers past their retention (or all of them); returns what was removed."""
    now = time.time() if now is None else now
    gone = []
    for item in find_leftovers(data_dir):
        if expired_only and item.expires_at(retention_days) > now:
            continue
        try:
            remove(item.path)
        except OSError as exc:
            log.warning("could not remove %s: %s", item.path, exc)
            continue
        gone.append(item)
    return gone


def names_person(path: Path, needles: list[bytes]) -> bool:
    """True when any (lower-case UTF-8) needle occurs in the raw bytes of a file or its side files."""
    if not needles:
        return False
    overlap = max(len(n) for n in needles)
    for p in (path, *_sides(path)):
        if not p.exists():
            continue
        with p.open("rb") as fh:  # in blocks (a catalog copy may be large), overlapping by a needle's length
            tail = b""
            while block := fh.read(BLOCK):
                data = tail + block.lower()
                if any(n in data for n in needles):
                    return True
                tail = data[-overlap:]
    return False


def forget_in_leftovers(data_dir: Path, entry: dict, scrub_sqlite: Callable[[Path], None],
                        scrub_threads: Callable[[Path], None] | None = None) -> dict:
    """Apply a forget to every leftover; returns ``{"scrubbed": [...], "removed": [...]}`` (home-relative)."""
    needles = identity_bytes(entry)
    report: dict = {"scrubbed": [], "removed": []}
    for item in find_leftovers(data_dir):
        kept = False
        if item.kind in ("damaged catalog", "previous catalog", "damaged conversations") and needles:
            if not names_person(item.path, needles):
                continue  # never held them (e.g. set aside before they were imported)
            try:
                ((scrub_threads or _raise) if item.kind == "damaged conversations" else scrub_sqlite)(item.path)
                kept = not names_person(item.path, needles)
            except (sqlite3.Error, OSError, ValueError) as exc:
                log.info("leftover %s cannot be scrubbed (%s): removed", item.path, exc)
        if kept:
            report["scrubbed"].append(_rel(item.path, data_dir))
            continue
        remove(item.path)
        report["removed"].append(_rel(item.path, data_dir))
    return report


def _raise(path: Path) -> None:
    raise ValueError(f"no scrubber for {path}")
