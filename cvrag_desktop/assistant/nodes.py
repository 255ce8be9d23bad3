"""The graph's nodes: ``(state, config) -> partial state``.

Services and callables travel in ``config["configurable"]``: ``deps`` (an
:class:`AssistantDeps`), ``on_token`` and ``should_cancel``; the state holds only data
(it is checkpointed). Any language-model failure falls back to the deterministic path
of the same node and leaves a note, so a turn always completes.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import time
from dataclasses import dataclass, field

from langchain_core.runnables import RunnableConfig

from cvrag_desktop.assistant.answer.scoped import scoped_answer
from cvrag_desktop.assistant.facts import analytics, lookup
from cvrag_desktop.assistant.facts.computed import run_intent
from cvrag_desktop.assistant.facts.people import PeopleIndex
from cvrag_desktop.assistant.facts.store import CatalogFacts
from cvrag_desktop.assistant.state import PER_TURN_RESET, AssistantState
from cvrag_desktop.assistant.understand.followup import (
    NO_PREVIOUS,
    follow_up,
    previous_people,
    rewritten,
    seniority_titles,
)
from cvrag_desktop.assistant.understand.numbers import EXACT_KEYS
from cvrag_desktop.assistant.understand.question import about_people, fold, says_currently
from cvrag_desktop.assistant.understand.router import (
    DOMAIN,
    PRONOUNS,
    Plan,
    looks_like_unknown_name,
    parse_question,
)
from cvrag_desktop.assistant.understand.typos import TermCache, correct_question, read_as_note
from cvrag_desktop.assistant.understand.vocabulary import VocabularyCache
from cvrag_desktop.config import Settings
from cvrag_desktop.errors import Cancelled, InvalidInput
from cvrag_desktop.llm import LLM_ERRORS

log = logging.getLogger(__name__)
OUT_OF_SCOPE = ("I can only answer questions about the imported candidates and their CVs "
                "(skills, experience, education, languages, employers).")
TOP_K = 8


@dataclass
class AssistantDeps:
    """What the nodes need: catalog facts, vocabulary, search, settings and "today"."""

    facts: CatalogFacts
    vocab: VocabularyCache
    search: object  # SearchService (duck-typed so tests can pass a stand-in)
    settings: Settings
    as_of: dt.date | None = None
    timeout: float = 60.0
    timings: dict = field(default_factory=dict)
    people: PeopleIndex | None = None
    terms: TermCache | None = None

    def __post_init__(self) -> None:
        if self.people is None:
            self.people = PeopleIndex(self.facts)
        if self.terms is None:
            self.terms = TermCache(self.vocab)

    def today(self) -> dt.date:
        """The date current roles run to."""
        return self.as_of or dt.date.today()


def _cfg(config: RunnableConfig) -> dict:
    return config.get("configurable", {})


def _timed(state: AssistantState, name: str, t0: float) -> dict:
    return {**state.get("timings", {}), name: round((time.perf_counter() - t0) * 1000, 1)}


def last_candidates(messages: list[dict]) -> list[dict]:
    """Candidates cited by the most recent assistant answer (what "she"/"they" refer to)."""
    for m in reversed(messages):
        if m.get("role") == "assistant" and m.get("candidates"):
            return m["candidates"]
    return []


def rewrite_query(state: AssistantState, config: RunnableConfig) -> dict:
    """Standalone question: misspelt words read as the library's terms, pronouns resolved to the last cited
    candidate(s); the LLM when up and useful."""
    t0 = time.perf_counter()
    deps: AssistantDeps = _cfg(config)["deps"]
    question, corrections = correct_question(state["question"], deps.terms.get())
    history = state.get("messages", [])
    previous = last_candidates(history)
    standalone = question
    notes: list[str] = []
    fu = follow_up(question)
    named = bool(previous) and len(previous) <= 2 and PRONOUNS.search(question) is not None
    if fu is not None and not (named and (fu.phrase == "them" or fu.kind == "elliptic")):  # "what about her …": she
        # "which of them know Python?", "and in Berlin?": the rest filters the previous answer's people
        earlier = previous_people(history)
        if earlier is None:
            return {**PER_TURN_RESET, "standalone": question, "notes": [NO_PREVIOUS],
                    "follow_up": {"note": NO_PREVIOUS, "within": None},
                    "read_as": [c.to_dict() for c in corrections],
                    "timings": {"rewrite_ms": round((time.perf_counter() - t0) * 1000, 1)}}
        ids, asked = earlier
        titles, rest = seniority_titles(fu.rest)
        shown = rewritten(fu.rest, len(deps.people.persons(ids)) if deps.people else len(ids), asked)
        return {**PER_TURN_RESET, "standalone": rest or "candidates", "notes": notes,
                "follow_up": {"note": f"Read as: {shown}.", "rewritten": shown, "within": ids, "titles": titles,
                              "previous": asked},
                "read_as": [c.to_dict() for c in corrections],
                "timings": {"rewrite_ms": round((time.perf_counter() - t0) * 1000, 1)}}
    if previous and len(previous) <= 2 and PRONOUNS.search(question):
        names = " and ".join(p["name"] for p in previous)
        standalone = re.sub(r"\b(her|his|their)\b", f"{names}'s", question, flags=re.I)
        standalone = re.sub(r"\b(she|he|him|they|them|this candidate|that candidate|the candidate|this person|"
                            r"that person)\b", names, standalone, flags=re.I)
    elif state.get("llm_up") and history:
        try:
            from cvrag_desktop.assistant.llm_steps import llm_rewrite

            standalone = llm_rewrite(history, question, base_url=deps.settings.llm_base_url,
                                     timeout=deps.timeout) or question
        except LLM_ERRORS as exc:
            notes.append(f"rewrite without the language model: {exc}")
    return {**PER_TURN_RESET, "standalone": standalone, "notes": notes,
            "read_as": [c.to_dict() for c in corrections],
            "timings": {"rewrite_ms": round((time.perf_counter() - t0) * 1000, 1)}}


def route_intent(state: AssistantState, config: RunnableConfig) -> dict:
    """Pick the route and extract filters (rules; merged with one LLM call when a model is up)."""
    t0 = time.perf_counter()
    deps: AssistantDeps = _cfg(config)["deps"]
    q = state["standalone"]
    previous = [p["candidate_id"] for p in last_candidates(state.get("messages", []))]
    fu = state.get("follow_up") or {}
    plan = parse_question(q, deps.vocab.get(), [] if fu.get("within") else previous, deps.people, deps.terms.get())
    if fu.get("within"):  # a follow-up: only the previous answer's people (every document of each)
        plan.filters["within"] = _documents_of(deps, fu["within"])
        if fu.get("titles"):
            plan.filters.setdefault("titles", []).extend(t for t in fu["titles"] if t not in plan.filters["titles"])
        if plan.route in ("hybrid", "out_of_scope") and not plan.terms:
            plan.route = "metadata"  # "only the seniors": a filter and nothing to search for
        elif plan.route == "hybrid":
            plan.route = "hybrid_filtered"
        if plan.route == "metadata" and plan.op is None:
            plan.op = "list"
    notes = list(state.get("notes", []))
    if state.get("llm_up") and plan.route != "analytics":
        try:
            from cvrag_desktop.assistant.llm_steps import llm_route

            plan = llm_route(q, plan, base_url=deps.settings.llm_base_url, timeout=deps.timeout)
        except LLM_ERRORS as exc:
            notes.append(f"routing without the language model: {exc}")
    asked = [fold(w) for w in re.findall(r"[\w'-]+", q)]
    if plan.route == "hybrid" and not fu.get("within") and not _in_corpus(deps, plan.terms) and not any(w in DOMAIN for w in q.lower().split()) \
            and not about_people(asked) and not re.search(r"[\u3040-\u30ff\u3400-\u9fff]", q):
        plan.route = "out_of_scope"  # no entity, no recruiting word, and the CVs never use these words
    plan.unknown_name = looks_like_unknown_name(q, plan)
    return {"route": plan.route, "filters": plan.filters, "plan": plan.to_dict(), "notes": notes,
            "timings": _timed(state, "route_ms", t0)}


def _documents_of(deps: AssistantDeps, ids: list[str]) -> list[str]:
    """Every document of the people of ``ids`` (a follow-up narrows people, not files)."""
    if deps.people is None:
        return list(ids)
    return sorted({d for p in deps.people.persons(ids) for d in p.documents} | set(ids))


def _in_corpus(deps: AssistantDeps, terms: list[str]) -> bool:
    """True when every (long enough) term occurs in some chunk."""
    from cvrag_desktop.catalog.queries import any_chunk_contains

    return all(any_chunk_contains(deps.facts.catalog, t) for t in [t for t in terms if len(t) >= 4][:4])


def select_route(state: AssistantState) -> str:
    """Conditional edge: the node named by the route."""
    return {"out_of_scope": "out_of_scope", "metadata": "metadata_search", "hybrid": "hybrid_search",
            "hybrid_filtered": "hybrid_filtered_search", "analytics": "analytics"}[state["route"]]


def out_of_scope(state: AssistantState, config: RunnableConfig) -> dict:
    """The fixed reply for questions that are not about the candidates; no retrieval."""
    return {"answer": {"status": "unknown", "answer": OUT_OF_SCOPE, "citations": []}, "evidence": []}


def _labelled(deps: AssistantDeps, hits: list[dict]) -> list[dict]:
    out = []
    for i, h in enumerate(hits, 1):
        f = deps.facts.get(h["candidate_id"])
        chunk = next((c for c in deps.facts.chunks(h["candidate_id"]) if c.chunk_id == h["chunk_id"]), None)
        out.append({"evidence_id": f"E{i}", "chunk_id": h["chunk_id"], "candidate_id": h["candidate_id"],
                    "candidate_name": h.get("candidate_name"), "section": h["section"], "page": h.get("page"),
                    "bbox": list(chunk.bbox) if chunk and chunk.bbox else None, "text": h["text"],
                    "source_path": f.source_path if f else None, "score": h.get("score"), "facts": []})
    return out


def _index_filters(plan: dict, deps: AssistantDeps) -> dict:
    f = {k: v for k, v in plan["filters"].items() if k != "degree_level" and k not in EXACT_KEYS}
    if plan.get("candidates"):
        vocab = deps.vocab.get()
        names = {vocab.display_names.get(c) for c in plan["candidates"]} - {None, ""}
        if len(names) == 1:
            f["names"] = sorted(names)
    return f


def _answer_from(result: dict, book: analytics.EvidenceBook) -> dict:
    cited = re.findall(r"\[(E\d+)\]", result["answer"])
    return {"status": result["status"], "answer": result["answer"], "citations": list(dict.fromkeys(cited)),
            "data": result.get("data", {})}


def metadata_search(state: AssistantState, config: RunnableConfig) -> dict:
    """Filters only: every matching candidate (metadata strategy over the catalog), each fact cited."""
    t0 = time.perf_counter()
    deps: AssistantDeps = _cfg(config)["deps"]
    plan = state["plan"]
    # Same normalisation and semantics as the index payload filters (candidate_payload), evaluated over
    # the catalog: exact, complete (no k), never stale, and ~100x faster than a local-mode scroll.
    pool = deps.facts.matching(plan["filters"])
    book = analytics.EvidenceBook(deps.facts)
    result = analytics.list_pool(book, pool, plan["filters"], people=deps.people)
    return {"evidence": book.items, "answer": _answer_from(result, book), "timings": _timed(state, "retrieve_ms", t0)}


def _search(state: AssistantState, config: RunnableConfig, strategy: str) -> dict:
    t0 = time.perf_counter()
    deps: AssistantDeps = _cfg(config)["deps"]
    plan = state["plan"]
    filters = _index_filters(plan, deps) if strategy == "filtered" else {}
    query = " ".join(plan.get("terms") or []) or state["standalone"]
    if strategy == "filtered" and (plan.get("persons") or (plan.get("candidates") and set(filters) <= {"names"})):
        # a named candidate: rank that CV's own chunks by the terms (exact and instant)
        hits = _named_chunks(deps, plan)
        return {"evidence": _labelled(deps, hits), "timings": _timed(state, "retrieve_ms", t0)}
    exact = {k: v for k, v in plan["filters"].items() if k == "degree_level" or k in EXACT_KEYS}
    try:
        hits = deps.search.search(query, filters or None, k=TOP_K * 2 if exact else TOP_K,
                                  strategy=strategy if filters else "hybrid")
    except InvalidInput:
        hits = []
    if exact:  # what the index cannot filter: degree levels, the exact years bounds
        hits = [h for h in hits if (f := deps.facts.get(h["candidate_id"])) and deps.facts.matches(f, exact)][:TOP_K]
    return {"evidence": _labelled(deps, hits), "timings": _timed(state, "retrieve_ms", t0)}


def _named_chunks(deps: AssistantDeps, plan: dict) -> list[dict]:
    """The named people's chunks (every document of each), those carrying what was asked first."""
    from cvrag_desktop.assistant.answer.scoped import chunk_score

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


