"""Scoped extractive answering: the CV lines that carry what was asked, quoted and cited.

Used when no computed route applies. The evidence (a named person's chunks, or the
search hits) is split into lines; a line supports the answer when it states the concept
asked about (``resources/concepts.yaml``: "promoviert" → a line with "Doktorarbeit") or,
without a concept, when it carries at least two thirds of the question's content words.
Lines are ranked by that support; a short label line ("Thesis:") brings the line after
it. ``unknown`` is returned only when no line carries what was asked, and says what was
looked for and where.
"""

from __future__ import annotations

import itertools
import math
import re

from cvrag_desktop.assistant.understand.question import concepts, line_states
from cvrag_desktop.text.fold import fold
from cvrag_desktop.text.keys import text_key
from cvrag_desktop.text.stems import suffix_stem
from cvrag_desktop.text.vocab.degrees import DEGREE_LEVELS, QUESTION_LEVELS

MAX_PEOPLE = 5
LINES_PER_PERSON = 3
LIST_CONCEPTS = {"award", "certification", "publication", "patents", "courses", "projects", "volunteering"}
LINES_PER_LIST = 6
# concepts that have a section of their own: its entries answer even without the concept's word
SECTION_OF = {"award": "awards", "certification": "certifications", "publication": "publications",
              "projects": "projects"}
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


def _concepts(plan: dict) -> list:
    by_id = {c.cid: c for c in concepts()}
    return [by_id[c] for c in plan.get("concepts") or [] if c in by_id]


def _terms(plan: dict) -> list[str]:
    """Content terms plus the skills the question names (scoped to named people, a skill is asked about)."""
    terms = list(plan.get("terms") or [])
    if plan.get("persons"):
        terms += [fold(s) for s in (plan.get("filters") or {}).get("skills", []) if fold(s) not in terms]
    return terms


def _cjk_match(term: str, text: str) -> bool:
    """A CJK term is in the text when two thirds of its character pairs are ("公司实习" ~ "公司 … 实习")."""
    if term in text:
        return True
    pairs = [term[i:i + 2] for i in range(len(term) - 1)]
    return len(pairs) >= 2 and sum(p in text for p in pairs) >= math.ceil(len(pairs) * 2 / 3)


def term_hits(line: str, terms: list[str]) -> int:
    """How many content terms a line mentions (stemmed words; CJK terms by character pairs)."""
    if not terms:
        return 0
    folded = fold(line)
    words = {suffix_stem(w) for w in re.findall(r"\w+", text_key(line))}
    n = 0
    for t in terms:
        if _CJK.search(t):
            n += _cjk_match(t, folded.replace(" ", ""))
        else:
            n += suffix_stem(t) in words or any(w.startswith(t) for w in words if len(t) >= 5)
    return n


def _levels_in(text: str) -> set[str]:
    key = fold(text)
    return {lvl for lvl, pattern in DEGREE_LEVELS if pattern.search(key)}


def _level_of_term(term: str) -> str | None:
    return next((lvl for lvl, pattern in QUESTION_LEVELS if pattern.fullmatch(term)), None)


def line_support(line: str, terms: list[str], wanted: list, context: str = "") -> float:
    """Support of one line; ``context`` (the line before) tells which degree a "Thesis:" line belongs to."""
    levels = {lv for t in terms if (lv := _level_of_term(t))}
    if levels:
        found = _levels_in(f"{context}\n{line}")
        plain = [t for t in terms if not _level_of_term(t)]
        base = _line_support(line, plain, wanted) if (plain or wanted) else (1.0 if found & levels else 0.0)
        if base and found:
            base *= 1.5 if found & levels else 0.5
        return base
    return _line_support(line, terms, wanted)


def _line_support(line: str, terms: list[str], wanted: list) -> float:
    """0 when the line does not carry what was asked; else a score (concept stated + share of terms)."""
    hits = term_hits(line, terms)
    if wanted:  # the most specific concept must be stated; the others only add to the score
        if not line_states(line, wanted[0]):
            return 0.0
        if terms and not hits and wanted[0].cid in LIST_CONCEPTS:
            return 0.0  # "a PMP certificate": a certificate line without PMP states nothing asked
        extra = sum(line_states(line, c) for c in wanted[1:]) * 0.25
        return 1.0 + extra + (hits / len(terms) if terms else 0.0)
    if not terms:
        return 0.0
    need = max(1, math.ceil(len(terms) * 2 / 3))
    return hits / len(terms) if hits >= need else 0.0


def _quote(lines: list[str], i: int) -> str:
    text = " ".join(lines[i].split())
    nxt = " ".join(lines[i + 1].split()) if i + 1 < len(lines) else ""
    if nxt and (text.endswith(":") or len(text) < 60 or nxt[:1].islower() or nxt[:1] in "„“\"'«"):
        text = f"{text} {nxt}"
    return text[:300]


