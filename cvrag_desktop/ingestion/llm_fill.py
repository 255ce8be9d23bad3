"""Optional language-model pass that fills what the deterministic extractor left empty.

The deterministic :class:`NormalizedCV` is authoritative: this pass only adds values to
empty fields, and only values it can find in the CV text (compared without case,
accents or spacing differences; for dates, the year must appear) that are of their field's
kind (:mod:`cvrag_desktop.text.kinds`: a phone's digits, no year as a phone, no heading or
date as a place, "Present" is no language, a city is no skill). Anything the model invents
or puts in the wrong field is dropped, logged, reported in the notes and counted. With no
model reachable it returns the CV unchanged with a note, quickly.
"""

from __future__ import annotations

import logging
import re

from pydantic import BaseModel, ConfigDict, Field

from cvrag_desktop.domain import Education, Experience, NormalizedCV, Provenance
from cvrag_desktop.ingestion.prompts import fill_messages
from cvrag_desktop.llm import DEFAULT_ALIAS, LLM_ERRORS, complete_structured, get_route, llm_enabled, probe
from cvrag_desktop.llm.ready import ensure_ready, import_timeout
from cvrag_desktop.text.fold import fold_dashes
from cvrag_desktop.text.kinds import kind_problem

log = logging.getLogger(__name__)

MAX_TEXT_CHARS = 12_000  # ~3k tokens: fits an 8k context with the schema and the reply

class GapExperience(BaseModel):
    """A role as the model reports it."""

    model_config = ConfigDict(extra="forbid")

    title: str | None = None
    company: str | None = None
    start: str | None = None
    end: str | None = None
    is_current: bool | None = None


class GapEducation(BaseModel):
    """A degree as the model reports it."""

    model_config = ConfigDict(extra="forbid")

    degree: str | None = None
    field: str | None = None
    institution: str | None = None
    end: str | None = None


class CvGaps(BaseModel):
    """The output contract of the fill pass (kept small for small models)."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = None
    headline: str | None = None
    current_title: str | None = None
    current_company: str | None = None
    location: str | None = None
    emails: list[str] = Field(default_factory=list)
    phones: list[str] = Field(default_factory=list)
    skills: list[str] = Field(default_factory=list)
    languages: list[str] = Field(default_factory=list)
    certifications: list[str] = Field(default_factory=list)
    experiences: list[GapExperience] = Field(default_factory=list)
    education: list[GapEducation] = Field(default_factory=list)


_MONTH_ABBR = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTHS = {m: i for i, m in enumerate(_MONTH_ABBR, start=1)}
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")


def coerce_partial_date(value: str | None) -> str | None:
    """Turn the model's date (``2019-03``, ``03/2019``, ``March 2019``, ``2019``) into ``YYYY[-MM]``."""
    if not value:
        return None
    year = _YEAR.search(value)
    if not year:
        return None
    y = year.group(1)
    rest = value[: year.start()] + " " + value[year.end() :]
    month: int | None = None
    num = re.search(r"(?<!\d)(0?[1-9]|1[0-2])(?!\d)", rest)
    word = re.search(r"[A-Za-z]{3,}", rest)
    if num:
        month = int(num.group(1))
    elif word and word.group(0)[:3].lower() in _MONTHS:
        month = _MONTHS[word.group(0)[:3].lower()]
    return f"{y}-{month:02d}" if month else y


