"""Questions over structured facts, answered in code: tenure, experience, counts, lists, comparisons.

Each operation reads every candidate's record (:class:`~.facts.CatalogFacts`), computes
the result exactly, and cites the chunk holding each fact it used. The result is the
same with or without a language model. ``as_of`` fixes "today" for current roles.
"""

from __future__ import annotations

import datetime as dt

from cvrag_desktop.assistant.facts.store import (
    CandidateFacts,
    CatalogFacts,
    role_skills,
    role_span,
    span_years,
)
from cvrag_desktop.assistant.understand.numbers import describe_years
from cvrag_desktop.domain import Chunk, Experience, years_of_experience
from cvrag_desktop.text.companies import employer_key
from cvrag_desktop.text.vocab.degrees import LEVEL_RANK

MAX_LISTED = 100
LEVEL_NAMES = {"phd": "a PhD/doctorate", "master": "a master's degree", "bachelor": "a bachelor's degree",
               "vocational": "a vocational qualification"}


class EvidenceBook:
    """Numbers cited chunks E1, E2, … (one id per chunk) and remembers the fact each supports."""

    def __init__(self, facts: CatalogFacts, start: int = 1) -> None:
        self.facts = facts
        self.items: list[dict] = []
        self._ids: dict[str, str] = {}
        self._next = start

    def cite(self, chunk: Chunk | None, kind: str = "", value: str | None = None) -> str:
        """The evidence id of ``chunk`` as a `` [E3]`` marker ("" when there is no chunk).

        ``kind``/``value`` record the fact the chunk is cited for (``skills``/``languages``
        through the alias tables, ``text`` as words), so the citation can be checked.
        """
        if chunk is None:
            return ""
        if chunk.chunk_id not in self._ids:
            f = self.facts.get(chunk.candidate_id)
            eid = f"E{self._next}"
            self._next += 1
            self._ids[chunk.chunk_id] = eid
            self.items.append({"evidence_id": eid, "chunk_id": chunk.chunk_id, "candidate_id": chunk.candidate_id,
                               "candidate_name": f.name if f else None, "section": chunk.section,
                               "page": chunk.page, "bbox": list(chunk.bbox) if chunk.bbox else None,
                               "text": chunk.text, "source_path": f.source_path if f else None, "facts": []})
        item = next(i for i in self.items if i["evidence_id"] == self._ids[chunk.chunk_id])
        fact = {"kind": kind, "value": value}
        if kind and value and fact not in item["facts"]:
            item["facts"].append(fact)
        return f" [{self._ids[chunk.chunk_id]}]"

    @property
    def ids(self) -> list[str]:
        """Every evidence id handed out, in order."""
        return [i["evidence_id"] for i in self.items]


def describe_filters(filters: dict) -> str:
    """Filters as a phrase: "with Kafka, speaking German, 5+ years"."""
    parts = []
    if filters.get("skills"):
        parts.append("with " + " and ".join(filters["skills"]))
    if filters.get("languages"):
        parts.append("speaking " + " and ".join(filters["languages"]))
    if filters.get("degree_level"):
        parts.append("holding " + LEVEL_NAMES.get(filters["degree_level"], filters["degree_level"]))
    if filters.get("min_degree_level"):
        parts.append("holding " + LEVEL_NAMES.get(filters["min_degree_level"], filters["min_degree_level"])
                     + " or higher")
    if filters.get("companies"):
        parts.append("who worked at " + " and ".join(filters["companies"]))
    if filters.get("location"):
        parts.append("in " + filters["location"])
    parts += describe_years(filters)
    for key in ("titles", "degrees", "institutions", "certifications", "names"):
        if filters.get(key):
            parts.append(f"{key[:-1]} {' / '.join(filters[key])}")
    return ", ".join(parts) or "in the catalog"


def cite_filter_facts(book: EvidenceBook, f: CandidateFacts, filters: dict) -> str:
    """Cite, for one candidate, the chunk of each fact the filters asked about."""
    marks = ""
    for s in filters.get("skills", []):
        marks += book.cite(book.facts.chunk_for(f.candidate_id, "skills", s), "skills", s)
    for lang in filters.get("languages", []):
        marks += book.cite(book.facts.chunk_for(f.candidate_id, "languages", lang), "languages", lang)
    for comp in filters.get("companies", []):
        idx = next((i for i, r in enumerate(f.record["experiences"])
                    if r.get("company") and set(comp.lower().split()) & set(r["company"].lower().split())), None)
        marks += book.cite(book.facts.role_chunk(f.candidate_id, idx) if idx is not None else None,
                           "text", f.record["experiences"][idx]["company"] if idx is not None else None)
    if filters.get("location"):
        marks += book.cite(book.facts.chunk_for(f.candidate_id, "location", f.record.get("location")),
                           "text", f.record.get("location"))
    wanted = filters.get("degree_level") or filters.get("min_degree_level")
    if wanted:
        exact = bool(filters.get("degree_level"))
        for claim in sorted(f.claims, key=lambda c: -LEVEL_RANK.get(c.level or "", 0)):
            if claim.expected or not claim.level or (claim.level != wanted if exact
                                                     else LEVEL_RANK[claim.level] < LEVEL_RANK[wanted]):
                continue
            marks += book.cite(book.facts.chunk_for(f.candidate_id, f"education[{claim.index}].degree",
                                                    claim.degree, "education"), "text", claim.degree)
            break
    if filters.get("min_years") is not None or filters.get("max_years") is not None:
        marks += cite_earliest_role(book, f)
    marks = "".join(dict.fromkeys(marks.replace("] [", "]\0 [").split("\0"))) if marks else ""
    return marks or book.cite(next(iter(book.facts.chunks(f.candidate_id)), None))


