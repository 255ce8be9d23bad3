"""The recruiter's screening of people: status, tags, a 1–5 rating and a note; saved searches.

Screening belongs to the **person** (ARCHITECTURE §5), but a person's id is its newest
document's id and changes when a newer CV arrives, is merged or split. So the state is
stored on every document of the person (one row per document id, same values, same
time) and a person's state is the most recently updated row among its documents: a newer
CV inherits it, a merge keeps the latest decision, a split leaves both halves with it.

Rows go with their document: a trigger on ``candidates`` deletes them, in the catalog and
in the catalog backups that a forget scrubs. Candidate rows are never replaced in place
(the candidate id is the file's hash; a known hash is a duplicate), so the trigger does not
fire on a re-import. Qt-free: the GUI and the CLI reach it through the application layer (``app/``).

**Rejection is a human act.** Nothing in the app sets a status by itself (a job match flags
a missed must-have, it never rejects). A status change may carry a short reason, kept here
with the status (it goes with the document, and into a subject-access export); the audit
trail gets its preset kind (:data:`STATUS_REASONS`) or "other", and its length — never its text.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cvrag_desktop.catalog.csv_export import candidate_table, neutralise, write_csv_table
from cvrag_desktop.errors import InvalidInput, NotFound

STATUSES = ("new", "screening", "interview", "offer", "hired", "rejected")
STATUS_LABELS = {"new": "New", "screening": "Screening", "interview": "Interview", "offer": "Offer",
                 "hired": "Hired", "rejected": "Rejected"}
MAX_TAG, MAX_TAGS, MAX_NOTE, MAX_NAME, MAX_REASON = 40, 30, 4000, 80, 500
STATUS_REASONS = {"requirements_not_met": "Requirements not met", "withdrew": "Candidate withdrew",
                  "position_filled": "Position filled", "no_response": "No response",
                  "better_fit_elsewhere": "Better suited to another role"}
UNSET = object()

SCREENING_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS screening (
    candidate_id TEXT PRIMARY KEY,
    status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ({", ".join(repr(s) for s in STATUSES)})),
    rating INTEGER CHECK (rating IS NULL OR rating BETWEEN 1 AND 5),
    tags TEXT NOT NULL DEFAULT '[]',
    note TEXT NOT NULL DEFAULT '',
    updated_at REAL NOT NULL
);
CREATE TRIGGER IF NOT EXISTS screening_goes_with_document AFTER DELETE ON candidates
BEGIN
    DELETE FROM screening WHERE candidate_id = OLD.candidate_id;
END;
CREATE TABLE IF NOT EXISTS saved_searches (
    name TEXT PRIMARY KEY,
    query TEXT NOT NULL DEFAULT '',
    filters TEXT NOT NULL DEFAULT '{{}}',
    created_at REAL NOT NULL
);
"""


@dataclass
class Screening:
    """A person's screening state (the defaults mean "not screened yet")."""

    status: str = "new"
    rating: int | None = None
    tags: list[str] = field(default_factory=list)
    note: str = ""
    updated_at: float | None = None
    reason: str = ""  # why the status was set (a recruiter's words), cleared by the next status change

    def as_dict(self) -> dict:
        """Plain fields (JSON, table rows)."""
        return asdict(self)


@dataclass
class SavedSearch:
    """A named search: the query text and the filter values."""

    name: str
    query: str
    filters: dict
    created_at: float


def clean_status(status: str) -> str:
    """A known status (case-insensitive), or :class:`InvalidInput` listing the choices."""
    s = str(status or "").strip().casefold()
    if s not in STATUSES:
        raise InvalidInput(f"Unknown status {status!r}; use one of: {', '.join(STATUSES)}.")
    return s


def clean_rating(rating: object) -> int | None:
    """1–5, or None for no rating (0 and empty also clear it)."""
    if rating in (None, "", 0, "0"):
        return None
    try:
        value = int(str(rating))
    except ValueError:
        raise InvalidInput(f"A rating is a whole number from 1 to 5, not {rating!r}.") from None
    if not 1 <= value <= 5:
        raise InvalidInput(f"A rating is from 1 to 5, not {value}.")
    return value


