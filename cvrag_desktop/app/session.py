"""What a front end needs around a session: where data lives, the single-instance lock, typed errors, notes.

The CLI's ``main`` and the desktop's ``run`` both start here before they build an
:class:`~cvrag_desktop.app.assembly.App`, and map an unexpected store error to the typed
message a user can act on.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cvrag_desktop.config import AppPaths, app_paths
from cvrag_desktop.errors import CatalogDamaged, CvragError, IndexDamaged

__all__ = ["AppPaths", "app_version", "default_paths", "instance_lock", "take_notes", "typed_error"]


def app_version() -> str:
    """This build's version (the About box and the diagnostics show it)."""
    import cvrag_desktop

    return cvrag_desktop.__version__


def default_paths() -> AppPaths:
    """This user's data, config and log folders (``CVRAG_HOME`` overrides them), created if missing."""
    return app_paths().ensure()


def instance_lock(data_dir: Path):
    """The lock that keeps a second desktop instance off this data folder (``acquire()`` it)."""
    from cvrag_desktop.single_instance import SingleInstanceLock

    return SingleInstanceLock(data_dir)


def typed_error(exc: BaseException, where: Path) -> CvragError | None:
    """The typed error a user can act on for an unexpected store or disk error under ``where``, or None.

    A damaged data file that is not the catalog (the catalog names itself) is the index's:
    rebuilding the index from the catalog is the remedy.
    """
    from cvrag_desktop.catalog.disk_space import disk_full, is_no_space
    from cvrag_desktop.catalog.health import typed_store_error

    typed = typed_store_error(exc, where) if isinstance(exc, OSError | sqlite3.Error) else None
    if typed is None and is_no_space(exc):  # the index engine's own words for a full disk
        typed = disk_full(where)
    if isinstance(typed, CatalogDamaged):  # not from the catalog (that one names itself): another store
        typed = IndexDamaged(f"A data file under {where} is damaged ({exc}). `cvrag reindex` rebuilds the "
                             "search index from the catalog; `cvrag doctor` shows the state of each store.")
    if typed is exc:
        return None
    return typed


def take_notes() -> list[str]:
    """What a read-only session could not save (a conversation turn, an export's audit entry), once."""
    from cvrag_desktop.catalog.read_only import take_notes as take

    return list(take())
