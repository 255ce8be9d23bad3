"""Blind screening in the GUI: the toggle, the redaction of table rows / detail / preview / chat, the reveal.

:class:`BlindMode` is the one source of truth of the state (on/off from the catalog, the people
revealed in this session) and holds the checkable action shown in the View menu and the
toolbar. Every view that shows a person subscribes to it (:meth:`BlindMode.follow`): switching
the mode, either way, or a reveal redraws every open view (table, detail, each preview, the chat's
transcript and citations, job match, its saved matches and the open dialogs), not only the ones
opened afterwards. ``generation`` counts the changes, so a view whose worker redacted under an
older state redraws once more. The redaction itself is ``catalog/privacy/blind.py`` (Qt-free); this module only applies
it to what the panes display. A reveal is asked for, confirmed and recorded in the
catalog (who, when, which candidate) by a worker before the identity is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

import json
from contextlib import suppress

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction

from cvrag_desktop.app.rules import (
    HIDDEN,
    identifiers,
    pseudonym,
    redact_answer,
    redact_detail,
    redact_row,
    redact_text,
    redaction_boxes,
    redaction_strings,
    row_pseudonym,
)

ROW_TEXT_KEYS = ("label",)


class BlindMode(QObject):
    """Whether identities are hidden, and who was deliberately revealed this session."""

    changed = Signal(bool)  # blind mode switched on/off
    revealed_changed = Signal(str)  # a person was revealed (their id)

    def __init__(self, services: App, parent=None) -> None:
        super().__init__(parent)
        self.services = services
        try:
            self.enabled = services.blind.enabled()
        except Exception:  # a damaged or read-only catalog: start open, the catalog error shows elsewhere
            self.enabled = False
        self.revealed: set[str] = set()
        self.generation = 0  # +1 on every switch or reveal: a result redacted under an older state is stale
        self.action = QAction("&Blind screening", self)
        self.action.setCheckable(True)
        self.action.setChecked(self.enabled)
        self.action.setToolTip("Hide names, photos, contacts, address, age, gender, nationality and marital "
                               "status; candidates show as “Candidate 7F3A”")
        self.action.toggled.connect(self.set_enabled)

    def set_enabled(self, on: bool) -> None:
        """Switch blind mode (remembered in the library); revealed people are hidden again."""
        on = bool(on)
        if on == self.enabled and self.action.isChecked() == on:
            return
        self.enabled = on
        self.revealed.clear()
        self.generation += 1
        self.action.blockSignals(True)
        self.action.setChecked(on)
        self.action.blockSignals(False)
        with suppress(Exception):  # a read-only library: the mode still applies for this session
            self.services.blind.set_blind(on)
        self.changed.emit(on)

    def follow(self, view: QObject, redraw) -> None:
        """Subscribe ``view``: ``redraw()`` runs whenever blind screening is switched (either way) or someone
        is revealed, and the view shows what it shows again under the new state; until ``view`` is destroyed."""
        def call(*_args) -> None:
            with suppress(RuntimeError):  # the view's C++ side went first
                redraw()

        def drop(*_args) -> None:
            for signal in (self.changed, self.revealed_changed):
                with suppress(RuntimeError, TypeError):
                    signal.disconnect(call)

        self.changed.connect(call)
        self.revealed_changed.connect(call)
        view.destroyed.connect(drop)

    def hides(self, person_id: str | None, document_ids: list[str] | None = None) -> bool:
        """Whether this person's identity is hidden now."""
        if not self.enabled:
            return False
        ids = {person_id, *(document_ids or [])}
        return not (ids & self.revealed)

    def mark_revealed(self, ids: list[str]) -> None:
        """After the reveal is recorded: show these ids (a person and its documents) openly."""
        self.revealed.update(i for i in ids if i)
        self.generation += 1
        self.revealed_changed.emit(ids[0] if ids else "")

    # ---- applying the redaction -----------------------------------------------------------
    def table_rows(self, rows: list[dict]) -> list[dict]:
        """Person rows for the table with hidden identities (search text too)."""
        if not self.enabled:
            return rows
        out = []
        for r in rows:
            if not self.hides(r.get("id"), r.get("document_ids")):
                out.append(r)
                continue
            idents = identifiers(r)
            for d in r.get("document_rows") or []:
                idents += identifiers(d)
            red = redact_row(r)
            for key in ROW_TEXT_KEYS:
                if key in red:
                    red[key] = red["name"]
            red["document_rows"] = [redact_row(d, r.get("id")) for d in r.get("document_rows") or []]
            if "_text" in red:
                red["_text"] = redact_text(red["_text"], idents, "")
            out.append(red)
        return out

    def detail(self, rec: dict, documents: list[dict], person_id: str | None = None
               ) -> tuple[dict, list[dict], list]:
        """(record, documents, preview redactions) for the detail panel: provenance boxes, and the
        identifying strings the preview covers wherever else a page prints them."""
        if not self.hides(person_id or rec.get("id"), [d.get("id") for d in documents]):
            return rec, documents, []
        boxes = redaction_boxes(rec.get("provenance") or []) + redaction_strings(rec)
        return redact_detail(rec, person_id), [redact_row(d, person_id) for d in documents], boxes

    def answer(self, text: str, rows: list[dict]) -> str:
        """A chat answer (or citation label) with the hidden candidates' names and contacts replaced."""
        if not self.enabled:
            return text
        return redact_answer(text, [r for r in rows if self.hides(r.get("id"), [r.get("document_id")])])

    def export_rows(self, rows: list[dict]) -> list[dict]:
        """Rows for a CSV export in blind mode: every identity hidden (a reveal is for the screen only)."""
        if not self.enabled:
            return rows
        return [redact_row(r) for r in rows]


