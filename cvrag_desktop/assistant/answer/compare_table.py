"""Named people side by side: "compare Ana and Ben" with no dimension asked.

One block per aspect — current role, experience, key skills, education, languages,
certifications — and in it one line per person, each value cited by the chunk that shows
it; what a CV does not state says so. Nothing is ranked: the recruiter compares. The same
cells come back as ``data["table"]`` ({aspect: {candidate_id: text}}) for a caller that
draws a grid.
"""

from __future__ import annotations

from cvrag_desktop.assistant.facts.analytics import EvidenceBook, cite_earliest_role
from cvrag_desktop.assistant.facts.lookup import highest_degree
from cvrag_desktop.assistant.facts.people import PeopleIndex, Person
from cvrag_desktop.assistant.facts.relations import dated_roles, role_line
from cvrag_desktop.assistant.facts.store import CandidateFacts

ASPECTS = ("Current role", "Experience", "Key skills", "Education", "Languages", "Certifications")
SHOWN_SKILLS = 8


def _cite_all(book: EvidenceBook, f: CandidateFacts, field: str, values: list[str], kind: str) -> str:
    marks = [book.cite(book.facts.chunk_for(f.candidate_id, field, v), kind, v) for v in values]
    return "".join(dict.fromkeys(m for m in marks if m))


def _current(book: EvidenceBook, f: CandidateFacts) -> str:
    roles = f.record.get("experiences", [])
    current = [i for i, r in enumerate(roles) if r.get("is_current")]
    if current:
        return "; ".join(role_line(book, f, i, roles[i]) for i in current[:2])
    dated = dated_roles(f)
    if dated:
        i, r = dated[-1]
        return "no current role; latest: " + role_line(book, f, i, r)
    return "no role stated"


def _experience(book: EvidenceBook, f: CandidateFacts) -> str:
    if f.years is None:
        return "no dated work experience"
    return f"{f.years} years" + cite_earliest_role(book, f)


def _skills(book: EvidenceBook, f: CandidateFacts, shared: set[str]) -> str:
    skills = list(f.record.get("skills") or [])
    if not skills:
        return "none listed"
    ordered = [s for s in skills if s in shared] + [s for s in skills if s not in shared]
    shown = ordered[:SHOWN_SKILLS]
    more = f" (+{len(skills) - len(shown)} more)" if len(skills) > len(shown) else ""
    return ", ".join(shown) + more + _cite_all(book, f, "skills", shown[:2], "skills")


def _education(book: EvidenceBook, f: CandidateFacts) -> str:
    best, _rank = highest_degree(f)
    eds = f.record.get("education") or []
    if not eds:
        return "none stated"
    ed = next((e for e in eds if best and e.get("degree") == best), eds[0])
    text = " at ".join(x for x in (ed.get("degree"), ed.get("institution")) if x) or "an entry without a degree"
    value = ed.get("degree") or ed.get("institution") or ""
    i = eds.index(ed)
    where = f"education[{i}].degree" if ed.get("degree") else f"education[{i}].institution"
    mark = book.cite(book.facts.chunk_for(f.candidate_id, where, value, "education"), "text", value)
    more = f" (+{len(eds) - 1} more)" if len(eds) > 1 else ""
    return text + more + mark


def _listed(book: EvidenceBook, f: CandidateFacts, field: str, kind: str, empty: str) -> str:
    values = [v for v in f.record.get(field) or [] if isinstance(v, str)]
    if not values:
        return empty
    return "; ".join(values[:4]) + (f" (+{len(values) - 4} more)" if len(values) > 4 else "") + \
        _cite_all(book, f, field, values[:2], kind)


def compare_side_by_side(book: EvidenceBook, index: PeopleIndex, persons: list[Person]) -> dict:
    """Each aspect with one cited line per person, in the order the question named them."""
    docs = [(p, index.facts.get(p.primary)) for p in persons]
    docs = [(p, f) for p, f in docs if f is not None]
    if len(docs) < 2:
        return {"status": "unknown", "answer": "Name two imported candidates to compare."}
    skill_sets = [set(f.record.get("skills") or []) for _, f in docs]
    shared = set.intersection(*skill_sets) if skill_sets else set()
    table: dict[str, dict[str, str]] = {a: {} for a in ASPECTS}
    for p, f in docs:
        cells = (_current(book, f), _experience(book, f), _skills(book, f, shared), _education(book, f),
                 _listed(book, f, "languages", "languages", "none listed"),
                 _listed(book, f, "certifications", "text", "none listed"))
        for aspect, cell in zip(ASPECTS, cells, strict=True):
            table[aspect][p.primary] = cell
    blocks = []
    for aspect in ASPECTS:
        lines = [f"- {index.display(p)}: {table[aspect][p.primary]}" for p, _ in docs]
        blocks.append(f"{aspect}:\n" + "\n".join(lines))
    if shared:
        blocks.append("Skills both list: " + ", ".join(sorted(shared)[:12]))
    names = " and ".join(index.display(p) for p, _ in docs)
    return {"status": "answered", "answer": f"{names} side by side:\n\n" + "\n\n".join(blocks),
            "data": {"candidate_ids": [p.primary for p, _ in docs], "table": table}}
