"""``AssistantService``: the chat and job-matching operations the GUI and CLI call.

``ask`` runs one turn of the graph for a thread and returns a plain dict (status,
answer, route, filters, mode, citations with page/bbox for the preview). A language
model is used only when the caller allows it, the settings enable it and the health
probe finds the endpoint and its model; otherwise the turn is answered in the labelled
deterministic mode. The token callback carries a *draft*: the returned, validated
answer replaces it.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import uuid
from collections.abc import Callable

from cvrag_desktop.assistant.deps import AssistantDeps
from cvrag_desktop.assistant.facts.people import PeopleIndex
from cvrag_desktop.assistant.facts.store import CatalogFacts
from cvrag_desktop.assistant.graph import build_graph
from cvrag_desktop.assistant.jobmatch.matrix import match_job
from cvrag_desktop.assistant.memory import THREADS_FILE, ThreadStore
from cvrag_desktop.assistant.understand.vocabulary import VocabularyCache
from cvrag_desktop.catalog.compliance.audit import audit_for, digest
from cvrag_desktop.catalog.compliance.audit_events import ranking_details
from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.store.disk_space import ensure_room
from cvrag_desktop.catalog.store.read_only import add_note
from cvrag_desktop.config import AppPaths, Settings
from cvrag_desktop.errors import InvalidInput, NotFound
from cvrag_desktop.llm import QUALITY_ALIAS, probe
from cvrag_desktop.llm.config import get_route

log = logging.getLogger(__name__)
MAX_QUESTION = 2000


def citation_records(answer: dict, evidence: list[dict]) -> list[dict]:
    """The cited evidence as the CLI/GUI shape (one entry per cited chunk, in citation order)."""
    given = {e["evidence_id"]: e for e in evidence}
    out = []
    for eid in answer.get("citations", []):
        e = given[eid]
        quote = " ".join(e["text"].split())
        out.append({"evidence_id": eid, "candidate_id": e["candidate_id"], "candidate_name": e.get("candidate_name"),
                    "source_path": e.get("source_path"), "page": e.get("page"), "section": e["section"],
                    "quote": quote[:400], "chunk_id": e["chunk_id"], "bbox": e.get("bbox"),
                    "facts": e.get("facts", []), "full_text": e["text"]})
    return out


def dedupe_sources(citations: list[dict]) -> list[dict]:
    """One entry per candidate (the first cited chunk): the source list the GUI shows."""
    seen, out = set(), []
    for c in citations:
        if c["candidate_id"] not in seen:
            seen.add(c["candidate_id"])
            out.append(c)
    return out


class AssistantService:
    """Grounded Q&A and job matching over the catalog, with per-thread memory."""

    def __init__(self, catalog: Catalog, search_service, paths: AppPaths, settings: Settings, *,
                 as_of: dt.date | None = None) -> None:
        self.catalog = catalog
        self.search = search_service
        self.paths = paths
        self.settings = settings
        self.facts = CatalogFacts(catalog)
        self.vocab = VocabularyCache(catalog)
        self.people = PeopleIndex(self.facts)
        self.deps = AssistantDeps(self.facts, self.vocab, search_service, settings, as_of=as_of,
                                  timeout=settings.llm_timeout_s, people=self.people)
        self.threads_store = ThreadStore(paths.data_dir / THREADS_FILE)
        self.graph = build_graph(self.threads_store.checkpointer)

    def close(self) -> None:
        """Release the thread database."""
        self.threads_store.close()

    def llm_available(self, use_llm: bool = True) -> bool:
        """True when a model may and can be asked (settings on, endpoint up, answer model installed)."""
        if not use_llm or not self.settings.llm_enabled:
            return False
        try:
            route = get_route(QUALITY_ALIAS, base_url=self.settings.llm_base_url)
            health = probe(self.settings.llm_base_url)
            return health.reachable and (not route.is_ollama or health.has_model(route.provider_model))
        except Exception as exc:  # a broken LLM stack must not break the chat
            log.info("LLM unavailable: %s", exc)
            return False

    def ask(self, question: str, thread_id: str | None = None, use_llm: bool = True,
            on_token: Callable[[str], None] | None = None,
            should_cancel: Callable[[], bool] | None = None) -> dict:
        """Answer one question in a thread (a new thread when none is given)."""
        question = " ".join((question or "").split())
        if len(question) > MAX_QUESTION:  # cut at a word boundary, never inside a word
            question = question[:MAX_QUESTION].rsplit(" ", 1)[0]
        if not question:
            raise InvalidInput("Type a question.")
        thread_id = thread_id or uuid.uuid4().hex[:12]
        if not self.threads_store.read_only:  # the turn is saved as the graph runs: room first (disk_space.py)
            ensure_room(self.threads_store.path.parent, "the question was not asked")
        llm_up = self.llm_available(use_llm)
        config = {"configurable": {"thread_id": thread_id, "deps": self.deps, "on_token": on_token,
                                   "should_cancel": should_cancel}}
        # the turn (question and answer) is appended by the last node: a cancelled turn leaves no trace
        state = self.graph.invoke({"question": question, "use_llm": use_llm, "llm_up": llm_up}, config)
        self.threads_store.touch(thread_id, question)
        if self.threads_store.read_only:
            add_note(f"the data folder {self.threads_store.path.parent} is read-only: this conversation turn was "
                     "answered but not saved")
        answer = state["answer"]
        citations = citation_records(answer, state.get("evidence", []))

        # a machine output shown: which candidates the answer cites (references), never the question or answer
        audit_for(self.catalog).record_shown("chat.answer", details={
            "ranking": list(dict.fromkeys(c["candidate_id"] for c in citations if c.get("candidate_id"))),
            "status": answer["status"], "route": state.get("route"), "mode": answer.get("mode", "deterministic"),
            "thread": thread_id})
        return {
            "status": answer["status"], "answer": answer["answer"], "route": state.get("route"),
            "filters": state.get("filters", {}), "mode": answer.get("mode", "deterministic"),
            "citations": citations, "sources": dedupe_sources(citations), "thread_id": thread_id,
            "standalone": state.get("standalone"), "matches": answer.get("data", {}).get("candidate_ids"),
            "data": answer.get("data", {}), "notes": state.get("notes", []), "read_as": state.get("read_as", []), "follow_up": state.get("follow_up") or {}, "timings": state.get("timings", {}),
            "evidence_ids": [e["evidence_id"] for e in state.get("evidence", [])],
            "plan_terms": state.get("plan", {}).get("terms", []),
            "plan_candidates": state.get("plan", {}).get("candidates", []),
        }

    def match_jd(self, text: str, use_llm: bool = True, limit: int | None = 20) -> dict:
        """Rank candidates against a job description with a requirement × candidate matrix
        (the ``limit`` best people; None: everyone ranked)."""
        result = match_job(self, text, use_llm=self.llm_available(use_llm), limit=limit)

        # the ranking shown, as references; the description and requirements as digests (catalog/compliance/audit.py)
        audit_for(self.catalog).record_shown("job_match.run", details=ranking_details(
            [c["candidate_id"] for c in result.get("candidates") or []], mode=result.get("mode"),
            description=digest((text or "").strip()),
            requirements=digest(json.dumps(result.get("requirements") or {}, sort_keys=True, default=str))))
        return result

    # ---- threads -----------------------------------------------------------------------
    def threads(self) -> list[dict]:
        """Saved conversations, most recent first."""
        return self.threads_store.list()

    def rename_thread(self, thread_id: str, title: str) -> None:
        """Rename a conversation."""
        self.threads_store.rename(thread_id, title)

    def delete_thread(self, thread_id: str) -> None:
        """Delete a conversation and its memory."""
        self.threads_store.delete(thread_id)

    def history(self, thread_id: str) -> list[dict]:
        """The messages of a conversation (user and assistant), oldest first."""
        if not self.threads_store.exists(thread_id):
            raise NotFound(f"No conversation {thread_id!r}.")
        snapshot = self.graph.get_state({"configurable": {"thread_id": thread_id}})
        return list(snapshot.values.get("messages", []))
