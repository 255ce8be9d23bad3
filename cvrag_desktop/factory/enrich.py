"""Prose for synthetic CVs: varied templates by default, an optional LLM rewrite on top.

Template prose is filled only from the CV's own facts (its skills, industry, years), and
a template that names a skill the candidate does not have is never used. The LLM path
takes any ``complete(system, user, schema)`` callable; whatever it returns must echo the
facts unchanged and may not introduce skills, years, e-mails or links, or it is thrown
away and the template prose stays.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from functools import cache

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cvrag_desktop.factory.model import CVDraft
from cvrag_desktop.factory.profiles import FactoryData, factory_data

LlmCallable = Callable[[str, str, type[BaseModel]], object]
_SLOT = re.compile(r"\{[a-z0-9]+\}")
_YEAR = re.compile(r"\b(19|20)\d{2}\b")
_CONTACT = re.compile(r"@|https?://|www\.|\+\d{2}")


@cache
def skill_vocabulary() -> frozenset[str]:
    """Every skill spelling the factory knows (all profiles, languages and synonyms)."""
    data = factory_data()
    names: set[str] = set()
    for p in data.profiles:
        for s in p.skills:
            names.add(s.name)
            names.update(s.l10n.values())
    for canon, aliases in data.synonyms.items():
        names.add(canon)
        names.update(aliases)
    return frozenset(n for n in names if len(n) >= 2)


def mentioned_skills(text: str, vocabulary: frozenset[str] | None = None) -> set[str]:
    """Skill spellings that appear in ``text`` as whole words (case-sensitive)."""
    vocabulary = vocabulary if vocabulary is not None else skill_vocabulary()
    spans: list[tuple[int, int, str]] = []
    for name in vocabulary:
        if name in text:
            pattern = rf"(?<![\w.+#/-]){re.escape(name)}(?![\w+#/-])"
            spans.extend((m.start(), m.end(), name) for m in re.finditer(pattern, text))
    # "Negociación" inside "Negociación con proveedores" is part of the longer skill, not a mention
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    found: set[str] = set()
    reach = -1
    for _start, end, name in spans:
        if end <= reach:
            continue
        found.add(name)
        reach = max(reach, end)
    return found


def _allowed_spellings(draft: CVDraft) -> set[str]:
    allowed = set(draft.cv.skills) | {draft.hints.skill_label(s) for s in draft.cv.skills}
    data = factory_data()
    for s in list(allowed):  # any spelling of a skill the candidate has is fine
        allowed.update(data.synonyms.get(s, []))
    return allowed


def _usable(templates: list[str], allowed: set[str]) -> list[str]:
    return [t for t in templates if mentioned_skills(_SLOT.sub(" ", t)) <= allowed]


def apply_template_prose(draft: CVDraft, data: FactoryData | None = None) -> CVDraft:
    """Fill the summary and empty bullet lists with varied template prose (deterministic)."""
    data = data or factory_data()
    rng = random.Random(draft.spec.rng_key + ":prose")
    profile = data.profile(draft.profile_id)
    lang = draft.hints.lang
    allowed = _allowed_spellings(draft)
    printed = [draft.hints.skill_label(s) for s in draft.cv.skills]
    cv = draft.cv.with_derived(draft.spec.as_of)
    years = int(cv.years_of_experience or 0)
    industry = data.industry_label(rng.choice(profile.industries), lang)
    slots = {
        "domain": profile.domain.get(lang, profile.domain["en"]),
        "industry": industry,
        "title": cv.current_title or cv.experiences[-1].title or profile.label,
        "years": str(years),
    }
    own = _usable(profile.bullets.get(lang, []), allowed)
    generic = _usable(data.bullets.get(lang) or data.bullets["en"], allowed)
    bag: list[str] = []
    experiences = []
    n_roles = len(cv.experiences)
    for i, exp in enumerate(cv.experiences):
        if exp.bullets:
            experiences.append(exp)
            continue
        recent = i >= n_roles - 2
        wordy = draft.tier in ("senior", "lead")
        count = rng.randint(3, 6 if wordy else 5) if recent else rng.randint(1 + wordy, 3 + wordy)
        bullets: list[str] = []
        used: set[str] = set()
        for _ in range(count):
            if not bag:
                bag = own + generic
                rng.shuffle(bag)
            template = bag.pop()
            if template not in used:
                used.add(template)
                bullets.append(_fill(template, slots, printed, rng))
        experiences.append(exp.model_copy(update={"bullets": bullets}))
    summaries = _usable(
        profile.summaries.get(lang, []) + data.summaries.get(lang, data.summaries["en"]), allowed
    )
    if years < 2:
        summaries = [s for s in summaries if "{years}" not in s] or summaries
    summary = _fill(rng.choice(summaries), slots, printed, rng) if rng.random() < 0.85 else None
    sections = list(cv.sections)
    if summary and "summary" not in sections:
        sections.insert(1, "summary")
    new_cv = draft.cv.model_copy(
        update={"experiences": experiences, "summary": summary, "sections": sections}
    )
    return draft.model_copy(update={"cv": new_cv, "prose_source": "template"})


def _fill(template: str, slots: dict[str, str], skills: list[str], rng: random.Random) -> str:
    picks = rng.sample(skills, min(3, len(skills)))
    values = dict(slots)
    values.update(skill=picks[0], skill2=picks[1 % len(picks)], skill3=picks[2 % len(picks)])
    values.update(pct=str(rng.randint(10, 60)), n=str(rng.randint(2, 9)), team=str(rng.randint(4, 40)))
    return template.format(**values)


class EnrichedRole(BaseModel):
    """One role as the LLM returns it: facts echoed, bullets rewritten."""

    model_config = ConfigDict(extra="forbid")

    title: str | None
    company: str | None
    start: str | None
    end: str | None
    bullets: list[str] = Field(max_length=6)


class EnrichmentOutput(BaseModel):
    """What the LLM must return: the name echoed, a summary and every role in order."""

    model_config = ConfigDict(extra="forbid")

    name: str | None
    summary: str = Field(max_length=900)
    roles: list[EnrichedRole]


SYSTEM_PROMPT = (
    "You polish the wording of a CV. Rewrite the summary and the bullet points so they read like a "
    "real person wrote them, in the same language as the input. Return JSON only. Copy name, titles, "
    "companies and dates exactly. Do not add skills, tools, employers, dates, numbers of years, e-mails "
    "or links that are not in the input. Keep 1-5 short bullets per role."
)


def enrichment_request(draft: CVDraft) -> str:
    """The user message: the CV's facts and current prose as JSON."""
    cv = draft.cv
    payload = {
        "language": draft.hints.lang,
        "name": cv.name,
        "skills": [draft.hints.skill_label(s) for s in cv.skills],
        "summary": cv.summary or "",
        "roles": [
            {"title": e.title, "company": e.company, "start": e.start, "end": e.end, "bullets": e.bullets}
            for e in cv.experiences
        ],
    }
    return json.dumps(payload, ensure_ascii=False)