def clean_tags(tags: Iterable[str]) -> list[str]:
    """Tags trimmed, single-spaced, without duplicates (case-insensitive), in the given order."""
    out: dict[str, str] = {}
    for t in tags:
        tag = " ".join(str(t).replace(",", " ").split())
        if not tag:
            continue
        if len(tag) > MAX_TAG:
            raise InvalidInput(f"Tags are at most {MAX_TAG} characters: {tag[:MAX_TAG]}…")
        out.setdefault(tag.casefold(), tag)
    if len(out) > MAX_TAGS:
        raise InvalidInput(f"At most {MAX_TAGS} tags per person.")
    return list(out.values())


def clean_reason(reason: str | None) -> str:
    """A status reason on one line, without NUL characters, at most :data:`MAX_REASON` characters."""
    text = " ".join((reason or "").replace("\x00", "").split())
    if len(text) > MAX_REASON:
        raise InvalidInput(f"A reason is at most {MAX_REASON} characters.")
    return text


def reason_kind(reason: str) -> str | None:
    """What the audit trail keeps of a reason: its preset key (:data:`STATUS_REASONS`), "other", or None.

    A preset followed by the recruiter's own words ("Position filled: hired internally", as the
    GUI writes a preset with details) keeps the preset's key."""
    text = (reason or "").strip().casefold()
    if not text:
        return None
    head = text.split(":", 1)[0].strip()
    return next((k for k, label in STATUS_REASONS.items() if head in (k, label.casefold())), "other")


def clean_note(note: str | None) -> str:
    """A note without NUL characters, at most :data:`MAX_NOTE` characters."""
    text = (note or "").replace("\x00", "").strip()
    if len(text) > MAX_NOTE:
        raise InvalidInput(f"Notes are at most {MAX_NOTE} characters.")
    return text


