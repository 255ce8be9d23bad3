"""A person's history queried as a history: before/after an employer, the role there, first/latest role, degrees.

"Where did X work before joining Y?", "What did X do at Y?", "X's most recent role",
"Which university did X's master's come from?": answered in code from the structured
record of the person's richest document, each fact cited by the chunk that shows it.
Roles are ordered by start date; undated roles keep the CV's order (newest first, as
CVs are written).
"""

from __future__ import annotations

import datetime as dt

from cvrag_desktop.assistant.facts.analytics import EvidenceBook, role_label
from cvrag_desktop.assistant.facts.people import Person
from cvrag_desktop.assistant.facts.store import CandidateFacts
from cvrag_desktop.domain import parse_partial_date
from cvrag_desktop.text.companies import employer_key
from cvrag_desktop.text.fold import fold
from cvrag_desktop.text.vocab.degrees import LEVEL_WORDS, degree_level


def dated_roles(f: CandidateFacts) -> list[tuple[int, dict]]:
    """The roles of a document, oldest first (undated roles placed by their position in the CV)."""
    roles = list(enumerate(f.record.get("experiences", [])))
    n = len(roles)

    def order(item: tuple[int, dict]) -> tuple:
        i, r = item
        start = parse_partial_date(r.get("start")) or parse_partial_date(r.get("end"))
        return (start or dt.date.min, n - i)

    if all((parse_partial_date(r.get("start")) or parse_partial_date(r.get("end"))) is None for _, r in roles):
        return list(reversed(roles))
    return sorted(roles, key=order)


def _dates(r: dict) -> str:
    end = "present" if r.get("is_current") else (r.get("end") or "")
    span = " – ".join(x for x in (r.get("start") or "", end) if x)
    return f" ({span})" if span else ""


def role_line(book: EvidenceBook, f: CandidateFacts, i: int, r: dict, bullets: int = 0) -> str:
    """"Title at Company (2019-03 – present) [E2]" plus up to ``bullets`` of what they did."""
    what = " at ".join(x for x in (r.get("title"), r.get("company")) if x) or "(role not named)"
    line = what + _dates(r) + book.cite(book.facts.role_chunk(f.candidate_id, i), "text", role_label(r))
    done = [" ".join(b.split()) for b in r.get("bullets", []) if len(b.split()) >= 3][:bullets]
    if bullets and len(done) < 2:  # the record kept little of what they did: quote the role's own lines
        chunk = book.facts.role_chunk(f.candidate_id, i)
        head = {fold(x) for x in (r.get("title"), r.get("company")) if x}
        extra = [" ".join(x.split()) for x in (chunk.text.splitlines() if chunk else [])
                 if len(x.split()) >= 3 and not any(h and h in fold(x) for h in head)]
        done += [x for x in extra if x not in done][:bullets - len(done)]
    return line + "".join(f"\n  • {b}" for b in done)


def matches_employer(company: str | None, wanted: str) -> bool:
    """Same employer, spacing and legal suffixes ignored ("Danggeun Pay Inc." ~ "danggeun pay")."""
    if not company:
        return False
    a, b = employer_key(company), employer_key(wanted)
    return bool(a and b) and (a == b or (min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a))))


def _find_role(roles: list[tuple[int, dict]], employer: str) -> int | None:
    return next((pos for pos, (_, r) in enumerate(roles) if matches_employer(r.get("company"), employer)), None)


def neighbour_employer(book: EvidenceBook, person: Person, f: CandidateFacts, employer: str, before: bool) -> dict:
    """The role just before (or after) the person's time at ``employer``."""
    roles = dated_roles(f)
    pos = _find_role(roles, employer)
    if pos is None:
        return {"status": "unknown", "answer": f"{person.name}'s CV does not list a role at {employer}."}
    same = {employer_key(roles[pos][1].get("company") or "")}
    step = -1 if before else 1
    j = pos + step
    while 0 <= j < len(roles) and employer_key(roles[j][1].get("company") or "") in same:
        j += step  # several roles at one employer count as one stay
    here = role_line(book, f, *roles[pos])
    if not 0 <= j < len(roles):
        word = "first" if before else "latest"
        return {"status": "answered", "answer": f"{person.name}: {employer} is the {word} employer on the CV: {here}",
                "data": {"candidate_ids": [f.candidate_id]}}
    other = role_line(book, f, *roles[j])
    word = "Before" if before else "After"
    return {"status": "answered", "answer": f"{person.name}: {word} {employer} ({here}):\n- {other}",
            "data": {"candidate_ids": [f.candidate_id]}}


def role_at(book: EvidenceBook, person: Person, f: CandidateFacts, employer: str) -> dict:
    """What the person did at ``employer``: each role there with title, dates and what they did."""
    roles = [(i, r) for i, r in enumerate(f.record.get("experiences", [])) if matches_employer(r.get("company"),
                                                                                                employer)]
    if not roles:
        return {"status": "unknown", "answer": f"{person.name}'s CV does not list a role at {employer}."}
    lines = [role_line(book, f, i, r, bullets=4) for i, r in roles]
    return {"status": "answered", "answer": f"{person.name} at {employer}:\n" + "\n".join(f"- {x}" for x in lines),
            "data": {"candidate_ids": [f.candidate_id]}}


def end_role(book: EvidenceBook, person: Person, f: CandidateFacts, latest: bool) -> dict:
    """The person's most recent (current first) or first role."""
    roles = dated_roles(f)
    if not roles:
        return {"status": "unknown", "answer": f"{person.name}'s CV lists no roles."}
    if latest:
        current = [(i, r) for i, r in roles if r.get("is_current")]
        pick = current[-1] if current else roles[-1]
    else:
        pick = roles[0]
    word = "Most recent role" if latest else "First role"
    return {"status": "answered", "answer": f"{person.name} — {word}: {role_line(book, f, *pick, bullets=2)}",
            "data": {"candidate_ids": [f.candidate_id]}}


def _printed_after(chunk, degree: str) -> str:
    """When the record holds no institution: the CV's own lines after the degree, quoted."""
    lines = [" ".join(x.split()) for x in (chunk.text.splitlines() if chunk else []) if x.strip()]
    key = fold(degree)[:30]
    at = next((k for k, x in enumerate(lines) if key and key in fold(x)), None)
    after = [x for x in lines[at + 1:at + 3]] if at is not None else []
    return f" (the CV continues: “{' / '.join(after)[:160]}”)" if after else ", institution not stated"


def degrees(book: EvidenceBook, person: Person, f: CandidateFacts, level: str | None) -> dict:
    """Degrees (of one level, or all) with the institution that gave each."""
    out = []
    for i, ed in enumerate(f.record.get("education", [])):
        degree = ed.get("degree") or ""
        if level and degree_level(degree) != level:
            continue
        if not (degree or ed.get("institution")):
            continue
        span = " – ".join(x for x in (ed.get("start"), ed.get("end")) if x)
        label = degree or ed["institution"]
        where = f"education[{i}].degree" if degree else f"education[{i}].institution"
        chunk = book.facts.chunk_for(f.candidate_id, where, label, "education")
        text = degree + (f", {ed['institution']}" if ed.get("institution") else _printed_after(chunk, degree))
        out.append(text + (f" ({span})" if span else "") + book.cite(chunk, "text", label))
    if not out:
        what = f"a {LEVEL_WORDS[level]}" if level else "any degree"
        return {"status": "unknown", "answer": f"{person.name}'s CV does not state {what}."}
    return {"status": "answered", "answer": f"{person.name}:\n" + "\n".join(f"- {x}" for x in out),
            "data": {"candidate_ids": [f.candidate_id]}}