def hybrid_search(state: AssistantState, config: RunnableConfig) -> dict:
    """Free text: dense + BM25 over all chunks."""
    return _search(state, config, "hybrid")


def hybrid_filtered_search(state: AssistantState, config: RunnableConfig) -> dict:
    """Free text within the filtered (or named) candidates."""
    return _search(state, config, "filtered")


def analytics_node(state: AssistantState, config: RunnableConfig) -> dict:
    """Exact answers over the structured facts (identical with or without a model)."""
    t0 = time.perf_counter()
    deps: AssistantDeps = _cfg(config)["deps"]
    p = Plan(**state["plan"])
    book = analytics.EvidenceBook(deps.facts)
    today = deps.today()
    computed = run_intent(book, deps.people, p.intent, today, p.filters) if p.intent else None
    if computed is not None:
        result = computed
    elif p.op == "compare":
        result = lookup.compare(deps.facts, book, p.candidates, today)
    elif p.op == "lookup":
        names = {c: deps.people.display(person) for c in p.candidates if (person := deps.people.person_of(c))}
        result = lookup.lookup(deps.facts, book, p.candidates, p.field or "profile", names)
    elif p.op in ("longest_tenure", "shortest_tenure"):
        current = bool(re.search(r"\b(current|present)\b", state["standalone"], re.I)) or \
            says_currently(state["standalone"])
        result = analytics.tenure(deps.facts, book, p.filters, today, p.op == "longest_tenure", current)
    elif p.op in ("most_experience", "least_experience"):
        result = analytics.experience_extreme(deps.facts, book, p.filters, p.op == "most_experience")
    elif p.op == "skill_years" and p.skill:
        result = analytics.skill_years(deps.facts, book, p.skill, today)
    else:
        result = analytics.list_pool(book, deps.facts.matching(p.filters), p.filters, p.op == "count", deps.people)
    return {"evidence": book.items, "answer": _answer_from(result, book), "timings": _timed(state, "retrieve_ms", t0)}