__all__ = ["HIDDEN", "BlindMode", "pseudonym"]


def blind_export(services: App, rows: list[dict], notes: dict | None, states: dict) -> tuple[list[dict], dict | None, dict]:
    """(rows, notes, screening states) for a blind CSV: pseudonyms, and names or contacts cut from notes.

    Runs in a worker: the table rows may already be redacted, so the identifying strings
    come from the catalog's own rows.
    """
    from dataclasses import replace

    raw = {r["id"]: r for r in services.people.list_candidates()}

    def idents(person: dict) -> list[str]:
        out: list[str] = []
        for d in person.get("document_ids") or [person.get("id")]:
            out += identifiers(raw.get(d) or {})
        return out

    by_id = {str(r.get("id")): r for r in rows}
    if notes is not None:
        notes = {k: redact_text(v, idents(by_id.get(k) or {"id": k})) for k, v in notes.items()}
    states = {k: replace(s, note=redact_text(s.note, idents(by_id.get(k) or {"id": k})) if s.note else s.note)
              for k, s in states.items()}
    return [redact_row(r) for r in rows], notes, states


def reveal_current(pane) -> None:
    """Context menu "Reveal identity…": confirm, record the reveal (worker), then show the person openly."""
    cid = pane.current_id
    blind = pane.blind
    if not cid or blind is None or not blind.hides(cid):
        return
    row = pane.model.row(cid) or {}
    docs = list(row.get("document_ids") or [cid])
    if not pane.confirm("Reveal identity",
                        f"Reveal the identity of {pseudonym(cid)}?\n\nThe reveal is recorded in the library "
                        "(who, when, which candidate). Other candidates stay hidden."):
        return
    svc = pane.services

    def done(_result: dict) -> None:
        pane.message.show_message(f"{pseudonym(cid)} revealed; the reveal is recorded.", "info")
        blind.mark_revealed([cid, *docs])  # every open view redraws (BlindMode.follow): the pane reloads

    pane.runner.run(lambda ctx: svc.blind.reveal_candidate(cid), on_result=done, on_error=pane._error)


def _people_rows(rows: list[dict]) -> list[dict]:
    """Person rows flattened to one row per document, ``id`` the person's, ``document_id`` the document's."""
    if rows and any("document_rows" in r for r in rows):
        return [{**d, "id": r.get("id"), "document_id": d.get("id")}
                for r in rows for d in (r.get("document_rows") or [r])]
    return rows


def _cited(result: object, out: set[str]) -> set[str]:
    """Every person or document id a chat result refers to (citations, rows)."""
    if isinstance(result, list):
        for v in result:
            _cited(v, out)
    elif isinstance(result, dict):
        for k, v in result.items():
            if k in ("candidate_id", "person_id", "id") and isinstance(v, str):
                out.add(v)
            elif isinstance(v, dict | list):
                _cited(v, out)
    return out


