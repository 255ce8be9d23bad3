"""Structured facts of every candidate, filter matching over them, and the chunk that holds a fact.

Analytics and filter answers are computed here, in code, over the catalog (the source
of truth), never by a model. A fact is cited by the chunk whose page and box contain
the line the value was read from (the catalog's provenance), falling back to the chunk
whose text contains the value; so a citation always points at text that shows it.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import threading
from dataclasses import dataclass, field

from cvrag_desktop.assistant.facts.claims import degree_claims
from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.queries import candidate_fingerprint, education_chunk_rows
from cvrag_desktop.domain import Chunk, parse_partial_date
from cvrag_desktop.index.filters import candidate_payload
from cvrag_desktop.text.keys import text_key
from cvrag_desktop.text.rules import (
    has_skill_key,
    held_levels,
    holds_level,
    speaks_key,
    words_in,
    years_pass,
    years_within,
)
from cvrag_desktop.text.vocab.degrees import DegreeClaim
from cvrag_desktop.text.vocab.languages import language_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.skills import canonical_skill, skill_key

FIELD_SECTION = {"skills": "skills", "languages": "languages", "location": "contact", "name": "contact",
                 "emails": "contact", "phones": "contact", "certifications": "certifications"}


@dataclass
class CandidateFacts:
    """One candidate's record, filter payload and degree levels."""

    candidate_id: str
    name: str
    source_path: str | None
    record: dict
    payload: dict
    levels: set[str] = field(default_factory=set)  # held degree levels (expected ones left out)
    imported_at: float = 0.0  # when the document was imported (breaks ties of "newest document" as the browser does)
    claims: list[DegreeClaim] = field(default_factory=list)  # every printed degree, held or expected

    @property
    def years(self) -> float | None:
        """Total years of experience (overlaps merged), as stored at import."""
        return self.record.get("years_of_experience")


def role_span(role: dict, as_of: dt.date) -> tuple[dt.date, dt.date] | None:
    """Start and end date of a role (today for a current role); None when undated or open-ended."""
    start = parse_partial_date(role.get("start"))
    if start is None:
        return None
    if role.get("is_current"):
        end = as_of
    else:
        end = parse_partial_date(role.get("end"), end=True)
        if end is None:
            return None
    end = min(end, as_of)
    return (start, end) if end >= start else None


def span_years(days: int) -> float:
    """Days as years, one decimal (the unit every analytics answer uses)."""
    return round(days / 365.25, 1)


def role_skills(role: dict) -> set[str]:
    """Canonical skills mentioned in a role's title and bullets."""
    text = " ".join([role.get("title") or "", *role.get("bullets", [])])
    out = set()
    for m in load_lexicon().skill_pattern.finditer(text):
        canon = canonical_skill(m.group(0))
        if canon:
            out.add(canon)
    return out


