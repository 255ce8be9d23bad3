"""Structured search filters and the lean point payload they run against.

Values are normalised by the same functions when a candidate is indexed and when a
filter is built (NFKD, diacritics stripped, casefolded, whitespace folded; skills and
spoken languages through the alias tables; dots dropped from free-text fields so
"S.A." = "SA" and "Ph.D." = "PhD"). Exact fields (skills, languages, emails) are
keyword matches; free-text fields (names, titles, companies, degrees, institutions,
certifications, location) match when every word of the filter value appears in one
value of the field (Qdrant ``MatchText`` on a word-tokenised, lowercased index).
Every value given for a field must match (AND). Years are whole years:
``min_years=5`` keeps 5.0+ years, ``max_years=5`` keeps fewer than 6.
"""

from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from cvrag_desktop.errors import InvalidInput
from cvrag_desktop.ingestion.lexicon import canonical_language, canonical_skill
from cvrag_desktop.ingestion.textclean import normalize_key

if TYPE_CHECKING:  # qdrant_client is only imported for server mode (it takes ~1 s to import)
    from qdrant_client import models

KEYWORD_FIELDS = ("skills", "languages", "emails", "section", "candidate_id")
FULLTEXT_FIELDS = ("name", "title", "company", "companies", "degrees", "institutions", "certifications",
                   "location")
INTEGER_FIELDS = ("years",)
_PUNCT = re.compile(r"[^\w\s]")


def skill_key(value: str) -> str:
    """Comparison key of a skill: its canonical name (alias table) normalised."""
    return normalize_key(canonical_skill(value) or value)


def language_key(value: str) -> str:
    """Comparison key of a spoken language: its English name normalised ("Alemán" → "german")."""
    base = re.split(r"[(:\-–,]", value, maxsplit=1)[0].strip() or value  # "German (C1)" → "German"
    return normalize_key(canonical_language(base) or base)


def text_key(value: str) -> str:
    """Comparison key of a free-text value: normalised, dots dropped, punctuation to spaces."""
    return " ".join(_PUNCT.sub(" ", normalize_key(value).replace(".", "")).split())


class SearchFilters(BaseModel):
    """Hard constraints on candidates; unknown fields are rejected."""

    model_config = ConfigDict(extra="forbid")

    skills: list[str] = Field(default_factory=list)
    min_years: int | None = Field(default=None, ge=0, le=80)
    max_years: int | None = Field(default=None, ge=0, le=80)
    degrees: list[str] = Field(default_factory=list)
    languages: list[str] = Field(default_factory=list)
    companies: list[str] = Field(default_factory=list)
    titles: list[str] = Field(default_factory=list)
    institutions: list[str] = Field(default_factory=list)
    certifications: list[str] = Field(default_factory=list)
    names: list[str] = Field(default_factory=list)
    emails: list[str] = Field(default_factory=list)
    location: str | None = None

    @field_validator("skills", "degrees", "languages", "companies", "titles", "institutions", "certifications",
                     "names", "emails", mode="before")
    @classmethod
    def _as_list(cls, v):
        if v is None:
            return []
        if isinstance(v, str):
            v = [v]
        return [s.strip() for s in v if isinstance(s, str) and s.strip()] if isinstance(v, list) else v

    def is_empty(self) -> bool:
        """True when no constraint is set."""
        return not any(v not in (None, [], "") for v in self.model_dump().values())

    def set_fields(self) -> list[str]:
        """Names of the constraints that are set, in declaration order."""
        return [k for k, v in self.model_dump().items() if v not in (None, [], "")]


