"""Blind screening: pseudonyms, redaction of identifying fields, and the reveal log.

In blind mode a recruiter judges skills and experience without the cues that invite bias:
name, photo, e-mail, phone, address, date of birth / age, gender, nationality and marital
status. Candidates are shown as ``Candidate 7F3A-91C2`` (a stable short id derived from the
candidate id, so the same person keeps the same pseudonym across sessions and exports).

The structured identifying fields are replaced outright; free text (summary, chunks, chat
answers) has the candidate's own identifying strings replaced, plus labelled personal
cues ("Date of birth: …", "Nationality: …") that CVs print in the contact block. Revealing
one candidate is deliberate and recorded (who, when, which candidate) in a catalog table
whose rows go with their document, like the screening state. Qt-free: the GUI and the
CLI reach it through the application layer (``app/``).
"""

from __future__ import annotations

import getpass
import hashlib
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from cvrag_desktop.catalog.privacy.blind_lines import redact_personal
from cvrag_desktop.errors import InvalidInput
from cvrag_desktop.text.patterns import EMAIL_LIKE

HIDDEN = "[hidden]"
IDENTIFYING_FIELDS = ("name", "emails", "phones", "location", "links")
LIST_IDENTIFYING = ("emails", "phones", "links")
PATH_FIELDS = ("source_path", "file_name")  # file names often carry the person's name
BLIND_META_KEY = "blind_mode"
NAME_MARK = "\x00name:"  # a redaction string carrying the whole name: the preview covers its parts

BLIND_SCHEMA = """
CREATE TABLE IF NOT EXISTS identity_reveals (
    reveal_id INTEGER PRIMARY KEY,
    candidate_id TEXT NOT NULL,
    revealed_by TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    revealed_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS identity_reveals_candidate ON identity_reveals(candidate_id);
CREATE TRIGGER IF NOT EXISTS reveals_go_with_document AFTER DELETE ON candidates
BEGIN
    DELETE FROM identity_reveals WHERE candidate_id = OLD.candidate_id;
END;
"""


def pseudonym(person_id: str | None) -> str:
    """``Candidate 7F3A-91C2``: eight hex digits of the person id's SHA-1, stable for the same person.

    Eight, not four: with four (65,536 values) two of 1,000 people shared one pseudonym with near
    certainty (the birthday bound); with eight that is ~1 in 8,600 at 1,000 people and ~1 % at 10,000.

    The one place a pseudonym is made: table, detail, chat, job match, CSV and reveal messages
    all call it with the *person* id (a person's primary document id, ``services.list_people``),
    never a document's or a view's id, so one person has one pseudonym everywhere and two
    namesakes (two people) have two. :func:`row_pseudonym` picks the person id of a row.
    """
    digest = hashlib.sha1(str(person_id or "").encode("utf-8")).hexdigest()
    return f"Candidate {digest[:4].upper()}-{digest[4:8].upper()}"


def row_person(row: Mapping, fallback: str | None = None) -> str | None:
    """The person id of a person, document, job-match or citation row (``person_id`` before ``id``)."""
    return row.get("person_id") or fallback or row.get("id") or row.get("candidate_id")


def row_pseudonym(row: Mapping, fallback: str | None = None) -> str:
    """The pseudonym of the person a row belongs to (see :func:`pseudonym`)."""
    return pseudonym(row_person(row, fallback))


def identifiers(row: Mapping) -> list[str]:
    """The candidate's own identifying strings (name and its words, e-mails, phones, location, links).

    Longest first, so a full name is replaced before its first name.
    """
    found: set[str] = set()
    name = (row.get("name") or "").strip()
    if name:
        found.add(name)
        found.update(w for w in re.split(r"[\s,]+", name) if len(w.strip(".")) >= 3)
    for key in LIST_IDENTIFYING:
        found.update(str(v).strip() for v in row.get(key) or [] if str(v).strip())
    location = (row.get("location") or "").strip()
    if location:
        found.add(location)
    return sorted(found, key=lambda s: (-len(s), s))


