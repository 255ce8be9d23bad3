"""Chat: ask a question about the library and get a cited answer; the saved conversations.

The assistant (``assistant/service.py``) is opened on first use and owned by the
:class:`~cvrag_desktop.app.assembly.App`; front ends never hold it themselves.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from cvrag_desktop.app.types import ShouldCancel
from cvrag_desktop.errors import InvalidInput

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

ASK_KEYS = ("status", "answer", "route", "filters", "mode", "thread_id", "read_as", "standalone", "follow_up",
            "warnings")
"""The keys of an answer that ``cvrag ask --json`` prints (a script's contract)."""
CITATION_KEYS = ("evidence_id", "candidate_id", "candidate_name", "source_path", "page", "section", "quote")
"""The keys of each citation that ``cvrag ask --json`` prints."""
THREAD_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def checked_thread_id(thread_id: str | None) -> str | None:
    """A conversation id as given, or :class:`InvalidInput` when it is not one.

    Ids are the assistant's own (12 hex characters) or a short name a script chose
    ("hiring-2026"): letters, digits, ``-`` and ``_``. Anything else (``../../x``, a path,
    control characters, an empty string) is refused before it reaches the conversation store.
    """
    if thread_id is None:
        return None
    if not isinstance(thread_id, str) or not THREAD_ID.fullmatch(thread_id):
        raise InvalidInput("A conversation id is 1-64 letters, digits, '-' or '_' "
                           "(as printed after an answer: \"thread 3f9c...\").")
    return thread_id


class ChatOps:
    """Grounded questions and answers, and the conversation threads they are kept in."""

    def __init__(self, app: App) -> None:
        self._app = app

    def open(self) -> None:
        """Open the assistant now (it opens the index first): the first question does not pay for it."""
        _ = self._app.assistant

    def ask(self, question: str, thread_id: str | None = None, use_llm: bool = True,
            on_token: Callable[[str], None] | None = None, should_cancel: ShouldCancel | None = None) -> dict:
        """Answer one question in a thread (a new thread when none is given), with citations.

        The answer dict is the assistant's, unchanged (``status``, ``answer``, ``route``,
        ``citations``, ``thread_id``, ...) plus ``warnings`` (e.g. the catalog is a partial rebuild,
        so "nobody has X" may be wrong); ``on_token`` receives draft pieces of a model's answer.
        """
        result = self._app.assistant.ask(question, thread_id=checked_thread_id(thread_id), use_llm=use_llm,
                                         on_token=on_token, should_cancel=should_cancel)
        partial = self._app.library.rebuild_status()  # an answer over part of the library must say so
        return {**result, "warnings": [partial["message"]] if partial else []}

    def llm_available(self, use_llm: bool = True) -> bool:
        """True when a model may and can be asked (settings on, endpoint up, answer model installed)."""
        return self._app.assistant.llm_available(use_llm)

    def threads(self) -> list[dict]:
        """Saved conversations, most recent first."""
        return self._app.assistant.threads()

    def history(self, thread_id: str) -> list[dict]:
        """The messages of a conversation (user and assistant), oldest first."""
        return self._app.assistant.history(checked_thread_id(thread_id))

    def rename_thread(self, thread_id: str, title: str) -> None:
        """Rename a conversation."""
        self._app.assistant.rename_thread(checked_thread_id(thread_id), title)

    def delete_thread(self, thread_id: str) -> None:
        """Delete a conversation and its memory."""
        self._app.assistant.delete_thread(checked_thread_id(thread_id))


def ask_json(result: dict) -> dict:
    """The part of an answer ``cvrag ask --json`` prints: :data:`ASK_KEYS` and each citation's :data:`CITATION_KEYS`."""
    data = {k: result.get(k) for k in ASK_KEYS}
    data["citations"] = [{k: c.get(k) for k in CITATION_KEYS} for c in result["citations"]]
    return data
