"""The typed error a user can act on, for an unexpected failure of a data store or the disk.

Store-specific exception types (``sqlite3.Error``, the index engine's own messages) are
recognised here, in the catalog room, so the application layer above need not know which
database holds the data.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cvrag_desktop.catalog.store.disk_space import disk_full, is_no_space
from cvrag_desktop.catalog.store.health import typed_store_error
from cvrag_desktop.errors import CatalogDamaged, CvragError, IndexDamaged


def typed_error(exc: BaseException, where: Path) -> CvragError | None:
    """The typed error for ``exc`` raised under the data folder ``where``, or None when there is none.

    A damaged data file that is not the catalog (the catalog names itself) is the index's:
    rebuilding the index from the catalog is the remedy.
    """
    typed = typed_store_error(exc, where) if isinstance(exc, OSError | sqlite3.Error) else None
    if typed is None and is_no_space(exc):  # the index engine's own words for a full disk
        typed = disk_full(where)
    if isinstance(typed, CatalogDamaged):  # not from the catalog (that one names itself): another store
        typed = IndexDamaged(f"A data file under {where} is damaged ({exc}). `cvrag reindex` rebuilds the "
                             "search index from the catalog; `cvrag doctor` shows the state of each store.")
    if typed is exc:
        return None
    return typed
