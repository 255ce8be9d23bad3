"""Checks shared by the operation modules before they write something the user asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cvrag_desktop.catalog.store.disk_space import ensure_room

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App


def room_to_export(app: App) -> None:
    """An export is audited: on a (nearly) full disk it is refused before its file is written."""
    if not app.catalog.read_only:
        ensure_room(app.paths.data_dir, "nothing was exported")
