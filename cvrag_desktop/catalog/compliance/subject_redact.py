"""Keeping everyone else out of a subject-access export: who the subject is, and what names the others.

An access export (``subject_export.py``) is for one person, but the records about them are
shared: a chat answer cites several people, a note compares them with someone, a job
match ranks them together, an audit entry lists every reference shown. :class:`SubjectPeople`
knows, from the catalog, what identifies the subject (to find their lines) and what
identifies every other document (to remove it):

- names (whole, any case; and each part of three letters or more, capitalised as a name is,
  that the subject's own name and CV do not use), e-mails, phones (their last nine digits, however they are separated),
  candidate ids (a person's id is one of them) and file hashes: replaced by
  :data:`OTHER` ("another candidate");
- the lines of their CVs (at least :data:`MIN_LINE` characters, not in the subject's own
  CV): a quote of them is dropped (:data:`QUOTE_DROPPED`);
- audit references (``P-`` + 20 hex digits) that are not the subject's: :data:`OTHER`.

The subject's own CV records (the extracted record, chunks, provenance, the original) are
their own words and are not rewritten; everything else is (notes, tags, shortlist names and
notes, job-match titles and requirements, reveal reasons, audit entries, chat turns). Qt-free.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

OTHER = "another candidate"
QUOTE_DROPPED = "[a line of another candidate's CV, left out]"
MIN_LINE = 20
MIN_PART = 3
REF = re.compile(r"\bP-[0-9a-f]{20}\b")
NAME_PARTICLES = {"von", "van", "der", "den", "del", "della", "dos", "das", "bin", "binti", "ibn", "mrs", "miss"}


def _listed(value) -> list[str]:
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    try:
        got = json.loads(value or "[]")
    except ValueError:
        return []
    return [v for v in got if isinstance(v, str)] if isinstance(got, list) else []


def _words(strings: Iterable[str], case: bool = False) -> re.Pattern | None:
    """One pattern for whole-word occurrences of any of the strings (longest first; ``case``: as written)."""
    wanted = sorted({s.strip() for s in strings if s and len(s.strip()) >= 2}, key=len, reverse=True)
    if not wanted:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in wanted) + r")(?!\w)",
                      0 if case else re.IGNORECASE)


def _phones(phones: Iterable[str]) -> re.Pattern | None:
    """The last nine digits of each phone, whatever separates them (+44 7700 900222 = 07700900222)."""
    tails = {re.sub(r"\D", "", p)[-9:] for p in phones}
    tails = sorted(t for t in tails if len(t) >= 7)
    if not tails:
        return None
    sep = r"[\s\-./()]*"
    return re.compile(r"(?:" + "|".join(sep.join(t) for t in tails) + r")(?!\d)")  # (0 or +44 before: any)


def _name_parts(name: str) -> list[str]:
    """The words of a name worth finding alone, capitalised (matched as written: "Pike", not "pike")."""
    return [p[0].upper() + p[1:] for p in re.findall(r"[^\W\d_]+", name or "")
            if len(p) >= MIN_PART and p.casefold() not in NAME_PARTICLES]


class SubjectPeople:
    """The subject's identifiers and everyone else's, from the catalog (built once per export)."""

    def __init__(self, catalog, subject_ids: list[str], subject_refs: Iterable[str] = ()) -> None:
        mine = set(subject_ids)
        self.subject_ids = list(subject_ids)
        self.subject_refs = set(subject_refs)
        rows = [dict(r) for r in catalog.query("SELECT candidate_id, file_sha256, name, emails, phones "
                                               "FROM candidates")]
        own = [r for r in rows if r["candidate_id"] in mine]
        others = [r for r in rows if r["candidate_id"] not in mine]
        own_lines, other_lines = set(), set()
        for cid, text in catalog.query("SELECT candidate_id, text FROM chunks"):
            for line in (text or "").splitlines():
                line = " ".join(line.split())
                (own_lines if cid in mine else other_lines).add(line)
        own_text = " ".join(own_lines).casefold()
        own_names = {r["name"].casefold() for r in own if r.get("name")}
        own_parts = {p.casefold() for r in own for p in _name_parts(r.get("name") or "")}
        own_contacts = {v.casefold() for r in own for k in ("emails", "phones") for v in _listed(r.get(k))}
        # the subject: to find the lines about them
        self._mine = _words([r["name"] for r in own if r.get("name")] + list(own_parts) + list(own_contacts) +
                            list(mine))
        self._my_phones = _phones(v for r in own for v in _listed(r.get("phones")))
        # everyone else, except what the subject shares (a namesake's full name is the subject's own name too)
        names = [r["name"] for r in others if r.get("name") and r["name"].casefold() not in own_names and
                 not any(r["name"].casefold() in n for n in own_names)]
        parts = [p for r in others for p in _name_parts(r.get("name") or "")
                 if p.casefold() not in own_parts and not re.search(rf"(?<!\w){re.escape(p.casefold())}(?!\w)",
                                                                    own_text)]
        contacts = [v for r in others for v in _listed(r.get("emails")) if v.casefold() not in own_contacts]
        ids = [v for r in others for v in (r["candidate_id"], r.get("file_sha256")) if v]
        self._theirs = _words(names + contacts + ids)
        self._their_parts = _words(parts, case=True)
        self._their_phones = _phones(v for r in others for v in _listed(r.get("phones"))
                                     if v.casefold() not in own_contacts)
        self._their_lines = sorted((ln for ln in other_lines - own_lines if len(ln) >= MIN_LINE), key=len,
                                   reverse=True)

    # ---- finding --------------------------------------------------------------------------------
    def names_subject(self, text: str) -> bool:
        """Whether a text names the subject (name or a part of it, e-mail, phone, id)."""
        text = text or ""
        return bool((self._mine and self._mine.search(text)) or (self._my_phones and self._my_phones.search(text)))

    def names_others(self, text: str) -> bool:
        """Whether a text names or quotes anyone else."""
        return self.redact_text(text) != (text or "")

    # ---- removing -------------------------------------------------------------------------------
    def redact_text(self, text: str) -> str:
        """The text with everyone else's identifiers replaced by "another candidate", their CV lines dropped."""
        if not text:
            return text
        if self._their_lines:
            flat = " ".join(text.split())
            for line in self._their_lines:
                if line in flat:
                    text = text.replace(line, QUOTE_DROPPED) if line in text else QUOTE_DROPPED
                    flat = " ".join(text.split())
        for pattern in (self._theirs, self._their_parts, self._their_phones):
            if pattern is not None:
                text = pattern.sub(OTHER, text)
        return REF.sub(lambda m: m.group(0) if m.group(0) in self.subject_refs else OTHER, text)

    def redact(self, value):
        """Every string inside a JSON-able value redacted (not the keys: they are the export's own), the
        structure kept."""
        if isinstance(value, str):
            return self.redact_text(value)
        if isinstance(value, dict):
            return {k: self.redact(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.redact(v) for v in value]
        return value
