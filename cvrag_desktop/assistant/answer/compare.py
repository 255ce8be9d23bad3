"""Compare and rank named people: every one of them, ordered, each with the value compared and cited.

Dimensions: years of experience, seniority (years and the most senior title held),
education (each person's degrees), publications (entries in the publications section)
and a topic ("machine-learning experience", "a DevOps/SRE lead": lines of the CV that
mention the topic's words, its acronym included). The order is computed, so no CV text
can move it; ties are said to be ties.
"""

from __future__ import annotations

import re

from cvrag_desktop.assistant.answer.compare_table import compare_side_by_side
from cvrag_desktop.assistant.facts.analytics import EvidenceBook, cite_earliest_role
from cvrag_desktop.assistant.facts.people import PeopleIndex, Person
from cvrag_desktop.assistant.facts.relations import degrees, role_line
from cvrag_desktop.domain import Chunk
from cvrag_desktop.text.fold import fold
from cvrag_desktop.text.vocab.titles import title_rank

_NUMBERED = re.compile(r"^\s*(\[\d+\]|\d+\.\s)")
_BULLET = re.compile(r"^\s*[•◦▪●■◆➤\-–*]\s")
_DOI = re.compile(r"\b10\.\d{4,}/\S+|\bdoi\b", re.I)


def publication_count(chunks: list[Chunk]) -> tuple[int, Chunk | None]:
    """Entries in the publications section: numbered, bulleted, DOI-bearing, else year-bearing lines."""
    lines: list[str] = []
    first = None
    for c in chunks:
        if c.section == "publications":
            first = first or c
            lines += [ln for ln in c.text.splitlines()[1:] if ln.strip()]
    if not lines:
        return 0, None
    for pattern in (_NUMBERED, _BULLET, _DOI):
        n = sum(1 for ln in lines if pattern.search(ln))
        if n:
            return n, first
    return sum(1 for ln in lines if re.search(r"\b(19|20)\d\d\b", ln)), first


def topic_patterns(topic: list[str]) -> list[re.Pattern]:
    """Patterns for a topic's words, its phrase and the phrase's acronym ("machine learning" → "ML")."""
    words = [w for w in topic if w]
    pats = [re.compile(r"(?<!\w)" + re.escape(w).replace(r"\-", r"[\s-]?") + r"\w{0,3}(?!\w)") for w in words]
    pieces = [p for w in words for p in re.split(r"[-\s]", w) if p]
    if len(pieces) >= 2:
        pats.append(re.compile(r"(?<!\w)" + re.escape("".join(p[0] for p in pieces)) + r"(?!\w)"))
        pats.append(re.compile(r"(?<!\w)" + r"[\s-]".join(re.escape(p) for p in pieces) + r"(?!\w)"))
    return pats


def topic_score(chunks: list[Chunk], topic: list[str]) -> tuple[float, list[Chunk]]:
    """Sum over the CV's lines of the share of topic patterns each mentions; the chunks that score most."""
    pats = topic_patterns(topic)
    total, per_chunk = 0.0, []
    seen: set[str] = set()
    for c in chunks:
        score = 0.0
        for line in c.text.splitlines():
            key = fold(line)
            if not key or key in seen:
                continue
            seen.add(key)
            hit = sum(1 for p in pats if p.search(key))
            score += hit / len(pats) if pats else 0
        total += score
        if score:
            per_chunk.append((score, c))
    per_chunk.sort(key=lambda t: -t[0])
    return round(total, 2), [c for _, c in per_chunk[:2]]


def compare_people(book: EvidenceBook, index: PeopleIndex, persons: list[Person], dimension: str,
                   topic: list[str]) -> dict:
    """Every named person with the compared value, best first ("profile": side by side, unranked)."""
    if dimension == "profile":
        return compare_side_by_side(book, index, persons)
    rows: list[tuple[float, Person, str]] = []
    for p in persons:
        f = index.facts.get(p.primary)
        name = index.display(p)
        if dimension == "education":
            body = degrees(book, p, f, None)["answer"].split("\n", 1)[-1]
            rows.append((0, p, f"{name}:\n" + body))
        elif dimension == "publications":
            n, chunk = publication_count(book.facts.chunks(p.primary))
            rows.append((n, p, f"{name}: {n} publication{'s' if n != 1 else ''} listed"
                         + (book.cite(chunk, "text", "publications") if chunk else " (no publications section)")))
        elif dimension == "topic":
            chunks = [c for d in p.documents[:1] for c in book.facts.chunks(d)]
            score, best = topic_score(chunks, topic)
            marks = "".join(book.cite(c, "text", " ".join(topic)) for c in best)
            if not marks:  # nothing on the topic: show who they are, so the zero is checkable
                role = next(iter(f.record.get("experiences", [])), None)
                marks = (" — " + role_line(book, f, 0, role)) if role else \
                    book.cite(next(iter(chunks), None), "text", f.name)
            rows.append((score, p, f"{name}: {score:g} (lines mentioning {' / '.join(topic)}){marks}"))
        elif dimension == "seniority":
            roles = list(enumerate(f.record.get("experiences", [])))
            top = max(roles, key=lambda t: title_rank(t[1].get("title") or ""), default=None)
            rank = title_rank(top[1].get("title") or "") if top else 0
            years = f.years or 0.0
            line = f"{name}: {years} years of experience" + cite_earliest_role(book, f)
            if top:
                line += "; most senior role: " + role_line(book, f, *top)
            rows.append((rank + years / 5, p, line))
        else:
            years = f.years
            rows.append((years or 0.0, p, f"{name}: " + (f"{years} years of experience" + cite_earliest_role(book, f)
                                                         if years is not None else "no dated work experience")))
    for k, (score, p, text) in enumerate(rows):
        if "[E" not in text:  # nothing dated or on topic: still point at the CV compared
            rows[k] = (score, p, text + book.cite(next(iter(book.facts.chunks(p.primary)), None), "text", p.name))
    if dimension != "education":
        rows.sort(key=lambda t: -t[0])
    lines = [f"{i}. {text}" if dimension != "education" else text for i, (_, _, text) in enumerate(rows, 1)]
    head = {"education": "Education compared:", "publications": "Ranked by publications listed:",
            "topic": f"Ranked by how much their CVs show {' '.join(topic)}:",
            "seniority": "Ranked by seniority (most senior title held, then years of experience):",
            }.get(dimension, "Ranked by years of experience:")
    verdict = ""
    if dimension != "education" and len(rows) >= 2:
        if rows[0][0] == rows[1][0]:
            verdict = f"\n{index.display(rows[0][1])} and {index.display(rows[1][1])} are tied."
        else:
            verdict = f"\n{index.display(rows[0][1])} comes first."
    return {"status": "answered", "answer": head + "\n" + "\n".join(lines) + verdict,
            "data": {"candidate_ids": [p.primary for _, p, _ in rows], "scores": [s for s, _, _ in rows]}}
