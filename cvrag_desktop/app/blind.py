"""Blind screening: the library's on/off switch and the deliberate, recorded reveal of one identity.

The redaction rules themselves (pseudonyms, redacted rows, boxes on a preview) are the
catalog's; front ends reach them through :mod:`cvrag_desktop.app.rules`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cvrag_desktop.app.types import RevealResult
from cvrag_desktop.catalog.privacy.blind import BlindStore, identifiers, redact_text
from cvrag_desktop.errors import NotFound

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.catalog.privacy.blind import Reveal


class BlindOps:
    """The blind-mode setting of the library and the reveal log."""

    def __init__(self, app: App) -> None:
        self._app = app

    @property
    def _store(self):
        return BlindStore(self._app.catalog)

    def enabled(self) -> bool:
        """Whether identities are hidden in this library."""
        return self._store.enabled()

    def reveals(self, candidate_id: str | None = None) -> list[Reveal]:
        """The recorded reveals (of one candidate, or all), oldest first."""
        return self._store.reveals(candidate_id)

    def set_blind(self, on: bool) -> bool:
        """Turn blind screening on or off for this library (audited when it changes); returns the new state."""
        store = self._store
        was = store.enabled()
        store.set_enabled(bool(on))
        if was != bool(on):
            self._app.audit.record("settings.blind_mode", details={"on": bool(on)})
        return store.enabled()

    def reveal_candidate(self, candidate_id: str, by: str | None = None, reason: str = "") -> RevealResult:
        """Record a deliberate reveal of one candidate's identity; returns the candidate's unredacted row."""
        app = self._app
        row = app.catalog.candidate(candidate_id)
        if row is None:
            raise NotFound(f"No candidate with id {candidate_id!r}.")
        record = self._store.reveal(candidate_id, by, reason)
        # the reason is kept (oversight), with the person's own name and contacts cut (it outlives a forget)
        app.audit.record("blind.reveal", [candidate_id], {"reason": redact_text(record.reason, identifiers(row))},
                         actor=record.revealed_by)
        return {"id": candidate_id, "name": row.get("name"), "revealed_by": record.revealed_by,
                "revealed_at": record.revealed_at}
