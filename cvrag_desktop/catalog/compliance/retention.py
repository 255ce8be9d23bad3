"""Retention of applicants' data: a period per library, a clock per person, consent, and the purge list.

A library chooses a retention period — a preset whose source is named, or a custom number
of days. **None of the presets is legal advice**: they are common readings of national
guidance, and the user (their data-protection officer) decides. Until one is chosen,
nobody is due.

Each person's clock runs from their **last activity**: the newest of their documents'
import, screening change, shortlist entry, saved job match, blind reveal or consent.
A person may have **consented to be kept until** a date (stored on every document, like
the screening state; rows go with their document). A person is due at the later of
``last activity + period`` and the end of the consent day. People with status *hired*
are not applicants any more and are never listed. The purge itself is the total forget
(``App.compliance.forget``), run only on a batch the user confirmed. Qt-free.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime, timedelta

from cvrag_desktop.errors import InvalidInput

NOT_LEGAL_ADVICE = ("These periods are common readings of national guidance, not legal advice: "
                    "your data-protection officer decides what applies to you.")
# preset -> (days, the source it follows)
PRESETS: dict[str, tuple[int, str]] = {
    "DE": (183, "Germany: about 6 months after a rejection — the AGG § 15(4) / § 61b ArbGG claim periods plus "
                "delivery time, as German DPAs recommend"),
    "AT": (214, "Austria: 7 months — the GlBG 6-month claim period plus delivery time (Austrian DSB decisions)"),
    "FR": (730, "France: up to 2 years after the last contact, with the candidate informed (CNIL recruitment "
                "guidance)"),
    "NL": (28, "Netherlands: 4 weeks after the procedure ends; up to 1 year with the candidate's consent "
               "(Autoriteit Persoonsgegevens, NVP Sollicitatiecode)"),
    "NL-consent": (365, "Netherlands with consent: 1 year (Autoriteit Persoonsgegevens, NVP Sollicitatiecode)"),
    "UK": (183, "United Kingdom: about 6 months — the Equality Act 3-month claim period plus margin (ICO "
                "employment practices guidance)"),
}
EXEMPT_STATUSES = ("hired",)
META_PRESET, META_DAYS = "retention_preset", "retention_days"
RETENTION_SCHEMA = """
CREATE TABLE IF NOT EXISTS retention_consent (
    candidate_id TEXT PRIMARY KEY,
    until TEXT NOT NULL,
    recorded_at REAL NOT NULL,
    recorded_by TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS consent_goes_with_document AFTER DELETE ON candidates
BEGIN
    DELETE FROM retention_consent WHERE candidate_id = OLD.candidate_id;
END;
"""
# the activity of a document: (SQL giving candidate_id, time as epoch seconds)
ACTIVITY_SQL = (
    "SELECT candidate_id, created_at FROM candidates",
    "SELECT candidate_id, updated_at FROM screening",
    "SELECT candidate_id, added_at FROM shortlist_items",
    "SELECT r.candidate_id, m.created_at FROM job_match_rows r JOIN job_matches m ON m.match_id = r.match_id",
    "SELECT candidate_id, revealed_at FROM identity_reveals",
    "SELECT candidate_id, recorded_at FROM retention_consent",
)


@dataclass
class Policy:
    """The library's retention period (``days`` None: not chosen yet)."""

    preset: str | None
    days: int | None
    source: str

    def as_dict(self) -> dict:
        """Plain fields, with the not-legal-advice notice."""
        return {**asdict(self), "notice": NOT_LEGAL_ADVICE}


@dataclass
class Clock:
    """One person's retention clock."""

    person_id: str
    documents: list[str]
    last_activity: str
    consent_until: str | None
    due: str | None
    days_left: int | None
    exempt: str | None

    def as_dict(self) -> dict:
        """Plain fields (JSON)."""
        return asdict(self)


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds")


def clean_until(value: str) -> date:
    """A consent date (YYYY-MM-DD) that is not in the past."""
    try:
        day = date.fromisoformat(str(value).strip())
    except ValueError:
        raise InvalidInput(f"A consent date is YYYY-MM-DD, not {value!r}.") from None
    if day < datetime.now(UTC).date():
        raise InvalidInput(f"The consent date {day} is in the past.")
    return day


class RetentionStore:
    """The retention policy (catalog ``meta``), consent rows and the clocks of one catalog."""

    def __init__(self, catalog) -> None:
        self.catalog = catalog

    def policy(self) -> Policy:
        """The chosen period, or one with ``days`` None."""
        meta = {r[0]: r[1] for r in self.catalog.query(
            "SELECT key, value FROM meta WHERE key IN (?, ?)", (META_PRESET, META_DAYS))}
        preset, days = meta.get(META_PRESET), meta.get(META_DAYS)
        if days is None:
            return Policy(None, None, "not chosen yet: nobody is due until a period is set")
        source = PRESETS[preset][1] if preset in PRESETS else "custom period chosen by the user"
        return Policy(preset, int(days), source)

    def set_policy(self, preset: str | None, days: int | None = None) -> Policy:
        """Choose a preset (``DE``, ``AT``, ``FR``, ``NL``, ``NL-consent``, ``UK``) or ``custom`` with ``days``."""
        key = (preset or "custom").strip()
        match = {k.casefold(): k for k in PRESETS}.get(key.casefold())
        if match:
            days = PRESETS[match][0] if days is None else days
            key = match
        elif key.casefold() != "custom":
            raise InvalidInput(f"Unknown preset {preset!r}; use one of: {', '.join(PRESETS)}, custom.")
        else:
            key = "custom"
        if days is None or int(days) < 1:
            raise InvalidInput("A custom retention period needs a number of days (1 or more).")
        with self.catalog.transaction() as c:
            c.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                          [(META_PRESET, key), (META_DAYS, str(int(days)))])
        return self.policy()

    def set_consent(self, documents: list[str], until: str | None, by: str) -> str | None:
        """Record (or with ``until`` None withdraw) a person's consent to be kept until a day, on every document."""
        day = clean_until(until).isoformat() if until else None
        with self.catalog.transaction() as c:
            for d in documents:
                if day is None:
                    c.execute("DELETE FROM retention_consent WHERE candidate_id = ?", (d,))
                else:
                    c.execute("INSERT OR REPLACE INTO retention_consent(candidate_id, until, recorded_at, "
                              "recorded_by) VALUES (?,?,?,?)", (d, day, time.time(), by))
        return day

    def _activity(self) -> dict[str, float]:
        last: dict[str, float] = {}
        for sql in ACTIVITY_SQL:
            try:
                rows = self.catalog.query(sql)
            except Exception as exc:  # (an older catalog without that table)
                if "no such table" in str(exc):
                    continue
                raise
            for cid, ts in rows:
                if ts is not None and ts > last.get(cid, 0):
                    last[cid] = float(ts)
        return last

    def clocks(self, people: Mapping[str, list[str]], statuses: Mapping[str, str],
               now: datetime | None = None) -> list[Clock]:
        """Every person's clock, soonest due first (people given as person id -> document ids)."""
        now = now or datetime.now(UTC)
        days = self.policy().days
        last = self._activity()
        consent = {r[0]: r[1] for r in self.catalog.query("SELECT candidate_id, until FROM retention_consent")}
        out = []
        for pid, docs in people.items():
            ts = max((last.get(d, 0.0) for d in docs), default=0.0)
            until = max((consent[d] for d in docs if d in consent), default=None)
            exempt = "hired: an employee now, not an applicant" if statuses.get(pid) in EXEMPT_STATUSES else None
            due = None
            if days is not None and not exempt:
                due_at = datetime.fromtimestamp(ts, UTC) + timedelta(days=days)
                if until:
                    due_at = max(due_at, datetime.combine(date.fromisoformat(until) + timedelta(days=1),
                                                          datetime.min.time(), UTC))
                due = due_at
            out.append(Clock(pid, list(docs), _iso(ts), until, due.isoformat(timespec="seconds") if due else None,
                             (due - now).days if due else None, exempt))
        return sorted(out, key=lambda c: (c.due is None, c.due or "", c.person_id))

    def due(self, people: Mapping[str, list[str]], statuses: Mapping[str, str], within_days: int = 0,
            now: datetime | None = None) -> list[Clock]:
        """The people due within ``within_days`` from now (0: due now)."""
        now = now or datetime.now(UTC)
        limit = (now + timedelta(days=within_days)).isoformat(timespec="seconds")
        return [c for c in self.clocks(people, statuses, now) if c.due is not None and c.due <= limit]