class _Verifier:
    """Checks model strings against the CV text and records what was dropped."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.folded = fold_dashes(text)
        lines = text.splitlines()
        # phone digits per line, also without the "(0)" trunk prefix ("+41 (0)44 ...")
        self.digit_lines = [re.sub(r"\D", "", x) for line in lines for x in (line, line.replace("(0)", ""))]
        self.years = set(_YEAR.findall(text))
        self.notes: list[str] = []
        self.wrong_kind = 0  # values found in the text but of another kind than their field's

    def string(self, field: str, value: str | None) -> str | None:
        """The value if it occurs in the text and is of its field's kind, else None (noted)."""
        if value is None or not value.strip():
            return None
        value = " ".join(value.split())
        found = bool(re.search(rf"(?<!\w){re.escape(fold_dashes(value))}(?!\w)", self.folded))
        digits = re.sub(r"\D", "", value)
        if not found and field.startswith("phones") and len(digits) >= 7:
            found = any(digits in d for d in self.digit_lines)
        if not found:
            self.notes.append(f"dropped {field} {value!r}: not found in the CV text")
            return None
        problem = kind_problem(field, value)
        if problem:
            self.wrong_kind += 1
            log.info("llm fill dropped %s %r: %s, not the field's kind", field, value, problem)
            self.notes.append(f"dropped {field} {value!r}: {problem}, not the field's kind")
            return None
        return value

    def strings(self, field: str, values: list[str]) -> list[str]:
        """The verified, distinct values of a list field."""
        out: list[str] = []
        for v in values:
            ok = self.string(field, v)
            if ok and ok.casefold() not in {o.casefold() for o in out}:
                out.append(ok)
        return out

    def date(self, field: str, value: str | None) -> str | None:
        """A partial ISO date whose year appears in the text, else None (noted)."""
        if not value or fold_dashes(value) in {"present", "current", "now", "today", "ongoing"}:
            return None
        coerced = coerce_partial_date(value)
        if coerced is None or coerced[:4] not in self.years:
            self.notes.append(f"dropped {field} {value!r}: year not found in the CV text")
            return None
        return coerced

    def span(self, value: str) -> tuple[int, int] | None:
        """Character span of ``value`` in the original text (case/space-insensitive), if exact enough."""
        pattern = r"\s+".join(re.escape(p) for p in value.split())
        m = re.search(pattern, self.text, re.IGNORECASE)
        return (m.start(), m.end()) if m else None


def _verified_experiences(gaps: CvGaps, v: _Verifier) -> list[Experience]:
    out = []
    for i, g in enumerate(gaps.experiences):
        title = v.string(f"experiences[{i}].title", g.title)
        company = v.string(f"experiences[{i}].company", g.company)
        if not (title or company):
            continue
        end = v.date(f"experiences[{i}].end", g.end)
        out.append(
            Experience(
                title=title,
                company=company,
                start=v.date(f"experiences[{i}].start", g.start),
                end=end,
                is_current=bool(g.is_current) and end is None,
            )
        )
    return out


def _verified_education(gaps: CvGaps, v: _Verifier) -> list[Education]:
    out = []
    for i, g in enumerate(gaps.education):
        degree = v.string(f"education[{i}].degree", g.degree)
        institution = v.string(f"education[{i}].institution", g.institution)
        if not (degree or institution):
            continue
        out.append(
            Education(
                degree=degree,
                field=v.string(f"education[{i}].field", g.field),
                institution=institution,
                end=v.date(f"education[{i}].end", g.end),
            )
        )
    return out


def _same_role(a: Experience, b: Experience) -> bool:
    """Loose identity of two roles: same start year, or same company/title text."""
    if a.start and b.start and a.start[:4] == b.start[:4]:
        return not (a.end and b.end and a.end[:4] != b.end[:4])
    pairs = ((a.company, b.company), (a.title, b.title))
    return any(bool(x and y and fold_dashes(x) == fold_dashes(y)) for x, y in pairs)


def _fill_model(
    existing: BaseModel, found: BaseModel, fields: tuple[str, ...]
) -> tuple[BaseModel, list[str]]:
    """Copy ``fields`` from ``found`` into ``existing`` where ``existing`` has no value."""
    update = {f: getattr(found, f) for f in fields if not getattr(existing, f) and getattr(found, f)}
    return (existing.model_copy(update=update) if update else existing), sorted(update)


