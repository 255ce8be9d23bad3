"""The LangGraph workflow: rewrite → route → one retrieval/analytics node → answer → validate.

``out_of_scope`` skips retrieval and goes straight to ``validate`` with its fixed reply.
The compiled graph is checkpointed per ``thread_id`` (see :mod:`.memory`).
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from cvrag_desktop.assistant import nodes
from cvrag_desktop.assistant.state import AssistantState

RETRIEVAL_NODES = ("metadata_search", "hybrid_search", "hybrid_filtered_search", "analytics")


def build_graph(checkpointer=None):
    """Compile the assistant graph (with ``checkpointer`` for per-thread memory, or none)."""
    g = StateGraph(AssistantState)
    g.add_node("rewrite_query", nodes.rewrite_query)
    g.add_node("route_intent", nodes.route_intent)
    g.add_node("metadata_search", nodes.metadata_search)
    g.add_node("hybrid_search", nodes.hybrid_search)
    g.add_node("hybrid_filtered_search", nodes.hybrid_filtered_search)
    g.add_node("analytics", nodes.analytics_node)
    g.add_node("out_of_scope", nodes.out_of_scope)
    g.add_node("generate_answer", nodes.generate_answer)
    g.add_node("validate", nodes.validate)
    g.add_edge(START, "rewrite_query")
    g.add_edge("rewrite_query", "route_intent")
    g.add_conditional_edges("route_intent", nodes.select_route, [*RETRIEVAL_NODES, "out_of_scope"])
    for name in RETRIEVAL_NODES:
        g.add_edge(name, "generate_answer")
    g.add_edge("out_of_scope", "validate")
    g.add_edge("generate_answer", "validate")
    g.add_edge("validate", END)
    return g.compile(checkpointer=checkpointer)
