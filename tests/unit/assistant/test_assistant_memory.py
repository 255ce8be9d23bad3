"""Threads: follow-ups across turns, persistence across restarts, list/rename/delete."""

from __future__ import annotations

import pytest

from cvrag_desktop.errors import NotFound
from tests.unit.assistant.conftest import make_assistant


def test_follow_up_resolves_to_the_last_cited_candidate(assistant):
    r1 = assistant.ask("Who stayed longest at one job?", thread_id="t1", use_llm=False)
    assert r1["data"]["candidate_ids"] == ["cand_cara"]
    r2 = assistant.ask("What about her education?", thread_id="t1", use_llm=False)
    assert r2["standalone"] == "What about Cara Lopez's education?"
    assert "Ph.D. in Physics" in r2["answer"] and r2["citations"][0]["candidate_id"] == "cand_cara"
    r3 = assistant.ask("And which languages does she speak?", thread_id="t1", use_llm=False)
    assert "Spanish" in r3["answer"] and "English" in r3["answer"]
    other = assistant.ask("What about her education?", thread_id="t2", use_llm=False)
    assert other["status"] == "unknown" or "Cara" not in other["answer"]  # threads do not leak


def test_thread_restored_after_restart(catalog, search):
    a = make_assistant(catalog, search)
    a.ask("Who knows React?", thread_id="keep", use_llm=False)
    a.close()
    b = make_assistant(catalog, search)  # a new service: state comes from threads.sqlite3
    try:
        history = b.history("keep")
        assert [m["role"] for m in history] == ["user", "assistant"]
        (ben,) = history[1]["candidates"]
        assert (ben["candidate_id"], ben["name"]) == ("cand_ben", "Ben Ortiz")
        assert ben["page"] is not None and "React" in ben["quote"]  # a restored chip opens the cited page
        r = b.ask("What is his email?", thread_id="keep", use_llm=False)
        assert "cand_ben@example.com" in r["answer"]
        assert [t["thread_id"] for t in b.threads()] == ["keep"]
    finally:
        b.close()


def test_rename_and_delete_threads(assistant):
    assistant.ask("Who speaks German?", thread_id="x", use_llm=False)
    assert assistant.threads()[0]["title"] == "Who speaks German?"
    assistant.rename_thread("x", "German speakers")
    assert assistant.threads()[0]["title"] == "German speakers"
    assistant.delete_thread("x")
    assert assistant.threads() == []
    with pytest.raises(NotFound):
        assistant.history("x")


def test_cancelled_turn_leaves_no_trace(assistant):
    import pytest

    from cvrag_desktop.errors import Cancelled

    assistant.ask("Who knows React?", thread_id="t", use_llm=False)
    with pytest.raises(Cancelled):
        assistant.ask("Who speaks German?", thread_id="t", use_llm=False, should_cancel=lambda: True)
    assert [m["content"] for m in assistant.history("t") if m["role"] == "user"] == ["Who knows React?"]
    with pytest.raises(Cancelled):
        assistant.ask("Who speaks German?", thread_id="new", use_llm=False, should_cancel=lambda: True)
    assert [t["thread_id"] for t in assistant.threads()] == ["t"]