def merge_gaps(cv: NormalizedCV, gaps: CvGaps, text: str) -> tuple[NormalizedCV, list[str]]:
    """Merge verified model output into empty fields of ``cv``; never overwrite a value."""
    v = _Verifier(text)
    update: dict[str, object] = {}
    filled: list[tuple[str, str]] = []

    for field in ("name", "headline", "location", "current_title", "current_company"):
        value = v.string(field, getattr(gaps, field))
        if value and not getattr(cv, field):
            update[field] = value
            filled.append((field, value))
    for field in ("emails", "phones", "skills", "languages", "certifications"):
        values = v.strings(field, getattr(gaps, field))
        if values and not getattr(cv, field):
            update[field] = values
            filled.extend((field, x) for x in values)

    experiences = _verified_experiences(gaps, v)
    if experiences and not cv.experiences:
        update["experiences"] = experiences
        filled.extend(("experiences", e.title or e.company or "") for e in experiences)
    elif experiences:
        merged, changed = [], False
        for i, exp in enumerate(cv.experiences):
            match = next((e for e in experiences if _same_role(exp, e)), None)
            if match is not None:
                exp, names = _fill_model(exp, match, ("title", "company", "start", "end"))
                filled.extend((f"experiences[{i}].{n}", str(getattr(exp, n))) for n in names)
                changed = changed or bool(names)
            merged.append(exp)
        if changed:
            update["experiences"] = merged

    education = _verified_education(gaps, v)
    if education and not cv.education:
        update["education"] = education
        filled.extend(("education", e.degree or e.institution or "") for e in education)

    merged_cv = cv.model_copy(update=update)
    if "experiences" in update:
        derived = merged_cv.with_derived()
        extra = {
            f: getattr(derived, f)
            for f in ("years_of_experience", "current_title", "current_company")
            if getattr(cv, f) in (None, "") and f not in update and getattr(derived, f) is not None
        }
        merged_cv = merged_cv.model_copy(update=extra)
    provenance = list(cv.provenance)
    for field, value in filled:
        span = v.span(value) if value else None
        if span:
            provenance.append(Provenance(field=field, value=value, char_start=span[0], char_end=span[1]))
    if filled:
        merged_cv = merged_cv.model_copy(update={"provenance": provenance})
    notes = [f"llm filled {field}: {value!r}" for field, value in filled] + v.notes
    if v.wrong_kind:
        notes.append(f"llm fill dropped {v.wrong_kind} value(s) of the wrong kind")
    return merged_cv, notes


def _missing_fields(cv: NormalizedCV) -> list[str]:
    names = ("name", "headline", "location", "emails", "phones", "skills", "languages")
    missing = [n for n in (*names, "certifications", "experiences", "education") if not getattr(cv, n)]
    return missing


def fill_gaps(
    cv: NormalizedCV, text: str, *, alias: str = DEFAULT_ALIAS, base_url: str | None = None
) -> tuple[NormalizedCV, list[str]]:
    """Ask the model for fields the deterministic extractor left empty; keep only verified ones.

    Returns the merged CV and notes (what was filled, dropped, or why the pass was skipped).
    Never raises for model problems: unreachable, invalid output → ``cv`` unchanged + a note.
    A call waits at most :data:`~cvrag_desktop.llm.ready.IMPORT_TIMEOUT_S`; inside an import
    (a breaker batch) the model's load request is checked first (:func:`~cvrag_desktop.llm.ready.ensure_ready`).
    """
    missing = _missing_fields(cv)
    if not missing:
        return cv, ["llm fill skipped: nothing missing"]
    if not llm_enabled():
        return cv, ["llm fill skipped: language models are switched off"]
    route = get_route(alias, base_url=base_url)
    health = probe(route.api_base)
    if not health.reachable:
        return cv, [f"llm fill skipped: no model at {route.api_base} ({health.error})"]
    if route.is_ollama and not health.has_model(route.provider_model):
        return cv, [f"llm fill skipped: model {route.provider_model!r} not installed"]
    body = text if len(text) <= MAX_TEXT_CHARS else text[:MAX_TEXT_CHARS]
    notes = [] if body is text else [f"llm fill saw only the first {MAX_TEXT_CHARS} characters"]
    messages = fill_messages(missing, body)
    try:
        ensure_ready(route)  # once per import: a hung model costs a few seconds, then the breaker is open
        gaps = complete_structured(alias, messages, CvGaps, base_url=route.api_base, timeout=import_timeout(route))
    except LLM_ERRORS as exc:
        return cv, [*notes, f"llm fill skipped: {exc}"]
    merged, merge_notes = merge_gaps(cv, gaps, text)
    return merged, notes + merge_notes
