"""Why a candidate has their rank: the explanation of one job-match row or one ranked-search row.

An explanation lists each requirement (a job match's columns, or a search's query words)
as met / not met / unknown with the CV line that shows it (file, page, the line's text),
states the scoring rule the rank was computed by, and says what a model contributed (a
language model reading requirements, the embedding model of search, a reranker). It is
built from one row only: the rows, scores and evidence of other candidates never enter
it, so its candidate-facing form (``rank_explain_export``) names nobody else. Qt-free;
reached through ``services.explain_match`` / ``services.explain_search``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import PurePath

from cvrag_desktop.assistant.jobmatch.matrix import parse_requirements, requirement_labels
from cvrag_desktop.catalog.queries import chunk_text
from cvrag_desktop.errors import NotFound
from cvrag_desktop.index.relevance import FLOOR, content_words, found, words_of

MUST_POINTS, NICE_POINTS = 10, 3
MATCH_RULE = (f"Score = {MUST_POINTS} points for each must-have requirement met + {NICE_POINTS} points for each "
              "nice-to-have met. A requirement counts as met only when a line of the CV shows it; "
              "'unknown' (the CV does not say) and 'not met' score nothing. Equal scores are ordered by how "
              "closely the CV's passages match the description in search, then alphabetically.")
SEARCH_RULE = ("Each CV passage is scored by meaning (an embedding model running on this computer) and by "
               "keywords (BM25); the two rankings are fused (reciprocal rank fusion). A person's place is their "
               "best passage's score, more matching passages breaking ties. People whose passages state fewer "
               f"than {FLOOR:.0%} of the search words are listed after the others as weaker matches.")
OVERSIGHT = ("This ranking is an aid to a recruiter. It never rejects anyone: a requirement not met is a flag "
             "for a person to read, and every decision is a recruiter's.")
MAX_LINE = 300


def _lines(text: str) -> list[str]:
    return [" ".join(ln.split()) for ln in (text or "").splitlines() if ln.strip()]


def cited_line(text: str, needle: str = "", *, kind: str = "") -> str:
    """The line of a passage that shows ``needle`` (a skill, a language, a degree), else the first
    dated line for years, else the passage's first line; at most :data:`MAX_LINE` characters."""
    lines = _lines(text) or [""]
    wanted = words_of(needle)
    if wanted:
        for ln in lines:
            have = words_of(ln)
            if all(found(w, have) for w in wanted):
                return ln[:MAX_LINE]
    if kind == "years":
        for ln in lines:
            if re.search(r"\b(?:19|20)\d\d\b", ln):
                return ln[:MAX_LINE]
    return lines[0][:MAX_LINE]


def _chunk_text(catalog, chunk_id: str | None) -> str:
    if catalog is None or not chunk_id:
        return ""
    return chunk_text(catalog, chunk_id)


def _citation(ev: dict, text: str, needle: str, kind: str) -> dict:
    """Where a requirement is shown: file name, page (1-based), section and the line."""
    path = ev.get("source_path") or ""
    page = ev.get("page")
    return {"file": PurePath(path).name if path else "", "page": None if page is None else int(page) + 1,
            "section": ev.get("section") or "", "line": cited_line(text or ev.get("quote") or "", needle, kind=kind),
            "chunk_id": ev.get("chunk_id"), "candidate_id": ev.get("candidate_id"), "bbox": ev.get("bbox")}


def missed_must_haves(row: dict) -> list[str]:
    """The must-have requirements a job-match row does not meet (shown as a flag, never a rejection)."""
    return [c["requirement"] for c in row.get("cells") or [] if c.get("must") and c.get("status") == "not_met"]


def unknown_must_haves(row: dict) -> list[str]:
    """The must-have requirements the CV does not say anything about."""
    return [c["requirement"] for c in row.get("cells") or [] if c.get("must") and c.get("status") == "unknown"]


def _match_row(result: dict, candidate_id: str) -> tuple[int, dict]:
    for rank, row in enumerate(result.get("candidates") or [], start=1):
        if candidate_id in (row.get("candidate_id"), row.get("person_id")):
            return rank, row
    raise NotFound(f"No candidate {candidate_id!r} in this job match.")


def model_contribution_match(result: dict, rules_labels: Iterable[str] | None) -> dict:
    """What a language model added to a job match: requirements the rules alone did not read (when
    the rules' labels are known), and the sample profile used only to order equal scores."""
    if result.get("mode") != "llm":
        return {"used": False, "added_requirements": [],
                "text": "No language model was used: requirements were read by fixed rules and each ✓ or ✗ "
                        "comes from the facts extracted from the CV."}
    added = [] if rules_labels is None else [lbl for lbl in _labels(result) if lbl not in set(rules_labels)]
    text = ("A language model helped read the requirements from the description (anything it proposed was kept "
            "only if written in the description) and wrote a sample matching profile used only to order equal "
            "scores. It did not judge the CV: each ✓ or ✗ comes from the facts extracted from the CV.")
    if added:
        text += " Requirements it added: " + ", ".join(added) + "."
    return {"used": True, "added_requirements": added, "text": text}


def _labels(result: dict) -> list[str]:
    rows = result.get("candidates") or []
    return [c["requirement"] for c in rows[0]["cells"]] if rows else []