def parse_filters(value: SearchFilters | dict | None) -> SearchFilters:
    """Validate a filter dict; unknown fields or bad values raise :class:`InvalidInput`."""
    if value is None:
        return SearchFilters()
    if isinstance(value, SearchFilters):
        return value
    if not isinstance(value, dict):
        raise InvalidInput("Filters must be a mapping of field → values.")
    try:
        f = SearchFilters.model_validate(value)
    except ValidationError as exc:
        unknown = [".".join(str(p) for p in e["loc"]) for e in exc.errors() if e["type"] == "extra_forbidden"]
        if unknown:
            allowed = ", ".join(SearchFilters.model_fields)
            raise InvalidInput(f"Unknown filter field(s): {', '.join(unknown)}. Allowed: {allowed}.") from None
        raise InvalidInput(f"Invalid filter: {exc.errors()[0]['msg']} ({exc.errors()[0]['loc']})") from None
    if f.min_years is not None and f.max_years is not None and f.min_years > f.max_years:
        raise InvalidInput("min_years is larger than max_years.")
    return f


def candidate_payload(row: dict) -> dict:
    """Filter fields of one candidate (a ``Catalog.candidate_rows`` row), normalised."""
    record = json.loads(row["record"]) if row.get("record") else {}
    years = row.get("years_of_experience")
    return {
        "skills": sorted({skill_key(s) for s in row.get("skills") or []}),
        "languages": sorted({language_key(s) for s in row.get("languages") or []}),
        "emails": sorted({normalize_key(s) for s in row.get("emails") or []}),
        "name": text_key(row.get("name") or ""),
        "title": text_key(row.get("current_title") or ""),
        "company": text_key(row.get("current_company") or ""),
        "companies": [text_key(s) for s in row.get("companies") or []],
        "degrees": [text_key(s) for s in row.get("degrees") or []],
        "institutions": [text_key(s) for s in row.get("institutions") or []],
        "certifications": [text_key(s) for s in record.get("certifications") or []],
        "location": text_key(row.get("location") or ""),
        "years": math.floor(years) if isinstance(years, int | float) else None,
    }


def _text(key: str, value: str) -> models.FieldCondition:
    from qdrant_client import models

    return models.FieldCondition(key=key, match=models.MatchText(text=text_key(value)))


def build_filter(f: SearchFilters, extra: list[models.Condition] | None = None) -> models.Filter | None:
    """The Qdrant filter for a set of constraints (None when nothing is constrained; server mode)."""
    from qdrant_client import models

    must: list[models.Condition] = list(extra or [])
    must += [models.FieldCondition(key="skills", match=models.MatchValue(value=skill_key(s))) for s in f.skills]
    must += [models.FieldCondition(key="languages", match=models.MatchValue(value=language_key(s)))
             for s in f.languages]
    must += [models.FieldCondition(key="emails", match=models.MatchValue(value=normalize_key(s))) for s in f.emails]
    must += [_text("degrees", s) for s in f.degrees]
    must += [_text("companies", s) for s in f.companies]
    must += [_text("title", s) for s in f.titles]
    must += [_text("institutions", s) for s in f.institutions]
    must += [_text("certifications", s) for s in f.certifications]
    must += [_text("name", s) for s in f.names]
    if f.location:
        must.append(_text("location", f.location))
    if f.min_years is not None or f.max_years is not None:
        must.append(models.FieldCondition(key="years", range=models.Range(gte=f.min_years, lte=f.max_years)))
    return models.Filter(must=must) if must else None


# The section that holds the fact a filter field is about, best first (search_metadata).
FIELD_SECTIONS: dict[str, tuple[str, ...]] = {
    "skills": ("skills", "experience", "summary", "projects"),
    "languages": ("languages", "summary"),
    "degrees": ("education",),
    "institutions": ("education",),
    "certifications": ("certifications", "education"),
    "companies": ("experience",),
    "titles": ("experience", "summary", "contact"),
    "min_years": ("experience", "summary"),
    "max_years": ("experience", "summary"),
    "names": ("contact",),
    "emails": ("contact",),
    "location": ("contact",),
}


def fact_values(f: SearchFilters, field: str) -> list[str]:
    """The normalised values a chunk's text should contain to hold the fact of ``field``."""
    v = getattr(f, field)
    if isinstance(v, list):
        return [text_key(x) for x in v]
    return [text_key(v)] if isinstance(v, str) else []