def _own_first(rows: list[dict], ids: set[str]) -> list[dict]:
    """The rows with a namesake's name dropped where the person named by ``ids`` prints it: the name then
    becomes that person's pseudonym only (the other one's contacts are still cut)."""
    own = [r for r in rows if ids & {r.get("id"), r.get("document_id")}]
    if not own:
        return rows
    names = {(r.get("name") or "").strip().casefold() for r in own}
    return own + [{**r, "name": None} if (r.get("name") or "").strip().casefold() in names else r
                  for r in rows if r not in own]


def blind_result(blind: BlindMode, result: object, rows: list[dict], _top: bool = True) -> object:
    """A chat result with every string (answer, citation labels, quotes, facts) redacted; ids and boxes kept.

    ``rows`` are person rows with their ``document_rows`` (``services.list_people``): a name
    read from any document of a person becomes that person's pseudonym, as in the table. A
    citation or row of one person names that person only; the answer text, when namesakes
    share a name, names the one it cites (both when it cites both).
    """
    rows = _people_rows(rows)
    if _top and isinstance(result, dict | list):
        rows = _own_first(rows, _cited(result, set()))
    if isinstance(result, str):
        return blind.answer(result, rows)
    if isinstance(result, list):
        return [blind_result(blind, v, rows, False) for v in result]
    if isinstance(result, dict):
        ids = {v for k, v in result.items() if k in ("candidate_id", "person_id") and isinstance(v, str)}
        here = _own_first(rows, ids) if ids else rows
        return {k: v if k == "id" or k.endswith("_id") or k.endswith("_ids") else blind_result(blind, v, here, False)
                for k, v in result.items()}
    return result


def preview_boxes(services: App, candidate_id: str | None) -> list:
    """Redactions for the preview of one document: its identifying fields' boxes and strings (call in a
    worker; see :meth:`BlindMode.detail`)."""
    rec = services.people.candidate_row(candidate_id) if candidate_id else None
    if not rec:
        return []
    record = json.loads(rec["record"])
    return redaction_boxes(record.get("provenance") or []) + redaction_strings(record)


def _match_person(c: dict) -> str:
    return str(c.get("person_id") or c.get("candidate_id") or "")


def blind_match(blind: BlindMode, result: dict, rows: list[dict]) -> dict:
    """A job-match result as shown in blind mode: hidden candidates under their pseudonym, names and
    contacts cut from evidence quotes; ids, scores and cells kept (``rows`` as for :func:`blind_result`)."""
    shown = blind_result(blind, result, rows)
    for c in shown.get("candidates") or []:
        if blind.hides(_match_person(c), [c.get("candidate_id")]):
            c["name"] = row_pseudonym(c)
    return shown


def blind_hits(blind: BlindMode | None, services: App, ranked: list) -> list:
    """Ranked-search hits (``ui/ranking.PersonHit``) with the best-match text of hidden people redacted:
    their names, contacts and private-life lines (a street address, a date of birth) cut (call in a worker)."""
    if blind is None or not blind.enabled or not ranked:
        return ranked
    people = {r.get("id"): r for r in services.people.list_people(with_documents=True)}
    for hit in ranked:
        row = people.get(hit.person_id) or {}
        if not blind.hides(hit.person_id, row.get("document_ids")):
            continue
        idents = identifiers(row)
        for d in row.get("document_rows") or []:
            idents += identifiers(d)
        hit.text = redact_text(hit.text, sorted(set(idents), key=len, reverse=True))
    return ranked


def blind_titles(blind: BlindMode, threads: list[dict], rows: list[dict]) -> list[dict]:
    """Conversation list rows (``assistant.threads()``) with the hidden people's names and contacts in their
    titles replaced, as in the answers (call in a worker)."""
    if not blind.enabled:
        return threads
    flat = _people_rows(rows)
    return [{**t, "title": blind.answer(t["title"], flat)} if t.get("title") else t for t in threads]


def shown_turns(blind: BlindMode | None, services: App, turns: list[tuple]) -> list[tuple]:
    """A conversation's turns ``(role, question or saved message, full result)`` as displayed: redacted like
    the answers when ``blind`` is given (call in a worker; ids and boxes kept)."""
    if blind is None or not turns:
        return turns
    rows = services.people.list_people(with_documents=True)
    return [(role, None if message is None else blind_result(blind, message, rows),
             None if full is None else blind_result(blind, full, rows)) for role, message, full in turns]
