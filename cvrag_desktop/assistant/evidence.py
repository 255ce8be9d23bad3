"""The evidence the search nodes hand the answer: labelled excerpts and what a plan asks the index for.

Each excerpt gets an id (``E1``, ``E2``, …) the answer must cite; a named person's own
chunks are ranked by the plan's terms instead of searched; a follow-up narrows every
document of the previous answer's people; filters the index cannot evaluate (degree levels,
the exact years bounds) stay with the catalog's facts.
"""

from __future__ import annotations

import re

from cvrag_desktop.assistant.answer.scoped import chunk_score
from cvrag_desktop.assistant.deps import AssistantDeps
from cvrag_desktop.assistant.facts import analytics
from cvrag_desktop.assistant.understand.numbers import EXACT_KEYS
from cvrag_desktop.catalog.queries import any_chunk_contains

TOP_K = 8


def labelled(deps: AssistantDeps, hits: list[dict]) -> list[dict]:
    """Search hits as numbered evidence (``E1``…) with their page, box, source file and score."""
    out = []
    for i, h in enumerate(hits, 1):
        f = deps.facts.get(h["candidate_id"])
        chunk = next((c for c in deps.facts.chunks(h["candidate_id"]) if c.chunk_id == h["chunk_id"]), None)
        out.append({"evidence_id": f"E{i}", "chunk_id": h["chunk_id"], "candidate_id": h["candidate_id"],
                    "candidate_name": h.get("candidate_name"), "section": h["section"], "page": h.get("page"),
                    "bbox": list(chunk.bbox) if chunk and chunk.bbox else None, "text": h["text"],
                    "source_path": f.source_path if f else None, "score": h.get("score"), "facts": []})
    return out


def index_filters(plan: dict, deps: AssistantDeps) -> dict:
    """The share of a plan's filters the index evaluates (not degree levels nor exact years), plus one named person."""
    f = {k: v for k, v in plan["filters"].items() if k != "degree_level" and k not in EXACT_KEYS}
    if plan.get("candidates"):
        vocab = deps.vocab.get()
        names = {vocab.display_names.get(c) for c in plan["candidates"]} - {None, ""}
        if len(names) == 1:
            f["names"] = sorted(names)
    return f


def answer_from(result: dict, book: analytics.EvidenceBook) -> dict:
    """A computed result as an answer: its status, text, and the evidence ids its text cites."""
    cited = re.findall(r"\[(E\d+)\]", result["answer"])
    return {"status": result["status"], "answer": result["answer"], "citations": list(dict.fromkeys(cited)),
            "data": result.get("data", {})}


def documents_of(deps: AssistantDeps, ids: list[str]) -> list[str]:
    """Every document of the people of ``ids`` (a follow-up narrows people, not files)."""
    if deps.people is None:
        return list(ids)
    return sorted({d for p in deps.people.persons(ids) for d in p.documents} | set(ids))


def in_corpus(deps: AssistantDeps, terms: list[str]) -> bool:
    """True when every (long enough) term occurs in some chunk."""
    return all(any_chunk_contains(deps.facts.catalog, t) for t in [t for t in terms if len(t) >= 4][:4])


def named_chunks(deps: AssistantDeps, plan: dict) -> list[dict]:
    """The named people's chunks (every document of each), those carrying what was asked first."""
    people = deps.people.refresh()
    docs = [d for p in plan.get("persons") or [] if p in people.people for d in people.people[p].documents]
    hits, seen = [], set()
    for cid in (docs or plan["candidates"])[:8]:
        f = deps.facts.get(cid)
        for c in deps.facts.chunks(cid):
            key = " ".join(c.text.split())
            if key in seen:
                continue
            seen.add(key)
            hits.append({"chunk_id": c.chunk_id, "candidate_id": cid, "candidate_name": f.name if f else None,
                         "section": c.section, "page": c.page, "text": c.text,
                         "score": chunk_score(c.text, plan) - c.ordinal * 1e-4})
    hits.sort(key=lambda h: -h["score"])
    return hits[:TOP_K]
