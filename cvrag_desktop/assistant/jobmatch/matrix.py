"""Job description → requirements → a requirement × candidate matrix, ranked.

Requirements (must-have and nice-to-have skills, minimum years, degree level, spoken
languages) are read by rules; a language model, when up, may add requirements that
are written in the text (verified) and writes a HyDE paragraph (a hypothetical
matching CV) that joins the dense query. Each cell is ``met`` (with the evidence
chunk), ``not_met`` or ``unknown`` (the CV does not say). Ranking is computed from the
matrix in code, so nothing a CV says can move it. Rows are people (a person's best
document), and requirement phrases that no column was read from are returned as
``unread`` ("not interpreted"), never dropped silently. A match never removes or rejects
anyone: every person is ranked (``ranked``), and a must-have not met is a flag on the row
(``must_missed``); a rejection is only ever a recruiter's status change (``catalog/screening.py``).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from cvrag_desktop.assistant import prompts
from cvrag_desktop.assistant.facts.analytics import EvidenceBook, cite_earliest_role
from cvrag_desktop.assistant.facts.lookup import highest_degree
from cvrag_desktop.assistant.facts.store import CandidateFacts
from cvrag_desktop.assistant.understand.question import has_any, phrases
from cvrag_desktop.assistant.understand.router import extract_languages, extract_skills, extract_years
from cvrag_desktop.errors import InvalidInput
from cvrag_desktop.llm import DEFAULT_ALIAS, LLM_ERRORS, complete_structured, complete_text
from cvrag_desktop.text.fold import fold
from cvrag_desktop.text.keys import normalize_key, text_key
from cvrag_desktop.text.rules import has_skill_key, speaks, years_within
from cvrag_desktop.text.vocab.degrees import LEVEL_RANK, QUESTION_LEVELS
from cvrag_desktop.text.vocab.languages import canonical_language
from cvrag_desktop.text.vocab.skills import canonical_skill

NICE = re.compile(r"nice to have|nice-to-have|a plus|is a plus|bonus|preferred|desirable|optional|advantage|"
                  r"deseable|valorable|se valorar|wunschenswert|von vorteil|souhaite|apprecie|gradito", re.I)
LANG_CONTEXT = re.compile(r"fluent|speak|language|native|proficien|idioma|sprach|langue|lingua|\b[abc][12]\b", re.I)
MAX_JD = 20_000


class JobRequirements(BaseModel):
    """What a job asks for."""

    model_config = ConfigDict(extra="forbid")

    must_have_skills: list[str] = Field(default_factory=list)
    nice_to_have_skills: list[str] = Field(default_factory=list)
    min_years: int | None = None
    degree_level: str | None = None
    languages: list[str] = Field(default_factory=list)


def _clauses(line: str) -> list[str]:
    """A line cut into sentences and semicolon parts ("Requisitos: Python. Se valorará: Kafka")."""
    return [c for c in re.split(r"(?<=[.;!?])\s+|;\s*", line) if c.strip()]


def parse_requirements(text: str) -> JobRequirements:
    """Rules: skills per clause (a "nice to have" label, section or phrase in any listed language makes
    them optional), years, degree, spoken languages (a language name with a fluency or language word,
    or a CEFR level, beside it)."""
    req = JobRequirements()
    nice_section = in_list = False  # in a nice-to-have part; in a requirement list (a bare language name counts)
    nice_words, must_words, lang_words = phrases("jd_nice"), phrases("jd_must"), phrases("jd_language_context")
    for line in text.splitlines():
        for clause in _clauses(line):
            folded = BULLET.sub("", fold(clause)).strip()
            labelled = folded.split(":", 1)[0] if ":" in folded[:40] else ""
            if (labelled and has_any(labelled, nice_words)) or \
                    (has_any(folded, nice_words) and len(folded.split()) <= 6 and not extract_skills(clause)):
                nice_section = True  # "Nice to have:", "Wünschenswert:", a heading of its own
            elif (labelled and has_any(labelled, must_words)) or \
                    re.match(r"^(requirements|must|required|what you|you have|we need|requisitos)", folded):
                nice_section, in_list = False, True
            elif labelled and OTHER_HEADING.match(labelled):
                in_list = False  # "About us:", "Wir bieten:": no requirements here
            nice = nice_section or has_any(folded, nice_words)
            for s in extract_skills(clause):
                target = req.nice_to_have_skills if nice else req.must_have_skills
                if s not in req.must_have_skills and s not in req.nice_to_have_skills:
                    target.append(s)
            if LANG_CONTEXT.search(clause) or has_any(folded, lang_words) or (in_list and not nice):
                req.languages += [lang for lang in extract_languages(clause) if lang not in req.languages]
    years = extract_years(normalize_key(text))
    req.min_years = years.get("min_years")
    q = normalize_key(text)
    for level, pattern in QUESTION_LEVELS:
        if pattern.search(q):
            req.degree_level = level
            break
    if req.degree_level is None and re.search(r"\b(degree|university|titulacion|grado)\b", q):
        req.degree_level = "bachelor"
    return req


REQ_HEADING = re.compile(r"require|must|need|nice|plus|bonus|skills?|qualif|language|experience|ideal|profile|"
                         r"you (?:have|bring|are)|looking for|requisitos|perfil|anforderung|profil|exig", re.I)
OTHER_HEADING = re.compile(r"^(?:about|benefits|we offer|what we offer|perks|responsibilit|duties|tasks|your role|"
                           r"the role|the team|company|salary|compensation|location|how to apply|contact|ofrecemos|"
                           r"funciones|wir bieten|aufgaben)", re.I)
LIST_LINE = re.compile(r"^(?P<label>[^:\n]{2,40}):\s*(?P<items>.*)$")
BULLET = re.compile(r"^\s*(?:[-*•·–]|\d{1,2}[.)])\s+")
NOISE = re.compile(r"\b(?:fluent|native|strong|good|solid|basic|knowledge of|experience|years?|of|and|or|with|"
                   r"in|a|an|the|degree)\b", re.I)
MAX_ITEM = 80


def requirement_labels(req: JobRequirements) -> list[str]:
    """The matrix column labels of a requirement set (as :func:`candidate_cells` names them)."""
    labels = [*req.must_have_skills, *req.nice_to_have_skills]
    if req.min_years is not None:
        labels.append(f"{req.min_years}+ years")
    if req.degree_level:
        labels.append(f"{req.degree_level} degree")
    return labels + list(req.languages)


def requirement_items(text: str) -> list[str]:
    """Every requirement phrase of the description: the items of its requirement lists and bullets.

    A "Label: a, b" line with a requirement label ("Requirements", "Nice to have", "Skills",
    "Languages") gives its items; a heading ("Requirements:", "Nice to have") opens a list
    whose lines are items until another heading ("About us:", "Benefits"); bullets before
    any heading are items too. The title and prose outside those lists are not requirements.
    """
    section: bool | None = None  # None: no heading yet; True: a requirement list; False: another part
    out: list[str] = []
    for raw in (text or "").splitlines():
        line = raw.strip()
        if not line:
            continue
        body = BULLET.sub("", line).strip()
        bullet = body != line
        m = LIST_LINE.match(body)
        if m and (not bullet or REQ_HEADING.search(m.group("label"))):
            section = bool(REQ_HEADING.search(m.group("label"))) and not OTHER_HEADING.match(m.group("label"))
            body = m.group("items") if section else ""
        elif not bullet and len(body.split()) <= 5 and (OTHER_HEADING.match(body) or body.endswith(":")):
            section = False if OTHER_HEADING.match(body) else bool(REQ_HEADING.search(body))
            continue
        elif (not bullet and len(body.split()) <= 5 and REQ_HEADING.search(body) and not extract_skills(body)
              and not extract_years(normalize_key(body))):
            section = True  # "Nice to have", "Requirements" as a heading without a colon
            continue
        elif not (section or (section is None and bullet)):
            continue
        for part in re.split(r"[,;]|\band\b", body):
            item = " ".join(part.strip(" .").split())
            if item:
                out.append(item[:MAX_ITEM])
    return out


def _interpreted(item: str, labels: list[str]) -> bool:
    known = {lbl.casefold() for lbl in labels}
    core = " ".join(NOISE.sub(" ", item).split()).casefold()
    if len(core) < 2 or re.fullmatch(r"[\d+\s]*", core):
        return True  # nothing to check ("5+" is read with its years)
    if any(s.casefold() in known for s in extract_skills(item) + extract_languages(item)):
        return True
    key = normalize_key(item)
    if extract_years(key).get("min_years") is not None and any(k.endswith("+ years") for k in known):
        return True
    if any(p.search(key) for _lvl, p in QUESTION_LEVELS) and any(k.endswith(" degree") for k in known):
        return True
    return any(re.search(rf"(?<!\w){re.escape(core)}(?!\w)", k) or re.search(rf"(?<!\w){re.escape(k)}(?!\w)", core)
               for k in known)


def uninterpreted_requirements(text: str, labels: list[str]) -> list[str]:
    """The requirement phrases (:func:`requirement_items`) that no matrix column was read from.

    They are not checked for anyone, so the result lists them instead of dropping them.
    """
    return list(dict.fromkeys(i for i in requirement_items(text) if not _interpreted(i, labels)))


def _llm_requirements(text: str, req: JobRequirements, base_url: str, timeout: float) -> JobRequirements:
    got = complete_structured(DEFAULT_ALIAS, prompts.jd_messages(text), JobRequirements, base_url=base_url,
                              timeout=timeout, max_tokens=600)
    key = f" {text_key(text)} "
    for s in got.must_have_skills + got.nice_to_have_skills:
        canon = canonical_skill(s)
        if canon and f" {text_key(s)} " in key and canon not in req.must_have_skills + req.nice_to_have_skills:
            (req.must_have_skills if s in got.must_have_skills else req.nice_to_have_skills).append(canon)
    for lang in got.languages:
        canon = canonical_language(lang)
        if canon and canon not in req.languages and f" {text_key(lang)} " in key:
            req.languages.append(canon)
    if req.min_years is None and got.min_years is not None and str(got.min_years) in text:
        req.min_years = got.min_years
    if req.degree_level is None and got.degree_level in LEVEL_RANK:
        req.degree_level = got.degree_level
    return req


def _cell(book: EvidenceBook, kind: str, label: str, must: bool, status: str, chunk=None,
          fact: tuple[str, str] | None = None) -> dict:
    mark = book.cite(chunk, *(fact or ())) if status == "met" and chunk is not None else ""
    if status == "met" and not mark:
        status = "unknown"  # never a "met" without evidence
    return {"requirement": label, "kind": kind, "must": must, "status": status, "evidence_id": mark.strip(" []")}


def candidate_cells(book: EvidenceBook, f: CandidateFacts, req: JobRequirements) -> list[dict]:
    """One row of the matrix."""
    cells, facts, cid = [], book.facts, f.candidate_id
    for must, skills in ((True, req.must_have_skills), (False, req.nice_to_have_skills)):
        for s in skills:
            if has_skill_key(f.payload["skills"], s):
                cells.append(_cell(book, "skill", s, must, "met", facts.chunk_for(cid, "skills", s), ("skills", s)))
            else:
                cells.append(_cell(book, "skill", s, must, "unknown" if not f.record.get("skills") else "not_met"))
    if req.min_years is not None:
        label = f"{req.min_years}+ years"
        if f.years is None:
            cells.append(_cell(book, "years", label, True, "unknown"))
        elif years_within(f.years, req.min_years):
            mark = cite_earliest_role(book, f)
            cells.append({"requirement": label, "kind": "years", "must": True,
                          "status": "met" if mark else "unknown", "evidence_id": mark.strip(" []")})
        else:
            cells.append(_cell(book, "years", label, True, "not_met"))
    if req.degree_level:
        degree, rank = highest_degree(f)
        label = f"{req.degree_level} degree"
        if not f.record.get("education"):
            cells.append(_cell(book, "degree", label, True, "unknown"))
        elif rank >= LEVEL_RANK[req.degree_level]:
            idx = next((c.index for c in f.claims if c.degree == degree), 0)
            cells.append(_cell(book, "degree", label, True, "met",
                               facts.chunk_for(cid, f"education[{idx}].degree", degree, "education"),
                               ("text", degree or "")))
        else:
            cells.append(_cell(book, "degree", label, True, "not_met" if rank else "unknown"))
    for lang in req.languages:
        if speaks(f.record.get("languages") or [], lang):
            cells.append(_cell(book, "language", lang, True, "met", facts.chunk_for(cid, "languages", lang),
                               ("languages", lang)))
        else:
            cells.append(_cell(book, "language", lang, True, "unknown" if not f.record.get("languages") else "not_met"))
    return cells


def match_job(service, text: str, *, use_llm: bool, limit: int | None = 20) -> dict:
    """Rank every candidate against the job description (see module doc).

    ``limit`` people are returned (None: all); ``ranked`` says how many people were ranked, so
    a caller can say "top 20 of 45" and offer the rest. A description longer than ``MAX_JD``
    characters is read up to there, and the result's notes say so."""
    text = (text or "").strip()
    if not text:
        raise InvalidInput("Paste a job description.")
    notes: list[str] = []
    if len(text) > MAX_JD:
        notes.append(f"Only the first {MAX_JD:,} of the description's {len(text):,} characters were read.")
        text = text[:MAX_JD]
    req, mode = parse_requirements(text), "deterministic"
    query = text[:2000]
    if use_llm:
        try:
            req = _llm_requirements(text, req, service.settings.llm_base_url, service.deps.timeout)
            hyde = complete_text(DEFAULT_ALIAS, prompts.hyde_messages(text), base_url=service.settings.llm_base_url,
                                 timeout=service.deps.timeout, max_tokens=400)
            query = f"{hyde.strip()[:1200]}\n{query}"
            mode = "llm"
        except LLM_ERRORS as exc:
            notes.append(f"requirements read by rules only: {exc}")
    retrieval: dict[str, int] = {}
    try:
        for rank, h in enumerate(service.search.search(query, None, k=50, strategy="hybrid")):
            retrieval.setdefault(h["candidate_id"], rank)
    except InvalidInput:
        pass
    book = EvidenceBook(service.facts)
    rows = []
    for f in service.facts.all().values():
        sub = EvidenceBook(service.facts)
        cells = candidate_cells(sub, f, req)
        must = [c for c in cells if c["must"]]
        score = 10 * sum(c["status"] == "met" for c in must) + 3 * sum(c["status"] == "met" for c in cells
                                                                         if not c["must"])
        rows.append((score, -retrieval.get(f.candidate_id, 999), f))
    rows.sort(key=lambda r: (-r[0], -r[1], r[2].name))
    out = []
    everyone = best_per_person(service, rows, None)
    for score, f, person in everyone[:limit] if limit is not None else everyone:
        cells = candidate_cells(book, f, req)
        out.append({"candidate_id": f.candidate_id, "name": service.people.display(person) if person else f.name,
                    "person_id": person.person_id if person else f.candidate_id,
                    "documents": len(person.documents) if person else 1, "source_path": f.source_path,
                    "score": score, "met": sum(c["status"] == "met" for c in cells), "total": len(cells),
                    "cells": cells, "must_missed": [c["requirement"] for c in cells  # a flag, never a rejection
                                                    if c["must"] and c["status"] == "not_met"]})
    evidence = {e["evidence_id"]: {k: e[k] for k in ("chunk_id", "candidate_id", "candidate_name", "section", "page",
                                                     "bbox", "source_path")} | {"quote": " ".join(e["text"].split())[:400]}
                for e in book.items}
    return {"requirements": req.model_dump(), "mode": mode, "notes": notes, "candidates": out, "evidence": evidence,
            "ranked": len(everyone), "unread": uninterpreted_requirements(text, requirement_labels(req))}


def best_per_person(service, rows: list[tuple], limit: int | None) -> list[tuple]:
    """(score, facts, person) of the ``limit`` best people (None: all): a person's best-ranked document stands for them.

    People are grouped as the browser groups them (``PeopleIndex``, the recruiter's merges
    and splits included), so a person with two CVs is one row of the matrix.
    """
    people = getattr(service, "people", None)
    if people is not None:
        people.refresh()
    seen: set[str] = set()
    out: list[tuple] = []
    for score, _retrieval, f in rows:
        person = people.person_of(f.candidate_id, refresh=False) if people is not None else None
        pid = person.person_id if person else f.candidate_id
        if pid in seen:
            continue
        seen.add(pid)
        out.append((score, f, person))
        if limit is not None and len(out) >= limit:
            break
    return out
