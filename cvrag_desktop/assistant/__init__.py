"""The chat assistant: a LangGraph workflow that answers recruiters' questions with citations.

``AssistantService`` (in :mod:`.service`) is the entry point; the graph lives in
:mod:`.graph` (nodes in :mod:`.nodes`, state in :mod:`.state`, prompts in :mod:`.prompts`).
Routing and analytics are deterministic code; a language model, when one answers, only
rewrites, routes and phrases answers, and everything it says is validated.
"""

from __future__ import annotations

__all__ = ["AssistantService"]


def __getattr__(name: str):  # lazy: importing the package must not load LangGraph
    if name == "AssistantService":
        from cvrag_desktop.assistant.service import AssistantService

        return AssistantService
    raise AttributeError(name)