def generate_answer(state: AssistantState, config: RunnableConfig) -> dict:
    """Compose the answer: computed routes keep theirs; search routes ask the model, else quote extractively."""
    t0 = time.perf_counter()
    if state.get("answer"):
        return {"answer": {**state["answer"], "mode": "deterministic"}}
    cfg = _cfg(config)
    deps: AssistantDeps = cfg["deps"]
    plan, evidence, notes = state["plan"], state.get("evidence", []), list(state.get("notes", []))
    if plan.get("unknown_name"):
        return {"answer": {"status": "unknown", "mode": "deterministic", "citations": [],
                           "answer": f"No imported CV belongs to a candidate called {plan['unknown_name']}."}}
    if state.get("llm_up") and evidence:
        from cvrag_desktop.assistant.llm_steps import llm_answer

        try:
            reply, rejected = llm_answer(state["standalone"], evidence, plan, deps.vocab.get().display_names,
                                         base_url=deps.settings.llm_base_url, timeout=deps.timeout,
                                         on_token=cfg.get("on_token"), should_cancel=cfg.get("should_cancel"))
            return {"answer": {**reply.model_dump(), "mode": "llm"}, "notes": notes + rejected,
                    "timings": _timed(state, "answer_ms", t0)}
        except Cancelled:
            raise
        except LLM_ERRORS as exc:
            notes.append(f"deterministic answer: the language model's reply was not usable ({exc})")
            # the model may have rewritten or re-routed the question: the fallback is the whole turn
            # as the no-model mode answers it, not an extract of the model's evidence
            return {**deterministic_turn(state, config), "notes": notes, "timings": _timed(state, "answer_ms", t0)}
    people = deps.people.refresh()
    person_of = {e["candidate_id"]: p.person_id for e in evidence if (p := people.person_of(e["candidate_id"]))}
    names = {cid: people.display(people.people[pid]) for cid, pid in person_of.items()}
    result = scoped_answer(evidence, {**plan, "person_of": person_of}, state["standalone"], names)
    return {"answer": {**result, "mode": "deterministic"}, "notes": notes, "timings": _timed(state, "answer_ms", t0)}