def cite_earliest_role(book: EvidenceBook, f: CandidateFacts) -> str:
    """Cite the first dated role (where the years of experience start counting)."""
    dated = [(r.get("start"), i) for i, r in enumerate(f.record["experiences"]) if r.get("start")]
    if not dated:
        return ""
    idx = min(dated)[1]
    role = f.record["experiences"][idx]
    return book.cite(book.facts.role_chunk(f.candidate_id, idx), "text", role_label(role))


def role_label(role: dict) -> str | None:
    """What identifies a role in its chunk: the employer (or the title when no employer)."""
    return role.get("company") or role.get("title")


def _roles(f: CandidateFacts, as_of: dt.date) -> list[tuple[int, dict, int]]:
    out = []
    for i, r in enumerate(f.record.get("experiences", [])):
        span = role_span(r, as_of)
        if span:
            out.append((i, r, (span[1] - span[0]).days))
    return out


def tenure(facts: CatalogFacts, book: EvidenceBook, filters: dict, as_of: dt.date, longest: bool,
           current_only: bool = False) -> dict:
    """The candidate(s) with the longest (or shortest) single role, ties included (current roles only if asked)."""
    pool = facts.matching(filters) if filters else list(facts.all().values())
    if filters and filters.get("companies") and not current_only:
        return _tenure_at(facts, book, pool, filters["companies"], as_of, longest)
    best: list[tuple[CandidateFacts, int, dict, int]] = []
    for f in pool:
        for i, r, days in _roles(f, as_of):
            if current_only and not r.get("is_current"):
                continue
            if not best or (days > best[0][3] if longest else days < best[0][3]):
                best = [(f, i, r, days)]
            elif days == best[0][3]:
                best.append((f, i, r, days))
    if not best:
        return {"status": "unknown", "answer": "None of the imported CVs has a dated role."}
    word = "longest" if longest else "shortest"
    lines = []
    for f, i, r, days in best:
        end = "present" if r.get("is_current") else r.get("end")
        fact = f"{r.get('title')} at {r.get('company')} ({r.get('start')} – {end})"
        lines.append(f"{f.name}: {fact}, {span_years(days)} years" + book.cite(facts.role_chunk(f.candidate_id, i), "text", role_label(r)))
    head = f"The {word} single role{' (tie)' if len(best) > 1 else ''}"
    return {"status": "answered", "answer": head + ":\n" + "\n".join(lines),
            "data": {"candidate_ids": sorted({b[0].candidate_id for b in best}), "years": span_years(best[0][3])}}


def _tenure_at(facts: CatalogFacts, book: EvidenceBook, pool: list[CandidateFacts], employers: list[str],
               as_of: dt.date, longest: bool) -> dict:
    """"Who has been at X the longest?": each person's roles at the named employer(s) joined into one stay
    (overlaps counted once), so two titles held one after the other at one firm count together."""
    employers = list({employer_key(e): e for e in employers if employer_key(e)}.values())  # "Globex" named twice
    keys = {employer_key(e) for e in employers}
    stays: list[tuple[int, CandidateFacts, list[tuple[int, dict]]]] = []
    for f in pool:
        held = [(i, r) for i, r in enumerate(f.record.get("experiences", []))
                if employer_key(r.get("company") or "") in keys and role_span(r, as_of)]
        spans = sorted(role_span(r, as_of) for _, r in held)
        days, cur = 0, None
        for s, e in spans:
            if cur and s <= cur[1]:
                cur = (cur[0], max(cur[1], e))
            else:
                days += (cur[1] - cur[0]).days if cur else 0
                cur = (s, e)
        days += (cur[1] - cur[0]).days if cur else 0
        if held:
            stays.append((days, f, held))
    if not stays:
        return {"status": "unknown", "answer": f"None of the matching CVs has a dated role at {', '.join(employers)}."}
    target = (max if longest else min)(d for d, _, _ in stays)
    lines = []
    for days, f, held in sorted((x for x in stays if x[0] == target), key=lambda x: x[1].name):
        cites = "".join(book.cite(facts.role_chunk(f.candidate_id, i), "text", role_label(r)) for i, r in held)
        lines.append(f"{f.name}: {span_years(days)} years at {', '.join(employers)} "
                     f"({len(held)} role{'s' if len(held) > 1 else ''} there)" + cites)
    word = "longest" if longest else "shortest"
    return {"status": "answered", "answer": f"The {word} time at {', '.join(employers)} (roles there joined):\n"
            + "\n".join(lines), "data": {"candidate_ids": [x[1].candidate_id for x in stays if x[0] == target],
                                          "years": span_years(target)}}


