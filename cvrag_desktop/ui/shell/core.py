"""First access to the lazily opened core parts from GUI workers, through the application layer.

The index and the assistant are opened on first use by the :class:`~cvrag_desktop.app.assembly.App`
(which serialises the opening itself); ``warm_up`` opens both and loads the embedding models
at start-up, so the first-time costs (imports, ONNX session, tokenizer) are paid before an
import or a question and not in the middle of one. The GUI never holds the assistant or
the index itself: it calls the ``chat`` and ``search`` operations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App


def open_index(app: App) -> None:
    """Open the search index now (at most once even when several workers ask together)."""
    app.library.open_index()


def warm_up(app: App) -> dict:
    """Open everything the first minutes need, one step after the other (runs in one worker).

    See :meth:`cvrag_desktop.app.health.HealthOps.warm_up`: ``timings`` (ms), ``doctor``
    (for the status bar) and ``llm_up``; a failure is reported as ``error``.
    """
    return app.health.warm_up()