def explain_match(result: dict, candidate_id: str, *, catalog=None, jd_text: str | None = None) -> dict:
    """The explanation of one row of a job-match result (``match_jd`` or a saved match's ``result``).

    ``candidate_id`` may be the row's document or person id; ``catalog`` lets the cited line be
    read from the whole passage (else from the stored quote); ``jd_text`` lets a model's added
    requirements be named (the description is read again by the rules alone)."""
    rank, row = _match_row(result, candidate_id)
    evidence = result.get("evidence") or {}
    items, must_met, nice_met = [], 0, 0
    for cell in row.get("cells") or []:
        met = cell.get("status") == "met"
        points = (MUST_POINTS if cell.get("must") else NICE_POINTS) if met else 0
        must_met += bool(met and cell.get("must"))
        nice_met += bool(met and not cell.get("must"))
        ev = evidence.get(cell.get("evidence_id") or "")
        cite = None
        if met and ev and ev.get("candidate_id") in (None, row["candidate_id"]):
            needle = cell["requirement"] if cell.get("kind") in ("skill", "language") else \
                (cell["requirement"].split(" degree")[0] if cell.get("kind") == "degree" else "")
            cite = _citation(ev, _chunk_text(catalog, ev.get("chunk_id")), needle, cell.get("kind") or "")
        items.append({"requirement": cell["requirement"], "kind": cell.get("kind"), "must": bool(cell.get("must")),
                      "status": cell.get("status"), "points": points, "evidence": cite})
    rules_labels = None
    if jd_text and result.get("mode") == "llm":
        rules_labels = requirement_labels(parse_requirements(jd_text))
    return {"kind": "job_match", "candidate_id": row["candidate_id"], "person_id": row.get("person_id"),
            "name": row.get("name") or "", "rank": rank, "ranked": int(result.get("ranked") or
                                                                       len(result.get("candidates") or [])),
            "score": row.get("score"), "breakdown": {"must_met": must_met, "nice_met": nice_met,
                                                     "must_points": MUST_POINTS * must_met,
                                                     "nice_points": NICE_POINTS * nice_met},
            "requirements": items, "flags": missed_must_haves(row), "unknown": unknown_must_haves(row),
            "rule": MATCH_RULE, "model": model_contribution_match(result, rules_labels),
            "not_read": list(result.get("unread") or []), "oversight": OVERSIGHT}


def rank_search_people(main: list[dict], weaker: list[dict], person_of: Callable[[str], str | None]) -> list[dict]:
    """People of a ranked search in the order the Candidates pane shows them: main matches by best
    passage score (more passages break ties), then the weaker ones; each with their hits."""
    def group(hits: list[dict]) -> dict[str, list[dict]]:
        out: dict[str, list[dict]] = {}
        for h in hits:
            pid = person_of(h["candidate_id"])
            if pid:
                out.setdefault(pid, []).append(h)
        return out

    def ordered(groups: dict[str, list[dict]]) -> list[tuple[str, list[dict]]]:
        return sorted(groups.items(), key=lambda kv: (-max(float(h.get("score") or 0) for h in kv[1]), -len(kv[1])))

    first = group(main)
    rest = {p: hs for p, hs in group(weaker).items() if p not in first}
    return [{"person_id": p, "hits": hs, "main": m} for m, part in ((True, first), (False, rest))
            for p, hs in ordered(part)]


def explain_search(query: str, people: list[dict], person_id: str, *, name: str = "",
                   reranker: bool = False, filters: dict | None = None) -> dict:
    """The explanation of one person's place in a ranked search (``people`` from :func:`rank_search_people`).

    The requirements are the query's content words: each found or not in the person's passages
    among the hits, cited by the line that states it."""
    at = next((i for i, p in enumerate(people) if p["person_id"] == person_id), None)
    if at is None:
        raise NotFound(f"{person_id!r} is not among this search's results.")
    me = people[at]
    hits = sorted(me["hits"], key=lambda h: -float(h.get("score") or 0))
    items = []
    for word in content_words(query):
        hit = next((h for h in hits if found(word, words_of(h.get("text") or ""))), None)
        cite = _citation(h_ev(hit), hit.get("text") or "", word, "") if hit else None
        items.append({"requirement": word, "kind": "word", "must": True, "status": "met" if hit else "not_met",
                      "points": None, "evidence": cite})
    best = hits[0]
    words = [i for i in items if i["status"] == "met"]
    coverage = len(words) / len(items) if items else 1.0
    rule = SEARCH_RULE + (" A cross-encoder reranker then re-scored the best passages." if reranker else "")
    if filters:
        rule += " Only CVs passing the filters set (" + ", ".join(sorted(filters)) + ") were searched."
    model = ("No language model is used in search. The embedding model (all-MiniLM-L6-v2, on this computer) only "
             "measures how close in meaning a passage is to the search words"
             + ("; the reranker model re-scored the best passages." if reranker else "."))
    return {"kind": "search", "candidate_id": best["candidate_id"], "person_id": person_id, "name": name,
            "rank": at + 1, "ranked": len(people), "score": round(float(best.get("score") or 0), 6),
            "passages": len(hits), "main": bool(me["main"]), "coverage": round(coverage, 3),
            "best_passage": _citation(h_ev(best), best.get("text") or "", query, ""),
            "requirements": items, "flags": [i["requirement"] for i in items if i["status"] != "met"],
            "unknown": [], "rule": rule, "model": {"used": False, "added_requirements": [], "text": model},
            "not_read": [], "oversight": OVERSIGHT}


def h_ev(hit: dict) -> dict:
    """A search hit as an evidence record (the keys :func:`_citation` reads)."""
    return {"source_path": hit.get("source_path") or "", "page": hit.get("page"), "section": hit.get("section"),
            "candidate_id": hit.get("candidate_id"),
            "chunk_id": hit.get("chunk_id"), "bbox": hit.get("bbox"), "quote": hit.get("text") or ""}
