"""The chat assistant: a LangGraph workflow that answers recruiters' questions with citations.

``AssistantService`` (in :mod:`.service`) is the entry point; the graph lives in
:mod:`.graph` (nodes in :mod:`.nodes`, state in :mod:`.state`, prompts in :mod:`.prompts`).
Routing and analytics are deterministic code; a language model, when one answers, only
rewrites, routes and phrases answers, and everything it says is validated. Importing the
package loads nothing (LangGraph loads with :mod:`.service`).
"""