def supporting_lines(evidence: list[dict], plan: dict) -> list[tuple[float, dict, str]]:
    """(score, evidence, quote) of every supporting line, best first."""
    terms, wanted = _terms(plan), _concepts(plan)
    out: list[tuple[float, dict, str]] = []
    for rank, e in enumerate(evidence):
        lines = [ln for ln in e["text"].splitlines() if ln.strip()]
        in_section = bool(wanted) and SECTION_OF.get(wanted[0].cid) == e.get("section")
        for i, ln in enumerate(lines):
            score = line_support(ln, terms, wanted, lines[i - 1] if i else "")
            if not score and in_section and i > 0 and not terms:
                # every entry of the section asked about ("Best Poster", "GRASCOMP 2024 …" under Awards), unless
                # the question names one ("a PMP certificate": a line without PMP states nothing asked)
                score = 0.9
            if score:
                out.append((score - rank * 1e-3, e, _quote(lines, i)))
            elif i + 1 < len(lines) and (score := line_support(f"{ln}\n{lines[i + 1]}", terms, wanted)):
                # what was asked wraps over two lines ("黑科技公司上海 …" / "实习 …")
                both = " ".join(f"{ln} {lines[i + 1]}".split())[:300]
                out.append((score * 0.9 - rank * 1e-3, e, both))
        if not wanted and terms and not any(o[1] is e for o in out):
            # the words asked about spread over one excerpt ("built … the data … pipelines"): its best line
            whole = line_support(e["text"], terms, wanted)
            if whole:
                i = max(range(len(lines)), key=lambda k: term_hits(lines[k], terms))
                out.append((whole * 0.5 - rank * 1e-3, e, _quote(lines, i)))
    out.sort(key=lambda t: -t[0])
    return out


def chunk_score(text: str, plan: dict) -> float:
    """The best line support inside a chunk (to rank a named person's chunks)."""
    terms, wanted = _terms(plan), _concepts(plan)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    pairs = [f"{a}\n{b}" for a, b in itertools.pairwise(lines)]
    return max((line_support(ln, terms, wanted) for ln in lines + pairs), default=0.0)


def what_was_asked(plan: dict, question: str) -> str:
    """"a salary expectation" / "“kotlin”": the thing looked for, as a phrase."""
    wanted = _concepts(plan)
    if wanted:
        return " or ".join(dict.fromkeys(c.label for c in wanted[:2]))
    terms = plan.get("terms") or []
    if terms:
        return "“" + " ".join(terms) + "”"
    return "“" + question.strip().rstrip("?？") + "”"


def scoped_answer(evidence: list[dict], plan: dict, question: str, names: dict[str, str] | None = None) -> dict:
    """The best supporting lines, grouped by person and cited; or ``unknown`` saying what was looked for."""
    person_of = plan.get("person_of") or {}
    per_person = LINES_PER_LIST if set((plan.get("concepts") or [])[:1]) & LIST_CONCEPTS else LINES_PER_PERSON
    picked: dict[str, list[tuple[dict, str]]] = {}
    for _, e, quote in supporting_lines(evidence, plan):
        who = person_of.get(e["candidate_id"], e["candidate_id"])
        if who not in picked and len(picked) >= MAX_PEOPLE:
            continue
        chosen = picked.setdefault(who, [])
        if len(chosen) < per_person and all(fold(quote) not in fold(q) and fold(q) not in fold(quote)
                                            for _, q in chosen):
            chosen.append((e, quote))
    if not picked:
        what = what_was_asked(plan, question)
        if plan.get("candidates"):
            who = " or ".join(dict.fromkeys((names or {}).get(c) or next((e.get("candidate_name") for e in evidence
                                                                         if e["candidate_id"] == c), None) or "the CV"
                                            for c in plan["candidates"]))
            return {"status": "unknown", "answer": f"{who}'s CV does not state {what} (searched every section of "
                    f"the CV).", "citations": []}
        scope = "the CVs that match the question's filters" if plan.get("filters") else "the imported CVs"
        return {"status": "unknown", "answer": f"None of {scope} states {what}.", "citations": []}
    lines, cited = [], []
    for group in picked.values():
        e0 = group[0][0]
        label = (names or {}).get(e0["candidate_id"]) or e0.get("candidate_name") or "Unknown"
        quotes = "; ".join(f"“{q}” [{e['evidence_id']}]" for e, q in group)
        lines.append(f"- {label} ({e0['section']}): {quotes}")
        cited += [e["evidence_id"] for e, _ in group]
    return {"status": "answered", "answer": "Matching CV lines (extractive answer, no language model):\n" + "\n".join(lines),
            "citations": list(dict.fromkeys(cited))}
