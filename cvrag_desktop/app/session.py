"""What a front end needs around a session: where data lives, the single-instance lock, typed errors, notes.

The CLI's ``main`` and the desktop's ``run`` both start here before they build an
:class:`~cvrag_desktop.app.assembly.App`, and map an unexpected store error to the typed
message a user can act on.
"""

from __future__ import annotations

from pathlib import Path

import cvrag_desktop
from cvrag_desktop.catalog.store.read_only import take_notes as take
from cvrag_desktop.catalog.store_errors import typed_error as typed
from cvrag_desktop.config import AppPaths, app_paths
from cvrag_desktop.errors import CvragError
from cvrag_desktop.single_instance import SingleInstanceLock

__all__ = ["AppPaths", "app_version", "default_paths", "instance_lock", "take_notes", "typed_error"]


def app_version() -> str:
    """This build's version (the About box and the diagnostics show it)."""
    return cvrag_desktop.__version__


def default_paths() -> AppPaths:
    """This user's data, config and log folders (``CVRAG_HOME`` overrides them), created if missing."""
    return app_paths().ensure()


def instance_lock(data_dir: Path):
    """The lock that keeps a second desktop instance off this data folder (``acquire()`` it)."""
    return SingleInstanceLock(data_dir)


def typed_error(exc: BaseException, where: Path) -> CvragError | None:
    """The typed error a user can act on for an unexpected store or disk error under ``where``, or None.

    Which store raised it (and in which database's words) is the catalog's to tell
    (``catalog/store_errors.py``).
    """
    return typed(exc, where)


def take_notes() -> list[str]:
    """What a read-only session could not save (a conversation turn, an export's audit entry), once."""
    return list(take())