def experience_extreme(facts: CatalogFacts, book: EvidenceBook, filters: dict, most: bool) -> dict:
    """The candidate(s) with the most (or least) total years of experience."""
    pool = [f for f in (facts.matching(filters) if filters else facts.all().values()) if f.years is not None]
    if not pool:
        return {"status": "unknown", "answer": "None of the matching CVs has dated work experience."}
    target = (max if most else min)(f.years for f in pool)
    winners = sorted((f for f in pool if f.years == target), key=lambda f: f.name)
    lines = [f"{f.name}: {f.years} years of experience" + cite_earliest_role(book, f) for f in winners]
    word = "most" if most else "least"
    return {"status": "answered", "answer": f"The {word} experienced ({describe_filters(filters)}):\n" + "\n".join(lines),
            "data": {"candidate_ids": [f.candidate_id for f in winners], "years": target}}


def skill_years(facts: CatalogFacts, book: EvidenceBook, skill: str, as_of: dt.date) -> dict:
    """Who has worked longest in roles that mention ``skill`` (overlapping roles counted once)."""
    best: list[tuple[float, CandidateFacts, list[int]]] = []
    for f in facts.all().values():
        idx = [i for i, r, _ in _roles(f, as_of) if skill in role_skills(r)]
        if not idx:
            continue
        exps = [Experience.model_validate({**f.record["experiences"][i], "bullets": []}) for i in idx]
        yrs = years_of_experience(exps, as_of) or 0.0
        if not best or yrs > best[0][0]:
            best = [(yrs, f, idx)]
        elif yrs == best[0][0]:
            best.append((yrs, f, idx))
    if not best:
        return {"status": "unknown", "answer": f"No imported CV describes a role using {skill}."}
    lines = []
    for yrs, f, idx in best:
        marks = "".join(dict.fromkeys(book.cite(facts.role_chunk(f.candidate_id, i), "skills", skill)
                                      for i in idx))
        lines.append(f"{f.name}: {yrs} years in roles using {skill}" + marks)
    return {"status": "answered", "answer": f"Most years working with {skill}:\n" + "\n".join(lines),
            "data": {"candidate_ids": sorted(b[1].candidate_id for b in best), "years": best[0][0]}}


def list_pool(book: EvidenceBook, pool: list[CandidateFacts], filters: dict, count: bool = False,
              people=None) -> dict:
    """Name the people of ``pool`` (each cited by the chunks of the facts the filters asked about).

    With a :class:`~.people.PeopleIndex`, documents of one person count and show once, and
    namesakes are listed with the label that tells them apart.
    """
    what = describe_filters(filters)
    if not pool:
        return {"status": "unknown", "answer": f"No imported CV matches: candidates {what} (0 found).",
                "data": {"count": 0, "candidate_ids": []}}
    shown: list[tuple[str, CandidateFacts, int]] = []
    if people is not None:
        people.refresh()
        index: dict[str, int] = {}
        for f in pool:
            p = people.person_of(f.candidate_id, refresh=False)
            key = p.person_id if p else f.candidate_id
            if key in index:
                label, first, n = shown[index[key]]
                shown[index[key]] = (label, first, n + 1)
                continue
            index[key] = len(shown)
            shown.append((people.display(p) if p else f.name, f, 1))
    else:
        shown = [(f.name, f, 1) for f in pool]
    listed = [f"{label}{cite_filter_facts(book, f, filters)}" + (f" ({n} CV files)" if n > 1 else "")
              for label, f, n in shown[:MAX_LISTED]]
    more = f"\n… and {len(shown) - MAX_LISTED} more." if len(shown) > MAX_LISTED else ""
    n = len(shown)
    head = f"{n} candidate{'s' if n != 1 else ''} {what}:" if count else f"Candidates {what}:"
    return {"status": "answered", "answer": head + "\n" + "\n".join(f"- {x}" for x in listed) + more,
            "data": {"count": n, "candidate_ids": [f.candidate_id for f in pool]}}
