"""What the graph's nodes are given besides the state: services, settings, "today".

The state holds only data (it is checkpointed); the services a node needs travel in
``config["configurable"]["deps"]`` as one :class:`AssistantDeps`, with ``on_token`` and
``should_cancel`` beside it.
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass, field

from langchain_core.runnables import RunnableConfig

from cvrag_desktop.assistant.facts.people import PeopleIndex
from cvrag_desktop.assistant.facts.store import CatalogFacts
from cvrag_desktop.assistant.state import AssistantState
from cvrag_desktop.assistant.understand.typos import TermCache
from cvrag_desktop.assistant.understand.vocabulary import VocabularyCache
from cvrag_desktop.config import Settings


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


def configurable(config: RunnableConfig) -> dict:
    """The callables and services of a node's config (``deps``, ``on_token``, ``should_cancel``)."""
    return config.get("configurable", {})


def timed(state: AssistantState, name: str, t0: float) -> dict:
    """The turn's timings with one more step's milliseconds since ``t0``."""
    return {**state.get("timings", {}), name: round((time.perf_counter() - t0) * 1000, 1)}


def last_candidates(messages: list[dict]) -> list[dict]:
    """Candidates cited by the most recent assistant answer (what "she"/"they" refer to)."""
    for m in reversed(messages):
        if m.get("role") == "assistant" and m.get("candidates"):
            return m["candidates"]
    return []