class CatalogFacts:
    """Parsed records of all candidates, reloaded when the catalog changes."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._facts: dict[str, CandidateFacts] = {}
        self._chunks: dict[str, list[Chunk]] = {}

    def all(self) -> dict[str, CandidateFacts]:
        """Every candidate's facts by id."""
        key = candidate_fingerprint(self.catalog)
        with self._lock:
            if key != self._key:
                facts = {}
                education = education_texts(self.catalog)
                for r in self.catalog.candidate_rows():
                    rec = json.loads(r["record"])
                    claims = degree_claims(rec, education.get(r["candidate_id"], ""))
                    facts[r["candidate_id"]] = CandidateFacts(r["candidate_id"], r.get("name") or "(no name)",
                                                              r.get("source_path"), rec, candidate_payload(r),
                                                              held_levels(claims), float(r.get("created_at") or 0.0),
                                                              claims)
                self._facts, self._chunks, self._key = facts, {}, key
            return self._facts

    def get(self, candidate_id: str) -> CandidateFacts | None:
        """One candidate's facts."""
        return self.all().get(candidate_id)

    def chunks(self, candidate_id: str) -> list[Chunk]:
        """A candidate's chunks (cached with the facts)."""
        if candidate_id not in self._chunks:
            self._chunks[candidate_id] = self.catalog.chunks(candidate_id)
        return self._chunks[candidate_id]

    # ---- filters -----------------------------------------------------------------------
    def matches(self, f: CandidateFacts, filters: dict) -> bool:
        """True when the candidate passes every filter (same semantics as the index filters)."""
        p = f.payload
        if filters.get("within") is not None and f.candidate_id not in filters["within"]:
            return False  # a follow-up: only the previous answer's people
        if not all(has_skill_key(p["skills"], s) for s in filters.get("skills", [])):
            return False
        if not all(speaks_key(p["languages"], s) for s in filters.get("languages", [])):
            return False
        for key, field_name in (("companies", "companies"), ("degrees", "degrees"), ("institutions", "institutions"),
                                ("certifications", "certifications"), ("titles", "title"), ("names", "name")):
            for value in filters.get(key, []):
                if not words_in(value, p[field_name]):
                    return False
        if filters.get("location") and not words_in(filters["location"], p["location"]):
            return False
        if not years_within(p.get("years"), filters.get("min_years"), filters.get("max_years")):
            return False  # whole years, as the index and the facets count them
        if not years_pass(f.years, filters):  # "more than 10 years": 10.5 passes, 10.0 does not
            return False
        if filters.get("min_degree_level") and not holds_level(f.claims, filters["min_degree_level"], at_least=True):
            return False
        return not (filters.get("degree_level") and filters["degree_level"] not in f.levels)

    def matching(self, filters: dict) -> list[CandidateFacts]:
        """Every candidate passing the filters, most experienced first, then by name."""
        out = [f for f in self.all().values() if self.matches(f, filters)]
        return sorted(out, key=lambda f: (-(f.years or 0), f.name))

    # ---- evidence ----------------------------------------------------------------------
    def chunk_for(self, candidate_id: str, field_name: str, value: str | None = None,
                  section: str | None = None) -> Chunk | None:
        """The chunk holding a fact: provenance box first, then text containing the value, then the section."""
        f = self.get(candidate_id)
        chunks = self.chunks(candidate_id)
        if f is None or not chunks:
            return None
        for prov in f.record.get("provenance", []):
            if prov["field"] != field_name or (value is not None and not _same(prov["value"], value, field_name)):
                continue
            hit = _chunk_at(chunks, prov)
            if hit is not None and (value is None or holds(hit.text, prov["value"], field_name)):
                return hit
        if value:
            sect = section or FIELD_SECTION.get(field_name.split("[")[0])
            pool = sorted(chunks, key=lambda c: (c.section != sect, c.ordinal))
            for c in pool:
                if holds(c.text, value, field_name):
                    return c
        sect = section or FIELD_SECTION.get(field_name.split("[")[0])
        return next((c for c in chunks if c.section == sect), None)

    def role_chunk(self, candidate_id: str, index: int) -> Chunk | None:
        """The chunk of the candidate's ``index``-th role (its title/company line)."""
        f = self.get(candidate_id)
        role = f.record["experiences"][index] if f else {}
        for part in ("company", "title"):
            if role.get(part):
                c = self.chunk_for(candidate_id, f"experiences[{index}].{part}", role[part], "experience")
                if c is not None and holds(c.text, role[part], part):
                    return c
        return None


def education_texts(catalog: Catalog) -> dict[str, str]:
    """Each candidate's education chunks as one text (one query): where "In Progress" is printed."""
    out: dict[str, list[str]] = {}
    for r in education_chunk_rows(catalog):
        out.setdefault(r[0], []).append(r[1])
    return {cid: "\n".join(parts) for cid, parts in out.items()}


def _same(a: str, b: str, field_name: str) -> bool:
    if field_name == "skills":
        return skill_key(a) == skill_key(b)
    if field_name == "languages":
        return language_key(a) == language_key(b)
    return text_key(a) == text_key(b)


def holds(text: str, value: str, field_name: str) -> bool:
    """Does the chunk text show the value (word-level, normalised; skills/languages through aliases)?"""
    body = f" {text_key(text)} "
    if not value:
        return False
    if field_name.startswith("skills"):
        lex = load_lexicon()
        return any(skill_key(m.group(0)) == skill_key(value) for m in lex.skill_pattern.finditer(text)) or \
            f" {text_key(value)} " in body
    if field_name.startswith("languages"):
        lex = load_lexicon()
        return any(language_key(m.group(0)) == language_key(value) for m in lex.language_re.finditer(text))
    return f" {text_key(value)} " in body or text_key(value).replace(" ", "") in body.replace(" ", "")


def _chunk_at(chunks: list[Chunk], prov: dict) -> Chunk | None:
    if prov.get("page") is None or not prov.get("bbox"):
        return None
    x0, y0, x1, y1 = prov["bbox"]
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    inside = [c for c in chunks if c.page == prov["page"] and c.bbox and
              c.bbox[0] - 1 <= cx <= c.bbox[2] + 1 and c.bbox[1] - 1 <= cy <= c.bbox[3] + 1]
    if not inside:
        return None
    return min(inside, key=lambda c: (c.bbox[2] - c.bbox[0]) * (c.bbox[3] - c.bbox[1]))


def words_of(text: str) -> set[str]:
    """Normalised words of a text (for support checks)."""
    return set(re.findall(r"\w+", text_key(text)))
