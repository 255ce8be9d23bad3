"""Structured search filters and the lean point payload they run against.

Values are normalised by the same functions when a candidate is indexed and when a
filter is built (NFKD, diacritics stripped, casefolded, whitespace folded; skills and
spoken languages through the alias tables; dots dropped from free-text fields so
"S.A." = "SA" and "Ph.D." = "PhD"). Exact fields (skills, languages, emails) are
keyword matches; free-text fields (names, titles, companies, degrees, institutions,
certifications, location) match when every word of the filter value appears in one
value of the field (each value's words are keyword-indexed; a nested filter keeps the
words of a filter value within one value — see :func:`point_fields`).
Every value given for a field must match (AND). Years are whole years:
``min_years=5`` keeps 5.0+ years, ``max_years=5`` keeps fewer than 6.
These are the rules of :mod:`cvrag_desktop.text.rules` (the chat's filters, the facets and
job matching evaluate them in Python over the catalog), rendered as index conditions on
values made by the same keys.
"""

from __future__ import annotations

import json
import re

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from cvrag_desktop.errors import InvalidInput
from cvrag_desktop.index.where import Between, Condition, Match, Where, Within
from cvrag_desktop.text.keys import normalize_key, text_key
from cvrag_desktop.text.rules import whole_years
from cvrag_desktop.text.vocab.languages import language_key
from cvrag_desktop.text.vocab.skills import skill_key

EXACT_FIELDS = ("skills", "languages", "emails")
TEXT_SINGLE = ("name", "title", "company", "location")  # one value per candidate
TEXT_MULTI = ("companies", "degrees", "institutions", "certifications")  # several values
TEXT_FILTERS = {"degrees": "degrees", "companies": "companies", "titles": "title", "institutions": "institutions",
                "certifications": "certifications", "names": "name", "location": "location"}
# Payload indexes (the same on the embedded shard and on a server): keyword over normalised values.
KEYWORD_FIELDS = (*EXACT_FIELDS, "section", "candidate_id", "digest",
                  *(f"{f}_words" for f in TEXT_SINGLE), *(f"{f}_words[].w" for f in TEXT_MULTI))
INTEGER_FIELDS = ("years",)
_TOKEN = re.compile(r"[^\W_]+")


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
        "years": whole_years(years),
    }


def tokens(value: str) -> list[str]:
    """Word tokens of a free-text value (runs of letters/digits, lowercased), in order, deduplicated."""
    return list(dict.fromkeys(t.lower() for t in _TOKEN.findall(value or "")))


def point_fields(payload: dict) -> dict:
    """The indexed filter fields of a point, from a candidate's normalised payload.

    Exact fields and years are copied; each free-text field becomes its words as keywords
    (``<field>_words``): a flat list for one-value fields, one ``{"w": [...]}`` object per
    value for list fields, so "every word in *one* value" is a nested filter over keyword
    indexes (far lighter than full-text indexes). ``name`` is kept for ordering.
    """
    out = {k: payload.get(k) or [] for k in EXACT_FIELDS}
    out["years"] = payload.get("years")
    out["name"] = payload.get("name") or ""
    for field in TEXT_SINGLE:
        out[f"{field}_words"] = tokens(payload.get(field) or "")
    for field in TEXT_MULTI:
        out[f"{field}_words"] = [{"w": w} for v in payload.get(field) or [] if (w := tokens(v))]
    return out


def _text(field: str, value: str) -> list[Condition]:
    words = tokens(text_key(value))
    if not words:  # a value with no word matches nobody (no point has an empty candidate id)
        return [Match("candidate_id", "")]
    if field in TEXT_SINGLE:
        return [Match(f"{field}_words", w) for w in words]
    return [Within(f"{field}_words", tuple(Match("w", w) for w in words))]


def build_filter(f: SearchFilters | None, extra: list[Condition] | None = None) -> Where | None:
    """The filter for a set of constraints, in the neutral form both engines render (None: no constraint)."""
    must: list[Condition] = list(extra or [])
    if f is None:
        return Where(tuple(must)) if must else None
    must += [Match("skills", skill_key(s)) for s in f.skills]
    must += [Match("languages", language_key(s)) for s in f.languages]
    must += [Match("emails", normalize_key(s)) for s in f.emails]
    for name, field in TEXT_FILTERS.items():
        values = getattr(f, name)
        for v in [values] if isinstance(values, str) else values or []:
            must += _text(field, v)
    if f.min_years is not None or f.max_years is not None:
        must.append(Between("years", f.min_years, f.max_years))
    return Where(tuple(must)) if must else None


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
