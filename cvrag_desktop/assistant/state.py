"""The graph state: one conversation turn's working data plus the thread's history.

Only ``messages`` accumulates across turns (a reducer appends); every other key is
reset by the first node of each turn. Everything here is plain JSON-able data because
the checkpointer persists it; callables (token callback, cancel flag) and services
travel in the run config instead (see :mod:`.nodes`).
"""

from __future__ import annotations

import operator
from typing import Annotated, Literal, TypedDict

Route = Literal["out_of_scope", "metadata", "hybrid", "hybrid_filtered", "analytics"]
ROUTES: tuple[str, ...] = ("out_of_scope", "metadata", "hybrid", "hybrid_filtered", "analytics")


class Message(TypedDict, total=False):
    """One chat message as persisted: role, text and (assistant) the candidates it cited."""

    role: Literal["user", "assistant"]
    content: str
    status: str
    route: str
    candidates: list[dict]  # [{candidate_id, name}] cited by an assistant answer
    people: list[str]  # every candidate id the answer was about (what a follow-up narrows)
    asked: str  # the question as it was read
    citations: list[dict]


class AssistantState(TypedDict, total=False):
    """State of one thread. ``messages`` persists across turns; the rest is per turn."""

    messages: Annotated[list[Message], operator.add]
    question: str
    standalone: str
    route: Route
    filters: dict
    plan: dict  # router output: op, terms, candidate ids, field, ...
    evidence: list[dict]  # hit dicts labelled with evidence_id
    analytics: dict | None
    answer: dict  # {status, answer, citations: [evidence ids], mode, note}
    use_llm: bool
    llm_up: bool
    notes: list[str]
    read_as: list[dict]  # misspelt words and the terms they were read as ({written, read})
    follow_up: dict  # a follow-up: {note, rewritten, within: previous answer's ids, titles, previous}
    timings: dict  # milliseconds per stage


PER_TURN_RESET: dict = {
    "standalone": "", "route": "hybrid", "filters": {}, "plan": {}, "evidence": [], "analytics": None,
    "answer": {}, "notes": [], "read_as": [], "follow_up": {}, "timings": {},
}
