"""Facts about named candidates: one field of one candidate, or two candidates side by side.

"What is Ana's education?", "where does she live?", "compare Ana and Ben": read from the
structured record, each value cited by the chunk that shows it. A field the CV does not
state is answered ``unknown`` ("Ana Núñez's CV does not mention a phone number").
"""

from __future__ import annotations

import datetime as dt

from cvrag_desktop.assistant.facts.analytics import EvidenceBook, cite_earliest_role, role_label
from cvrag_desktop.assistant.facts.store import CandidateFacts, CatalogFacts
from cvrag_desktop.text.vocab.degrees import LEVEL_RANK

FIELD_LABELS = {"email": "an email address", "phone": "a phone number", "education": "any education",
                "languages": "spoken languages", "skills": "skills", "certifications": "certifications",
                "location": "a location", "current": "a current role", "employers": "any work experience",
                "years": "dated work experience", "profile": "a profile"}


def _roles_text(book: EvidenceBook, f: CandidateFacts, only_current: bool = False) -> list[str]:
    lines = []
    for i, r in enumerate(f.record.get("experiences", [])):
        if only_current and not r.get("is_current"):
            continue
        end = "present" if r.get("is_current") else (r.get("end") or "?")
        fact = f"{r.get('title') or '(title not stated)'} at {r.get('company') or '(employer not stated)'}"
        lines.append(f"{fact} ({r.get('start') or '?'} – {end})" + book.cite(book.facts.role_chunk(f.candidate_id, i),
                                                                           "text", role_label(r)))
    return lines


def field_lines(book: EvidenceBook, f: CandidateFacts, field: str) -> list[str]:
    """The cited lines answering ``field`` about one candidate (empty when the CV is silent)."""
    rec, cid, facts = f.record, f.candidate_id, book.facts
    if field in ("email", "phone"):
        key = "emails" if field == "email" else "phones"
        return [v + book.cite(facts.chunk_for(cid, key, v), "text", v) for v in rec.get(key, [])]
    if field == "location":
        loc = rec.get("location")
        return [loc + book.cite(facts.chunk_for(cid, "location", loc), "text", loc)] if loc else []
    if field == "education":
        out = []
        for i, ed in enumerate(rec.get("education", [])):
            label = ed.get("degree") or ed.get("institution")
            if not label:
                continue
            where = f"education[{i}].degree" if ed.get("degree") else f"education[{i}].institution"
            text = ", ".join(x for x in (ed.get("degree"), ed.get("institution")) if x)
            if any(c.index == i and c.expected for c in f.claims):
                text += " (expected, not yet held)"
            out.append(text + (f" ({ed['end']})" if ed.get("end") else "")
                       + book.cite(facts.chunk_for(cid, where, label, "education"), "text", label))
        return out
    if field in ("languages", "skills", "certifications"):
        values = rec.get(field, [])
        if not values:
            return []
        chunks: dict[str, list[str]] = {}
        for v in values:
            c = facts.chunk_for(cid, field, v)
            mark = book.cite(c, field if field != "certifications" else "text", v) if c else ""
            chunks.setdefault(mark, []).append(v)
        return [", ".join(vs) + mark for mark, vs in chunks.items()]
    if field == "current":
        lines = _roles_text(book, f, only_current=True)
        return lines or ([f"{rec['current_title']}" + book.cite(facts.chunk_for(cid, "current_title",
                                                                                   rec["current_title"]), "text",
                                                                     rec["current_title"])]
                         if rec.get("current_title") else [])
    if field == "employers":
        return _roles_text(book, f)
    if field == "years":
        if f.years is None:
            return []
        return [f"{f.years} years of experience" + cite_earliest_role(book, f)]
    # profile: who is this person
    lines = field_lines(book, f, "current") or field_lines(book, f, "employers")[:1]
    lines += [f"{f.years} years of experience" + cite_earliest_role(book, f)] if f.years is not None else []
    lines += field_lines(book, f, "education")[:1] + field_lines(book, f, "location")
    return lines


def lookup(facts: CatalogFacts, book: EvidenceBook, candidate_ids: list[str], field: str,
           names: dict[str, str] | None = None) -> dict:
    """Answer one field for each named candidate (``names``: the labels that tell namesakes apart)."""
    blocks, missing = [], []
    for cid in candidate_ids[:5]:
        f = facts.get(cid)
        if f is None:
            continue
        name = (names or {}).get(cid) or f.name
        lines = field_lines(book, f, field)
        if lines:
            blocks.append(f"{name}:\n" + "\n".join(f"- {x}" for x in lines))
        else:
            missing.append(f"{name}'s CV does not mention {FIELD_LABELS.get(field, field)}.")
    if not blocks:
        return {"status": "unknown", "answer": " ".join(missing) or "No such candidate in the catalog.",
                "data": {"candidate_ids": candidate_ids}}
    return {"status": "answered", "answer": "\n".join(blocks + missing), "data": {"candidate_ids": candidate_ids}}


def highest_degree(f: CandidateFacts) -> tuple[str | None, int]:
    """The candidate's highest *held* degree as printed and its rank (0 when none is recognised).

    Expected degrees are left out (:mod:`.criteria`): job matching and the Degree facet agree.
    """
    best, rank = None, 0
    for c in f.claims:
        if c.level and not c.expected and LEVEL_RANK[c.level] > rank:
            best, rank = c.degree, LEVEL_RANK[c.level]
    return best, rank


def compare(facts: CatalogFacts, book: EvidenceBook, candidate_ids: list[str], as_of: dt.date) -> dict:
    """Two (or more) named candidates side by side: role, years, degree, skills, languages."""
    people = [f for cid in candidate_ids[:4] if (f := facts.get(cid))]
    if len(people) < 2:
        return {"status": "unknown", "answer": "Name two imported candidates to compare."}
    blocks = []
    skill_sets = [set(f.record.get("skills", [])) for f in people]
    shared = set.intersection(*skill_sets)
    for f, skills in zip(people, skill_sets, strict=True):
        lines = field_lines(book, f, "current")[:1]
        lines += [f"{f.years} years of experience" + cite_earliest_role(book, f)] if f.years is not None else \
            ["years of experience: not stated"]
        lines += field_lines(book, f, "education")[:2] or ["education: not stated"]
        own = sorted(skills - shared)
        if own:
            mark = "".join(dict.fromkeys(book.cite(facts.chunk_for(f.candidate_id, "skills", s), "skills", s)
                                         for s in own[:2]))
            lines.append("skills only this candidate lists: " + ", ".join(own[:12]) + mark)
        lines += [f"languages: {x}" for x in field_lines(book, f, "languages")]
        blocks.append(f"{f.name}:\n" + "\n".join(f"- {x}" for x in lines))
    if shared:
        f0 = people[0]
        s0 = sorted(shared)
        blocks.append("Skills both list: " + ", ".join(s0[:15])
                      + book.cite(facts.chunk_for(f0.candidate_id, "skills", s0[0]), "skills", s0[0]))
    longer = max(people, key=lambda f: f.years or 0)
    blocks.append(f"{longer.name} has the most experience ({longer.years} years).")
    return {"status": "answered", "answer": "\n".join(blocks),
            "data": {"candidate_ids": [f.candidate_id for f in people],
                     "years": {f.candidate_id: f.years for f in people}}}