class ScreeningStore:
    """Read and change people's screening state and the saved searches of one catalog."""

    def __init__(self, catalog) -> None:
        self.catalog = catalog

    def _has_reason(self) -> bool:
        """Whether the screening table has its ``reason`` column (added here to a catalog made before it)."""
        have = getattr(self.catalog, "_screening_reason", None)
        if have is None:
            have = "reason" in {r[1] for r in self.catalog.query("PRAGMA table_info(screening)")}
            if not have and not getattr(self.catalog, "read_only", False):
                with self.catalog.transaction() as c:
                    c.execute("ALTER TABLE screening ADD COLUMN reason TEXT NOT NULL DEFAULT ''")
                have = True
            self.catalog._screening_reason = have
        return have

    def _rows(self, doc_ids: list[str]) -> dict[str, Screening]:
        out: dict[str, Screening] = {}
        for start in range(0, len(doc_ids), 500):
            part = doc_ids[start:start + 500]
            marks = ",".join("?" * len(part))
            for r in self.catalog.query(f"SELECT * FROM screening WHERE candidate_id IN ({marks})", part):
                out[r["candidate_id"]] = Screening(r["status"], r["rating"], json.loads(r["tags"] or "[]"),
                                                   r["note"], r["updated_at"],
                                                   r["reason"] if "reason" in r.keys() else "")  # noqa: SIM118 (a Row)
        return out

    def states(self, people: Mapping[str, list[str]]) -> dict[str, Screening]:
        """Person id -> state, given each person's document ids (the latest row among them, else defaults)."""
        rows = self._rows([d for docs in people.values() for d in docs])
        out = {}
        for pid, docs in people.items():
            found = [rows[d] for d in docs if d in rows]
            out[pid] = max(found, key=lambda s: s.updated_at or 0) if found else Screening()
        return out

    def update(self, people: Mapping[str, list[str]], *, status: str | None = None, rating: object = UNSET,
               note: str | None = None, tags: Iterable[str] | None = None, add_tags: Iterable[str] = (),
               remove_tags: Iterable[str] = (), reason: str | None = None) -> dict[str, Screening]:
        """Change the state of people (each given with its document ids), atomically; returns the new states.

        Only the given fields change: ``tags`` replaces the list, ``add_tags``/``remove_tags``
        edit each person's own list (bulk tagging keeps other tags). ``reason`` goes with a
        ``status`` (a status set without one clears the previous reason).
        """
        if reason and status is None:
            raise InvalidInput("A reason goes with a status change: give the status too.")
        reason = clean_reason(reason)
        status = clean_status(status) if status is not None else None
        rating = clean_rating(rating) if rating is not UNSET else UNSET
        note = clean_note(note) if note is not None else None
        tags = clean_tags(tags) if tags is not None else None
        add, remove = clean_tags(add_tags), {t.casefold() for t in clean_tags(remove_tags)}
        current = self.states(people)
        now = time.time()
        out: dict[str, Screening] = {}
        rows = []
        for pid, docs in people.items():
            s = current[pid]
            new_tags = list(tags if tags is not None else s.tags)
            new_tags = clean_tags([t for t in new_tags + add if t.casefold() not in remove])
            new = Screening(status or s.status, s.rating if rating is UNSET else rating, new_tags,
                            s.note if note is None else note, now, reason if status is not None else s.reason)
            out[pid] = new
            rows += [(d, new.status, new.rating, json.dumps(new.tags, ensure_ascii=False), new.note, now, new.reason)
                     for d in dict.fromkeys(docs)]
        has_reason = self._has_reason()
        with self.catalog.transaction() as c:
            if has_reason:
                c.executemany("INSERT OR REPLACE INTO screening(candidate_id, status, rating, tags, note, updated_at, "
                              "reason) VALUES (?,?,?,?,?,?,?)", rows)
            else:
                c.executemany("INSERT OR REPLACE INTO screening(candidate_id, status, rating, tags, note, "
                              "updated_at) VALUES (?,?,?,?,?,?)", [r[:6] for r in rows])
        return out

    def all_tags(self) -> list[str]:
        """Every tag in use, by how many documents carry it."""
        counts: dict[str, int] = {}
        for (tags,) in self.catalog.query("SELECT tags FROM screening WHERE tags != '[]'"):
            for t in json.loads(tags):
                counts[t] = counts.get(t, 0) + 1
        return sorted(counts, key=lambda t: (-counts[t], t.casefold()))

    # ---- saved searches ----------------------------------------------------------------------
    def saved_searches(self) -> list[SavedSearch]:
        """Every saved search, by name."""
        rows = self.catalog.query("SELECT * FROM saved_searches ORDER BY name COLLATE NOCASE")
        return [SavedSearch(r["name"], r["query"], json.loads(r["filters"]), r["created_at"]) for r in rows]

    def save_search(self, name: str, query: str, filters: Mapping) -> SavedSearch:
        """Save (or replace) a named search; filter sets are stored as sorted lists."""
        clean = " ".join(str(name or "").split())
        if not clean:
            raise InvalidInput("Give the saved search a name.")
        if len(clean) > MAX_NAME:
            raise InvalidInput(f"Names are at most {MAX_NAME} characters.")
        plain = {k: sorted(v) if isinstance(v, set | frozenset) else v for k, v in dict(filters).items()}
        saved = SavedSearch(clean, str(query or "").strip(), plain, time.time())
        with self.catalog.transaction() as c:
            c.execute("INSERT OR REPLACE INTO saved_searches(name, query, filters, created_at) VALUES (?,?,?,?)",
                      (saved.name, saved.query, json.dumps(plain, ensure_ascii=False), saved.created_at))
        return saved

    def delete_search(self, name: str) -> None:
        """Remove a saved search."""
        with self.catalog.transaction() as c:
            if not c.execute("DELETE FROM saved_searches WHERE name = ?", (name,)).rowcount:
                raise NotFound(f"No saved search named {name!r}.")


SCREENING_COLUMNS = (("Status", "status"), ("Rating", "rating"), ("Tags", "tags"), ("Screening note", "note"))


def export_people_csv(rows: Iterable[Mapping], path: Path, notes: Mapping[str, str] | None,
                      states: Mapping[str, Screening]) -> int:
    """The candidates CSV (see ``csv_export.candidate_table``) with the screening columns after the name.

    Same file rules as ``csv_export.export_candidates_csv`` (UTF-8 with BOM, formulas made inert,
    written atomically); returns the number of rows.
    """
    rows = list(rows)
    table = candidate_table(rows, notes)
    at = 2 if notes is not None else 1
    table[0][at:at] = [h for h, _ in SCREENING_COLUMNS]
    for line, row in zip(table[1:], rows, strict=True):
        s = states.get(str(row.get("id"))) or Screening()
        values = [STATUS_LABELS[s.status], s.rating, s.tags, s.note]
        line[at:at] = [neutralise(v) for v in values]
    return write_csv_table(table, path) - 1
