"""Shared data models: the normalized CV, its provenance, chunks, evidence and answers.

``NormalizedCV`` is both what ingestion produces and what the synthetic factory writes
as ground truth, so the two can be compared field by field. Dates are partial ISO
strings (``"2019"`` or ``"2019-03"``) because CVs rarely give days.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

Section = Literal[
    "contact",
    "summary",
    "experience",
    "education",
    "skills",
    "projects",
    "certifications",
    "languages",
    "publications",
    "awards",
    "other",
]
SECTIONS: tuple[str, ...] = get_args(Section)
PartialDate = str  # "YYYY" or "YYYY-MM"
DATE_PATTERN = r"^\d{4}(-(0[1-9]|1[0-2]))?$"


LOW_CONFIDENCE = 0.5  # a value scored below this is marked "check" in the table, the detail and the CLI
CONFIDENCE_FIELDS = ("name", "current_title", "current_company")  # the candidate table's marked columns


class Provenance(BaseModel):
    """Where a field's value was read: page (0-based), bbox in PDF points, char span in the text.

    ``confidence`` (0–1) and ``reason`` say how far the extractor trusts the value and which
    cues were missing or contrary (``ingestion/fields/confidence.py``); None for records made before
    confidence existed and for fields that are not scored.
    """

    model_config = ConfigDict(extra="forbid")

    field: str
    value: str
    page: int | None = None
    bbox: tuple[float, float, float, float] | None = None
    char_start: int | None = None
    char_end: int | None = None
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    reason: str | None = None

    @property
    def low_confidence(self) -> bool:
        """True when the value was scored and the score is below :data:`LOW_CONFIDENCE`."""
        return self.confidence is not None and self.confidence < LOW_CONFIDENCE


def confidence_map(provenance, fields: tuple[str, ...] | None = None) -> dict[str, dict]:
    """``{field: {"score", "low", "reason"}}`` for the scored records (the first per field), optionally
    only ``fields``; ``provenance`` holds :class:`Provenance` objects or their dicts (a stored record)."""
    out: dict[str, dict] = {}
    for p in provenance or []:
        d = p if isinstance(p, dict) else p.model_dump()
        score = d.get("confidence")
        if score is None or d["field"] in out or (fields is not None and d["field"] not in fields):
            continue
        out[d["field"]] = {"score": score, "low": score < LOW_CONFIDENCE, "reason": d.get("reason") or ""}
    return out


class Experience(BaseModel):
    """One role in the work history."""

    model_config = ConfigDict(extra="forbid")

    title: str | None = None
    company: str | None = None
    location: str | None = None
    start: PartialDate | None = Field(default=None, pattern=DATE_PATTERN)
    end: PartialDate | None = Field(default=None, pattern=DATE_PATTERN)
    is_current: bool = False
    bullets: list[str] = Field(default_factory=list)


class Education(BaseModel):
    """One degree or course of study."""

    model_config = ConfigDict(extra="forbid")

    degree: str | None = None
    field: str | None = None
    institution: str | None = None
    start: PartialDate | None = Field(default=None, pattern=DATE_PATTERN)
    end: PartialDate | None = Field(default=None, pattern=DATE_PATTERN)


class NormalizedCV(BaseModel):
    """The structured record of one candidate.

    Derived fields (``years_of_experience``, ``current_title``, ``current_company``) are
    computed by :meth:`with_derived` from the dated roles so they are filterable facts,
    not re-guessed at query time.
    """

    model_config = ConfigDict(extra="forbid")

    name: str | None = None
    headline: str | None = None
    emails: list[str] = Field(default_factory=list)
    phones: list[str] = Field(default_factory=list)
    links: list[str] = Field(default_factory=list)
    location: str | None = None
    summary: str | None = None
    experiences: list[Experience] = Field(default_factory=list)
    education: list[Education] = Field(default_factory=list)
    skills: list[str] = Field(default_factory=list)
    languages: list[str] = Field(default_factory=list)
    certifications: list[str] = Field(default_factory=list)
    years_of_experience: float | None = None
    cv_date: PartialDate | None = Field(default=None, pattern=DATE_PATTERN)  # the CV's own date (printed, else file's)
    cv_date_source: Literal["printed", "file"] | None = None  # where cv_date comes from
    current_title: str | None = None
    current_company: str | None = None
    sections: list[Section] = Field(default_factory=list)
    provenance: list[Provenance] = Field(default_factory=list)

    def with_derived(self, as_of: dt.date | None = None) -> NormalizedCV:
        """Return a copy with years of experience (overlaps merged) and current role filled in.

        "Present" means the CV's own date when it prints one (a CV of 2015 that says
        "2015 – Present" holds one year, not eleven), else ``as_of`` (the import date).
        """
        as_of = as_of or dt.date.today()
        printed = parse_partial_date(self.cv_date, end=True)
        if printed is not None and printed < as_of:
            as_of = printed
        years = years_of_experience(self.experiences, as_of)
        current = next((e for e in self.experiences if e.is_current), None)
        title = self.current_title
        company = self.current_company
        if current is not None:
            title = current.title or title
            company = current.company or company
        elif title is None:
            title = self.headline  # no ongoing role and no headline: no current title (not the last one held)
        return self.model_copy(
            update={"years_of_experience": years, "current_title": title, "current_company": company}
        )

    @property
    def companies(self) -> list[str]:
        """Distinct employers in CV order."""
        return _distinct(e.company for e in self.experiences)

    @property
    def degrees(self) -> list[str]:
        """Degrees as printed (with the field joined when separate)."""
        out = []
        for ed in self.education:
            if ed.degree and ed.field and ed.field.lower() not in ed.degree.lower():
                out.append(f"{ed.degree} in {ed.field}")
            elif ed.degree:
                out.append(ed.degree)
        return _distinct(out)

    @property
    def institutions(self) -> list[str]:
        """Distinct institutions in CV order."""
        return _distinct(ed.institution for ed in self.education)


def _distinct(values) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for v in values:
        if v and v.casefold() not in seen:
            seen.add(v.casefold())
            out.append(v)
    return out


def parse_partial_date(value: str | None, *, end: bool = False) -> dt.date | None:
    """Turn ``"2019"``/``"2019-03"`` into a date (start or end of the period)."""
    if not value:
        return None
    parts = value.split("-")
    year = int(parts[0])
    if len(parts) == 1:
        return dt.date(year, 12, 31) if end else dt.date(year, 1, 1)
    month = int(parts[1])
    if end:
        nxt = dt.date(year + (month == 12), month % 12 + 1, 1)
        return nxt - dt.timedelta(days=1)
    return dt.date(year, month, 1)


def years_of_experience(experiences: list[Experience], as_of: dt.date) -> float | None:
    """Total years covered by dated roles, overlapping periods counted once."""
    spans: list[tuple[dt.date, dt.date]] = []
    for e in experiences:
        start = parse_partial_date(e.start)
        if start is None:
            continue
        if e.is_current:
            stop = as_of
        else:
            stop = parse_partial_date(e.end, end=True) or parse_partial_date(e.start, end=True)
        stop = min(stop, as_of)
        if stop > start:
            spans.append((start, stop))
    if not spans:
        return None
    spans.sort()
    total = 0
    cur_s, cur_e = spans[0]
    for s, e in spans[1:]:
        if s <= cur_e:
            cur_e = max(cur_e, e)
        else:
            total += (cur_e - cur_s).days
            cur_s, cur_e = s, e
    total += (cur_e - cur_s).days
    return round(total / 365.25, 1)


class Chunk(BaseModel):
    """A retrievable piece of a CV: one section (or one role). ``header`` is for embedding/BM25 only."""

    model_config = ConfigDict(extra="forbid")

    chunk_id: str
    candidate_id: str
    section: Section
    ordinal: int
    text: str
    header: str = ""
    page: int | None = None
    bbox: tuple[float, float, float, float] | None = None
    parent_id: str | None = None

    @property
    def index_text(self) -> str:
        """Text given to the embedder and BM25: contextual header + raw text."""
        return f"{self.header}\n{self.text}" if self.header else self.text


class Evidence(BaseModel):
    """A chunk handed to the answer stage, labelled with a short id the model must cite."""

    model_config = ConfigDict(extra="forbid")

    evidence_id: str
    chunk_id: str
    candidate_id: str
    candidate_name: str | None
    section: Section
    page: int | None
    text: str


class Answer(BaseModel):
    """A validated reply: ``answered`` with citations, or ``unknown`` with a reason."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["answered", "unknown"]
    answer: str
    citations: list[str] = Field(default_factory=list)
    mode: Literal["llm", "deterministic"] = "deterministic"