def check_facts(draft: CVDraft, out: EnrichmentOutput) -> list[str]:
    """Reasons to reject an LLM rewrite (empty list: the facts survived)."""
    cv = draft.cv
    problems: list[str] = []
    if out.name != cv.name:
        problems.append(f"name changed: {out.name!r}")
    if len(out.roles) != len(cv.experiences):
        problems.append(f"{len(out.roles)} roles returned for {len(cv.experiences)}")
    for i, (new, old) in enumerate(zip(out.roles, cv.experiences, strict=False)):
        for fld in ("title", "company", "start", "end"):
            if getattr(new, fld) != getattr(old, fld):
                problems.append(f"role {i}: {fld} changed to {getattr(new, fld)!r}")
        if not new.bullets or any(not b.strip() or len(b) > 300 for b in new.bullets):
            problems.append(f"role {i}: empty or overlong bullets")
    allowed = _allowed_spellings(draft)
    known_years = {d[:4] for e in cv.experiences for d in (e.start, e.end) if d}
    known_years |= {d[:4] for e in cv.education for d in (e.start, e.end) if d}
    texts = [out.summary] + [b for r in out.roles for b in r.bullets]
    for text in texts:
        extra = mentioned_skills(text) - allowed
        if extra:
            problems.append(f"new skills {sorted(extra)}")
        years = {m.group(0) for m in _YEAR.finditer(text)} - known_years
        if years:
            problems.append(f"new years {sorted(years)}")
        if _CONTACT.search(text):
            problems.append("contact details in prose")
    return problems


def enrich_with_llm(draft: CVDraft, complete: LlmCallable) -> tuple[CVDraft, str | None]:
    """Rewrite the prose with an LLM; return the draft and why it was discarded (None if kept).

    Any exception from ``complete``, an invalid reply or a changed fact keeps the input draft.
    """
    try:
        raw = complete(SYSTEM_PROMPT, enrichment_request(draft), EnrichmentOutput)
        if isinstance(raw, str):
            raw = json.loads(raw)
        out = raw if isinstance(raw, EnrichmentOutput) else EnrichmentOutput.model_validate(raw)
    except (ValidationError, ValueError, TypeError) as exc:
        return draft, f"invalid reply: {exc.__class__.__name__}"
    except Exception as exc:  # the LLM is optional: any failure falls back to templates
        return draft, f"llm failed: {exc.__class__.__name__}: {exc}"
    problems = check_facts(draft, out)
    if problems:
        return draft, "facts changed: " + "; ".join(problems[:3])
    experiences = [
        e.model_copy(update={"bullets": [b.strip() for b in r.bullets]})
        for e, r in zip(draft.cv.experiences, out.roles, strict=True)
    ]
    summary = out.summary.strip() or draft.cv.summary
    cv = draft.cv.model_copy(update={"experiences": experiences, "summary": summary})
    return draft.model_copy(update={"cv": cv, "prose_source": "llm"}), None
