"""Drag-and-drop of local files and folders, shared by the import pane and the welcome screen."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QDragEnterEvent, QDropEvent


def accept_local_drag(event: QDragEnterEvent) -> None:
    """Accept a drag that carries local files or folders; ignore anything else (text, web links)."""
    if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
        event.acceptProposedAction()
    else:
        event.ignore()


def dropped_paths(event: QDropEvent) -> list[Path]:
    """The local paths of a drop (accepted when there are any)."""
    paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
    if paths:
        event.acceptProposedAction()
    return paths