def _spaced(ident: str) -> str:
    """``ident`` as a pattern whose spaces match any run of white space: a name broken over two lines
    ("Zelinda Di" / "Quorvane") is still the whole name, short parts included."""
    return r"\s+".join(re.escape(w) for w in ident.split())


def redact_text(text: str | None, idents: Iterable[str], label: str = HIDDEN) -> str:
    """``text`` with every identifying string replaced by ``label`` and labelled personal cues removed.

    Phones are matched ignoring spacing and punctuation (``+34 600 11 22 33`` also matches
    ``+34600112233``); other strings case-insensitively on word boundaries.
    """
    if not text:
        return text or ""
    out = str(text)
    for ident in idents:
        if not str(ident).strip():
            continue
        digits = re.sub(r"\D", "", ident)
        if len(digits) >= 6 and len(digits) >= len(re.sub(r"[\s().+\-/]", "", ident)) - 1:
            pattern = r"\+?" + r"[\s().\-/]{0,3}".join(re.escape(d) for d in digits)
        else:
            pattern = r"(?<!\w)" + _spaced(ident) + r"(?!\w)"
        out = re.sub(pattern, label, out, flags=re.IGNORECASE)
    out = EMAIL_LIKE.sub(label, out)
    return redact_personal(out, label)


def redact_row(row: Mapping, person_id: str | None = None) -> dict:
    """A candidate table / CSV row with the identifying fields replaced (the person's pseudonym for the
    name; ``person_id`` for a document row whose person is known elsewhere)."""
    out = dict(row)
    out["name"] = pseudonym(person_id or row_person(row))
    if "label" in out:  # a person's / document's display label starts with the name
        out["label"] = out["name"]
    for key in LIST_IDENTIFYING:
        if key in out:
            out[key] = []
    if "location" in out:
        out["location"] = None
    for key in PATH_FIELDS:
        if key in out:
            out[key] = HIDDEN
    if isinstance(out.get("confidence"), dict):  # the pseudonym is not a value to check
        out["confidence"] = {k: v for k, v in out["confidence"].items() if not is_identifying(k)}
    return out


def redact_detail(detail: Mapping, person_id: str | None = None) -> dict:
    """A full record (``services.get_candidate``) redacted for the detail panel.

    Identifying fields are replaced; free text (headline, summary, bullets, chunks) has
    the candidate's identifying strings and labelled cues removed; the contact chunks
    are dropped whole; provenance of identifying fields keeps its box (for the preview's
    redaction rectangles) but loses its value.
    """
    idents = identifiers(detail)
    out = redact_row(detail, person_id)
    for key in ("headline", "summary"):
        if out.get(key):
            out[key] = redact_text(out[key], idents)
    # a role's own fields too: a job "in" the candidate's home town tells where they live
    out["experiences"] = [
        {**e, **{k: redact_text(e[k], idents) for k in ("title", "company", "location") if e.get(k)},
         "bullets": [redact_text(b, idents) for b in e.get("bullets") or []]}
        for e in detail.get("experiences") or []
    ]
    out["education"] = [
        {**e, **{k: redact_text(e[k], idents) for k in ("degree", "field", "institution") if e.get(k)}}
        for e in detail.get("education") or []
    ] if detail.get("education") is not None else out.get("education")
    out["chunks"] = [
        {**c, "text": redact_text(c.get("text"), idents), "header": redact_text(c.get("header"), idents)}
        for c in detail.get("chunks") or [] if c.get("section") != "contact"
    ]
    out["provenance"] = [
        {**p, "value": HIDDEN} if is_identifying(p.get("field")) else dict(p)
        for p in detail.get("provenance") or []
    ]
    return out


def is_identifying(field: str | None) -> bool:
    """Whether a provenance field names an identifying value (``emails[0]`` counts as ``emails``)."""
    base = re.split(r"[\[.]", str(field or ""), maxsplit=1)[0]
    return base in IDENTIFYING_FIELDS


def redaction_boxes(provenance: Iterable[Mapping]) -> list[tuple[int, tuple[float, float, float, float]]]:
    """``(page, bbox)`` of every identifying field that has a box: the preview paints them over."""
    out = []
    for p in provenance:
        if is_identifying(p.get("field")) and p.get("bbox") is not None and p.get("page") is not None:
            out.append((int(p["page"]), tuple(float(v) for v in p["bbox"])))
    return out