def deterministic_turn(state: AssistantState, config: RunnableConfig) -> dict:
    """The turn answered as ``ask(..., use_llm=False)`` answers it: rules rewrite, route, retrieval, answer.

    Taken after a model's answer was rejected or timed out, so the user sees the same answer
    the no-model mode gives (the model's rewrite and route are dropped with its reply).
    """
    turn: dict = {"question": state["question"], "messages": state.get("messages", []), "use_llm": False,
                  "llm_up": False}
    turn.update(rewrite_query(turn, config))
    turn.update(route_intent(turn, config))
    retrieve = {"out_of_scope": out_of_scope, "metadata_search": metadata_search, "hybrid_search": hybrid_search,
                "hybrid_filtered_search": hybrid_filtered_search, "analytics": analytics_node}[select_route(turn)]
    turn.update(retrieve(turn, config))
    turn.update(generate_answer(turn, config))
    turn["answer"] = {**turn["answer"], "mode": "deterministic"}
    return {k: turn[k] for k in ("standalone", "route", "filters", "plan", "evidence", "answer", "read_as")}


def validate(state: AssistantState, config: RunnableConfig) -> dict:
    """Last gate for every route: cited ids must have been given; an uncited answer becomes unknown.

    It also records the turn (question and answer) in the thread, unless the turn was
    cancelled meanwhile: a superseded question leaves no half-turn in the history.
    """
    answer = dict(state["answer"])
    given = {e["evidence_id"]: e for e in state.get("evidence", [])}
    cited = [c for c in dict.fromkeys(answer.get("citations", [])) if c in given]
    if len(cited) != len(set(answer.get("citations", []))):
        log.warning("dropping citations that were not given: %s", answer.get("citations"))
    if answer["status"] == "answered" and not cited:
        answer = {**answer, "status": "unknown", "answer": "I could not find support for an answer in the CVs."}
    answer["citations"] = cited
    if note := (state.get("follow_up") or {}).get("note"):
        answer = {**answer, "answer": f"{note}\n{answer['answer']}"}  # the follow-up as it was read
    if note := read_as_note(state.get("read_as") or []):
        answer = {**answer, "answer": f"{note}\n{answer['answer']}"}  # what was read, before what was found
    people = []
    for c in cited:
        e = given[c]
        if all(p["candidate_id"] != e["candidate_id"] for p in people):
            # where the first citation is, so a chip restored after a restart opens the cited page
            people.append({"candidate_id": e["candidate_id"], "name": e.get("candidate_name") or "",
                           "page": e.get("page"), "bbox": e.get("bbox"), "quote": " ".join(e["text"].split())[:300],
                           "facts": list(e.get("facts") or [])[:4]})
    matched = (answer.get("data") or {}).get("candidate_ids")
    message = {"role": "assistant", "content": answer["answer"], "status": answer["status"],
               "route": state.get("route", ""), "candidates": people[:10],
               # what a follow-up narrows: every person a list/count answer found, else the cited ones
               "people": list(matched) if matched else [p["candidate_id"] for p in people],
               "asked": state["question"] if state.get("follow_up") else state.get("standalone") or state["question"]}
    should_cancel = _cfg(config).get("should_cancel")
    if should_cancel is not None and should_cancel():
        raise Cancelled("A newer question superseded this one.")
    return {"answer": answer, "messages": [{"role": "user", "content": state["question"]}, message]}