def redaction_strings(record: Mapping) -> list[str]:
    """The identifying strings of a record that a preview searches on every page and covers (a name
    repeated in a footer or a second page's header has no provenance box); 3 characters or more."""
    out = [s for s in identifiers(record) if len(s.strip()) >= 3]
    name = (record.get("name") or "").strip()
    return out + ([NAME_MARK + name] if name else [])


def redact_answer(text: str, rows: Iterable[Mapping]) -> str:
    """A chat answer (or citation label) with each named candidate's name and contacts replaced.

    The name strings (and their words) become the candidate's pseudonym, so the answer still
    says who; the other identifying strings become ``[hidden]``. Contacts go first (an
    e-mail holds the name) and, across all rows, longer names before shorter ones ("Dr. Ana
    Ruiz" before another document's "Ana Ruiz"). Several rows may share an ``id`` (the
    documents of one person).
    """
    rows = list(rows)
    people: dict[str, list[str]] = {}  # name string -> pseudonyms of the people printing it
    contacts: set[str] = set()
    for row in rows:
        name = (row.get("name") or "").strip()
        own = {name, *(w for w in re.split(r"[\s,]+", name) if len(w.strip(".")) >= 3)} - {""}
        for n in own:
            mine = people.setdefault(n.casefold(), [])
            if (p := row_pseudonym(row)) not in mine:
                mine.append(p)
        contacts.update(i for i in identifiers(row) if i not in own)
    names = {n: " / ".join(ps) for n, ps in people.items()}  # namesakes: every one of them, never one for all
    out = redact_text(text or "", sorted(contacts, key=len, reverse=True))
    for n in sorted(names, key=len, reverse=True):
        out = re.sub(r"(?<!\w)" + _spaced(n) + r"(?!\w)", names[n], out, flags=re.IGNORECASE)
    return out


@dataclass
class Reveal:
    """One recorded reveal of a candidate's identity."""

    candidate_id: str
    revealed_by: str
    reason: str
    revealed_at: float


def current_user() -> str:
    """The OS account name (who revealed), or ``unknown``."""
    try:
        return getpass.getuser() or "unknown"
    except Exception:  # no login name in some sandboxes
        return "unknown"


class BlindStore:
    """The blind-mode setting (catalog ``meta``) and the reveal log (``identity_reveals``)."""

    def __init__(self, catalog) -> None:
        self.catalog = catalog

    def enabled(self) -> bool:
        """Whether blind mode is on for this library."""
        rows = self.catalog.query("SELECT value FROM meta WHERE key = ?", (BLIND_META_KEY,))
        return bool(rows) and rows[0][0] == "1"

    def set_enabled(self, on: bool) -> None:
        """Turn blind mode on or off (kept across restarts)."""
        with self.catalog.transaction() as c:
            c.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", (BLIND_META_KEY, "1" if on else "0"))

    def reveal(self, candidate_id: str, by: str | None = None, reason: str = "") -> Reveal:
        """Record that ``by`` revealed ``candidate_id`` now; returns the record."""
        if not candidate_id:
            raise InvalidInput("Say which candidate to reveal.")
        r = Reveal(str(candidate_id), by or current_user(), (reason or "").strip()[:500], time.time())
        with self.catalog.transaction() as c:
            c.execute("INSERT INTO identity_reveals(candidate_id, revealed_by, reason, revealed_at) VALUES(?,?,?,?)",
                      (r.candidate_id, r.revealed_by, r.reason, r.revealed_at))
        return r

    def reveals(self, candidate_id: str | None = None) -> list[Reveal]:
        """The reveal log, oldest first (of one candidate when given)."""
        sql = "SELECT candidate_id, revealed_by, reason, revealed_at FROM identity_reveals"
        params: tuple = ()
        if candidate_id is not None:
            sql, params = sql + " WHERE candidate_id = ?", (candidate_id,)
        return [Reveal(*tuple(r)) for r in self.catalog.query(sql + " ORDER BY reveal_id", params)]
